// sdk_client.mjs — the official MCP TypeScript SDK's client against `facet mcp`.
//
// Usage: node sdk_client.mjs FACET CATALOG   (run by mcp_sdk.sh, from the
// directory where it installed @modelcontextprotocol/sdk)
//
// The SDK does the handshake itself (initialize with its newest protocol
// revision, version check, notifications/initialized) and validates every
// answer against its own schema of MCP, so a malformed reply fails here even
// when our own tests would accept it. On the catalog of
// tests/mcp/programs/plugins.c: list the tools, reach without and with an
// agent edge, record_edges (a bad batch and a good one), and a tool error.
// Prints one line per failed check and "N passed, N failed"; exit 1 on failure.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [facet, catalog] = process.argv.slice(2);
let passed = 0, failed = 0;
function check(name, cond, detail) {
	if (cond) { passed++; return true; }
	failed++;
	console.log(`FAIL ${name}${detail === undefined ? "" : ": " + JSON.stringify(detail).slice(0, 800)}`);
	return false;
}

const transport = new StdioClientTransport({ command: facet, args: ["mcp"], stderr: "pipe" });
let stderr = "";
transport.stderr?.on("data", (chunk) => { stderr += chunk; });
const client = new Client({ name: "facet-sdk-test", version: "1.0.0" });

async function tool(name, args) {
	const r = await client.callTool({ name, arguments: args });
	let data = r.structuredContent;
	if (data === undefined && !r.isError)
		data = JSON.parse(r.content[0].text);
	return { r, data, text: r.content?.map((c) => c.text ?? "").join("") ?? "" };
}

try {
	await client.connect(transport);
	check("server identifies as facet", client.getServerVersion()?.name === "facet", client.getServerVersion());
	check("server has the tools capability", client.getServerCapabilities()?.tools !== undefined,
	      client.getServerCapabilities());

	const { tools } = await client.listTools();
	const names = tools.map((t) => t.name);
	for (const n of ["load_catalog", "reach", "record_edges", "list_overlay", "save_overlay", "resolution_candidates"])
		check(`tools/list has ${n}`, names.includes(n), names);
	check("tools/list: 19 tools", tools.length === 19, names);
	const reachTool = tools.find((t) => t.name === "reach");
	check("reach schema requires from and to",
	      JSON.stringify(reachTool?.inputSchema?.required) === JSON.stringify(["from", "to"]), reachTool?.inputSchema);

	let { r, data } = await tool("load_catalog", { path: catalog });
	check("load_catalog succeeds", r.isError === false, r);

	({ r, data } = await tool("reach", { from: "main", to: "legacy_flush" }));
	check("reach main -> legacy_flush: no path without the overlay", r.isError === false && data.reachable === false, data);

	// The flush site: the one indirect call at codec->flush(state).
	({ data } = await tool("callees", { name: "run_codec" }));
	const flush = data.sites.filter((s) => s.kind === "indirect").sort((a, b) => b.line - a.line)[0];
	({ data } = await tool("resolution_candidates", {}));
	const group = data.groups.find((g) => g.sites.some((s) => s.id === flush.id));
	check("resolution_candidates lists the flush site", group !== undefined, data.groups);
	const target = group?.field ? { via_field: { record: group.record, offset: group.offset } } : { site: flush.id };
	const add = {
		op: "add", ...target, to: "legacy_flush", confidence: "medium",
		provenance: ["tests/mcp/programs/plugins.c:79: hex_ops = {..., (void (*)(void *))(void (*)(void))legacy_flush}"],
	};

	({ r } = await tool("record_edges", { records: [add, { ...add, confidence: "certain" }] }));
	check("record_edges with a bad record: a tool error naming it",
	      r.isError === true && /records\[1\]\.confidence/.test(r.content[0].text), r);
	let text;
	({ r, data, text } = await tool("record_edges", { records: [add] }));
	check("record_edges: applied", r.isError === false && data.applied === 1 && data.pending === true, text);

	({ r, data } = await tool("reach", { from: "main", to: "legacy_flush", include_overlay: true }));
	check("reach with include_overlay: a path", r.isError === false && data.reachable === true, data);
	check("reach with include_overlay: not proven, one agent step",
	      data.proven === false && data.uncertainty?.agent_path_steps === 1, data);
	check("reach with include_overlay: main -> run_codec -> legacy_flush",
	      JSON.stringify(data.path) === JSON.stringify(["main", "run_codec", "legacy_flush"]), data.path);

	({ r, text } = await tool("reach", { from: "main" }));
	check("reach without 'to': a tool error the model can read",
	      r.isError === true && text.includes("missing required 'to'"), r);

	({ r, text } = await tool("unload_catalog", {}));
	check("unload_catalog refuses unsaved records", r.isError === true && text.includes("discard_pending"), r);

	// Unknown tool: a protocol error, which the SDK raises.
	let threw = false;
	try { await client.callTool({ name: "no_such_tool", arguments: {} }); } catch (e) { threw = /no_such_tool/.test(String(e)); }
	check("an unknown tool is a JSON-RPC error", threw);

	await client.ping();
	passed++;
} catch (e) {
	check("SDK session", false, String(e?.stack ?? e));
} finally {
	await client.close().catch(() => {});
}
if (failed)
	console.log("server stderr:\n" + stderr);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
