#!/usr/bin/env bash
# Installs what is missing, builds the demo server (and nothing else) into build/ (or $MCP_BUILD_DIR)
# and runs it on stdio. Extra arguments go to the server (try --help).
# Everything before the server's first message goes to stderr: stdout carries MCP messages only, as
# a stdio client expects (tests/e2e/demo_script.test.mjs checks it). The first run installs packages
# and builds for minutes: run it once in a terminal before pointing a client at it.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${MCP_BUILD_DIR:-build}
scripts/install-deps.sh >&2
# A new build directory gets no tests (they need GoogleTest); one set up by scripts/test.sh keeps them.
configure=()
[[ -f $build_dir/CMakeCache.txt ]] || configure=(-DMCP_BUILD_TESTS=OFF)
scripts/build.sh --target mcp-cpp-demo "${configure[@]}" >&2
if [[ -t 0 ]]; then
  echo "mcp-cpp-demo speaks MCP on stdin/stdout: paste JSON-RPC lines, or point a client at $build_dir/examples/demo/mcp-cpp-demo" >&2
fi
exec "$build_dir/examples/demo/mcp-cpp-demo" "$@"
