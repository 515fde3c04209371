// sdk_client.mjs — the official MCP TypeScript SDK's client against `facet mcp`.
//
// Usage: node sdk_client.mjs FACET CATALOG   (run by mcp_sdk.sh, from the
// directory where it installed @modelcontextprotocol/sdk)
//
// The SDK does the handshake itself (initialize with its newest protocol
// revision, version check, notifications/initialized) and validates every
// answer against its own schema of MCP, so a malformed reply fails here even
// when our own tests would accept it. On the catalog of
// tests/mcp/programs/plugins.c: list the tools and compile every input
// schema with the SDK's own JSON Schema validator (Ajv, as the SDK sets it up)
// and with a strict Ajv checking it against the 2020-12 meta-schema (the
// dialect MCP 2025-11-25 assumes); a function given as {module_id, symbol};
// reach without and with an agent edge, record_edges (a bad batch and a good
// one), and a tool error.
// Prints one line per failed check and "N passed, N failed"; exit 1 on failure.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import Ajv2020 from "ajv/dist/2020.js";

const [facet, catalog] = process.argv.slice(2);
let passed = 0, failed = 0;
function check(name, cond, detail) {
	if (cond) { passed++; return true; }
	failed++;
	console.log(`FAIL ${name}${detail === undefined ? "" : ": " + JSON.stringify(detail).slice(0, 800)}`);
	return false;
}

// The server reads and writes only in the directories it is given (docs/mcp.md).
const catalogDir = catalog.includes("/") ? catalog.slice(0, catalog.lastIndexOf("/")) || "/" : ".";
const transport = new StdioClientTransport({ command: facet, args: ["mcp", "--read-dir", catalogDir, "--write-dir", catalogDir],
	stderr: "pipe" });
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
	check("tools/list: 21 tools", tools.length === 21, names);
	const reachTool = tools.find((t) => t.name === "reach");
	check("reach schema requires from and to",
	      JSON.stringify(reachTool?.inputSchema?.required) === JSON.stringify(["from", "to"]), reachTool?.inputSchema);

	// Every input schema is valid JSON Schema for the SDK's validator and,
	// strictly, for the 2020-12 meta-schema (unknown keywords are errors).
	const sdkAjv = new AjvJsonSchemaValidator();
	const strict = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
	const validators = {};
	for (const t of tools) {
		try {
			validators[t.name] = sdkAjv.getValidator(t.inputSchema);
			check(`${t.name}: input schema valid against the 2020-12 meta-schema`,
			      strict.validateSchema(t.inputSchema), strict.errors);
			strict.compile(t.inputSchema);
			passed++;
		} catch (e) {
			check(`${t.name}: input schema compiles`, false, String(e));
		}
	}
	// The SDK's validator and facet's agree on function arguments.
	const fn = { module_id: "tests/mcp/programs/plugins.c", symbol: "run_codec" };
	const cases = [
		[{ from: "main", to: fn }, true], [{ from: fn, to: "main" }, true],
		[{ from: "main", to: { symbol: "run_codec" } }, false],
		[{ from: "main", to: { ...fn, module_id: 3 } }, false],
		[{ from: "main", to: { ...fn, line: 3 } }, false], [{ from: "main", to: "" }, false],
		[{ from: "main", to: [] }, false],
	];
	for (const [args, valid] of cases)
		check(`SDK validator on reach ${JSON.stringify(args)}: ${valid ? "valid" : "invalid"}`,
		      validators.reach?.(args).valid === valid, validators.reach?.(args));

	let { r, data } = await tool("load_catalog", { path: catalog });
	check("load_catalog succeeds", r.isError === false, r);

	// The same verdicts from facet: the valid ones answer, the others are tool errors.
	for (const [args, valid] of cases) {
		({ r } = await tool("reach", args));
		check(`facet on reach ${JSON.stringify(args)}: ${valid ? "answers" : "a tool error"}`, r.isError === !valid, r);
	}
	// {module_id, symbol} as defs gives it names the function.
	({ data } = await tool("defs", { name: "run_codec" }));
	const def = data.functions?.[0];
	({ r, data } = await tool("callers", { name: { module_id: def?.module_id, symbol: def?.name } }));
	check("callers {module_id, symbol} of run_codec: main",
	      r.isError === false && JSON.stringify(data.callers?.map((c) => c.function.name)) === '["main"]', data);

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
