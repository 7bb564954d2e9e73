#!/usr/bin/env bash
# The MCP_ALLOCATOR build option (docs/adr/0031-allocator.md): mcp-cpp-demo built with jemalloc and
# with mimalloc must bind that malloc (it is mapped into the process; jemalloc's purging thread,
# which cmake/jemalloc_conf.cpp turns on, is running) and answer a call. The library's objects are
# the default build's (ccache), so each build is mostly a link.
#   scripts/check-allocators.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR=$PWD CCACHE_IGNOREOPTIONS=-Werror

fail() { echo "check-allocators: $*" >&2; exit 1; }

for allocator in jemalloc mimalloc; do
  dir=build-$allocator
  MCP_BUILD_DIR=$dir scripts/build.sh --target mcp-cpp-demo -DMCP_ALLOCATOR=$allocator -DMCP_WERROR=ON \
    -DMCP_BUILD_TESTS=OFF -DMCP_BUILD_BENCH=OFF -DMCP_BUILD_TOOLS=OFF >/dev/null
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$dir/examples/demo/mcp-cpp-demo" --http "127.0.0.1:$port" --log-level error &
  pid=$!
  trap 'kill $pid 2>/dev/null || true' EXIT
  reply=""
  for _ in $(seq 50); do
    reply=$(curl -s --max-time 2 "http://127.0.0.1:$port/mcp" -H 'Content-Type: application/json' \
      -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2026-07-28' \
      -H 'Mcp-Method: tools/call' -H 'Mcp-Name: echo' \
      -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"bound"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"check","version":"1"}}}}') && break
    sleep 0.1
  done
  [[ $reply == *'"text":"bound"'* ]] || fail "$allocator: the demo did not answer the call: ${reply:-nothing}"
  grep -q "lib$allocator" "/proc/$pid/maps" || fail "$allocator: lib$allocator is not mapped into the demo"
  if [[ $allocator == jemalloc ]] && ! grep -qs jemalloc_bg_thd /proc/"$pid"/task/*/comm; then
    fail "jemalloc: no background purging thread (cmake/jemalloc_conf.cpp was not read)"
  fi
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  trap - EXIT
  echo "check-allocators: $allocator bound and answering"
done
