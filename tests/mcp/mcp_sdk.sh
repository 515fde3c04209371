#!/usr/bin/env bash
# mcp_sdk.sh — `facet mcp` driven by the official MCP TypeScript SDK's client.
#
# Usage: mcp_sdk.sh FACET SRCDIR WORKDIR
#
# Installs @modelcontextprotocol/sdk with the machine's npm into
# WORKDIR/node (inside the build directory, which git ignores), builds a
# catalog of tests/mcp/programs/plugins.c with `facet build`, and runs
# sdk_client.mjs: the SDK connects over stdio (its own initialize handshake
# and version negotiation), lists the tools and checks every input schema
# with Ajv (the SDK's validator, and strictly against the 2020-12
# meta-schema), and calls load_catalog, defs, callers (a function as
# {module_id, symbol}), resolution_candidates, reach and record_edges,
# checking the answers.
#
# Exit status: 0 passed, 1 failed, 2 misuse, 77 skipped (no node/npm, npm
# cannot reach its registry, or `facet build` is not in this build).

set -u
if [ $# -ne 3 ]; then
	echo "usage: $0 FACET SRCDIR WORKDIR" >&2
	exit 2
fi
facet=$1 srcdir=$2 work=$3
here=$srcdir/tests/mcp
# The SDK release the test was written against; newer 1.x releases keep the
# client API used here.
sdk_version=${FACET_MCP_SDK_VERSION:-1.32.2}

for tool in node npm; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "mcp_sdk: SKIP: $tool is not installed (the SDK test needs Node.js and npm)"
		exit 77
	fi
done
if ! command -v clang-22 >/dev/null 2>&1; then
	echo "mcp_sdk: clang-22 not found on PATH" >&2
	exit 2
fi
if ! "$facet" build --help >/dev/null 2>&1; then
	echo "mcp_sdk: SKIP: this facet has no 'build' command yet (issue 7), so there is no catalog to serve"
	exit 77
fi

mkdir -p "$work/node" || exit 2
node_dir=$(cd "$work/node" && pwd)
if [ ! -f "$node_dir/node_modules/@modelcontextprotocol/sdk/package.json" ] ||
   ! grep -q "\"version\": \"$sdk_version\"" "$node_dir/node_modules/@modelcontextprotocol/sdk/package.json"; then
	printf '{"name":"facet-mcp-sdk-test","private":true,"type":"module"}\n' >"$node_dir/package.json"
	if ! (cd "$node_dir" && npm install --no-audit --no-fund --loglevel=error \
	          "@modelcontextprotocol/sdk@$sdk_version" >"$node_dir/npm.log" 2>&1); then
		if ! (cd "$node_dir" && timeout 60 npm ping >/dev/null 2>&1); then
			echo "mcp_sdk: SKIP: npm cannot reach its registry (npm ping failed); see $node_dir/npm.log"
			exit 77
		fi
		echo "mcp_sdk: FAIL: npm install of @modelcontextprotocol/sdk@$sdk_version failed although the registry answers:"
		tail -20 "$node_dir/npm.log"
		exit 1
	fi
fi
cp "$here/sdk_client.mjs" "$node_dir/sdk_client.mjs" || exit 2

# The catalog: compiled from the repository root so the debug info names the
# file tests/mcp/programs/plugins.c.
cat_dir=$(mktemp -d "${TMPDIR:-/tmp}/facet-mcp-sdk.XXXXXX") || exit 2
trap 'rm -rf "$cat_dir"' EXIT
(cd "$srcdir" && clang-22 -g -O0 -c -emit-llvm tests/mcp/programs/plugins.c -o "$cat_dir/plugins.bc") || exit 1
if ! "$facet" build "$cat_dir/plugins.bc" -o "$cat_dir/plugins.facet" >"$cat_dir/build.log" 2>&1; then
	echo "mcp_sdk: FAIL: facet build failed:"
	cat "$cat_dir/build.log"
	exit 1
fi

node "$node_dir/sdk_client.mjs" "$facet" "$cat_dir/plugins.facet"
