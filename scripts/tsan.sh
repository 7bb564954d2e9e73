#!/usr/bin/env bash
# ThreadSanitizer over the unit tests and the end-to-end suites that exercise concurrency (the
# handler pool, calls that ask the client, Streamable HTTP, stdio, several nodes and Redis):
#
#   scripts/tsan.sh            unit tests, then those e2e suites (not a CI stage: run it by hand)
#   scripts/tsan.sh --unit     unit tests only
#   scripts/tsan.sh --e2e      the e2e suites only
#
# Builds with GCC and MCP_SANITIZE=thread into build-tsan/ (the tsan preset). Every process writes
# its reports to build-tsan/tsan-reports/; any report fails the run and is printed, except those
# tests/tsan.supp suppresses (each with the reason it is false). Extra arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."

scope=all
if [[ "${1:-}" == --unit || "${1:-}" == --e2e ]]; then
  scope=${1#--}
  shift
fi

targets=(unit_tests)
[[ $scope != unit ]] && targets+=(mcp-cpp-demo mcp-cpp-probe)
cmake --preset tsan -DMCP_WERROR=ON -DMCP_NODE_TESTS=ON >/dev/null
cmake --build --preset tsan -j "$(nproc)" --target "${targets[@]}"

reports="$PWD/build-tsan/tsan-reports"
rm -rf "$reports"
mkdir -p "$reports"
export TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp log_path=$reports/report second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
# Under TSan the server is several times slower and bigger: the e2e suites scale their waits for it
# and their memory bounds (tests/e2e/helpers.mjs).
export MCP_E2E_SCALE=${MCP_E2E_SCALE:-8}

status=0
if [[ $scope != e2e ]]; then
  # Every test but the node suites and the packaging checks, which run no code of ours under TSan.
  ctest --preset tsan -E '^(e2e|conformance|install|docs|examples|options)\.' "$@" || status=$?
fi
if [[ $scope != unit ]]; then
  ctest --preset tsan -R '^e2e\.(stdio_sdk|stdio_sdk_v2|http_sdk_v1|http_sdk_v2|http_hostile|http_shutdown|http_context|client_requests_v1|client_requests_v2|parked_elicitations|cluster|cluster_faults)$' \
    --timeout 900 "$@" || status=$?
fi

if compgen -G "$reports/report.*" >/dev/null; then
  echo "ThreadSanitizer reported $(cat "$reports"/report.* | grep -c '^WARNING: ThreadSanitizer') problems:"
  cat "$reports"/report.*
  status=1
fi
exit "$status"
