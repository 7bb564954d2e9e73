#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (unit, end-to-end, install/consumer),
# printing the wall time of each stage. Extra arguments go to ctest (e.g. -R stdio).
set -euo pipefail
cd "$(dirname "$0")/.."

stage() {
  local name=$1; shift
  local start=$SECONDS
  echo "::: ${name}"
  "$@"
  echo "::: ${name}: $((SECONDS - start)) s"
}

stage "install dependencies" scripts/install-deps.sh --test
stage "build" scripts/build.sh -DMCP_BUILD_TESTS=ON
stage "test" ctest --test-dir build --output-on-failure -j 2 "$@"
