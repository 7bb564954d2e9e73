#!/usr/bin/env bash
# Configures and builds mcp-cpp (Release) into build/, or into $MCP_BUILD_DIR.
#   scripts/build.sh [--target T]... [CMAKE_ARGS...]   builds every target, or only the ones named
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${MCP_BUILD_DIR:-build}
targets=()
while [[ ${1:-} == --target ]]; do
  targets+=(--target "$2")
  shift 2
done
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
