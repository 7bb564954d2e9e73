#!/usr/bin/env bash
# Runs clang-tidy (the checks of .clang-tidy) over the library's sources, with the compile commands
# of build/ (scripts/build.sh makes them). Any finding fails: .clang-tidy sets WarningsAsErrors.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f build/compile_commands.json ]] || { echo "error: no build/compile_commands.json; run scripts/build.sh" >&2; exit 1; }
start=$SECONDS
# clang does not know some of GCC's warning flags (-Wshadow=local); they are GCC's to check. With
# MCP_WERROR's -Werror, clang's own warnings would be errors whatever .clang-tidy says: -Wno-error
# leaves them to its clang-diagnostic-* globs.
# *_impl.cpp only compile Asio and Beast (separate compilation): Boost's code, not ours.
status=0
run-clang-tidy -p build -j "$(nproc)" -quiet -extra-arg=-Wno-unknown-warning-option -extra-arg=-Wno-error \
  "^$PWD/src/.*(?<!_impl)\.cpp\$" || status=$?
echo "clang-tidy: $((SECONDS - start)) s"
exit $status
