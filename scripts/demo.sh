#!/usr/bin/env bash
# Installs what is missing, builds, and runs the demo server on stdio. Extra arguments go to the
# server (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh >&2
if [[ -t 0 ]]; then
  echo "mcp-cpp-demo speaks MCP on stdin/stdout: paste JSON-RPC lines, or point a client at build/examples/demo/mcp-cpp-demo" >&2
fi
exec build/examples/demo/mcp-cpp-demo "$@"
