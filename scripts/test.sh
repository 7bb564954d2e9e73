#!/usr/bin/env bash
# The tests, in two tiers (CONTRIBUTING.md, "Test tiers and the CI budget"):
#
#   scripts/test.sh [CTEST_ARGS...]          the default tier: installs what is missing, checks the layers and
#                                            the format, builds (Release, warnings as errors) and runs the tests
#                                            labelled `fast`: unit tests, the end-to-end suites with the
#                                            TypeScript SDK clients on both wires, the conformance suite on one node
#   scripts/test.sh --full [CTEST_ARGS...]   the default tier, then the tests labelled `long` (several nodes on
#                                            Redis and Sentinel, Prometheus, Chromium, demo.sh's stdout), clang-tidy,
#                                            the benchmark smoke run, the demo built with jemalloc and with
#                                            mimalloc (check-allocators.sh), the sanitizer build (clang, ASan, UBSan) with
#                                            its tests and every fuzz target for 20 s, and the Debian packages
#                                            installed, used and removed. CI runs this (.ci/run).
#
# Extra arguments go to the ctest runs of build/ (e.g. -R stdio). It prints the wall time of each stage
# as it ends, and a table of them with each tier's total at the end (also when a stage fails).
set -euo pipefail
cd "$(dirname "$0")/.."

full=0
if [[ ${1:-} == --full ]]; then
  full=1
  shift
fi

# ccache: compile commands are compared relative to the source tree, and without -Werror, so that the demo
# check's build in build-demo-check/ (tests/scripts/demo_stdout.test.mjs) reuses what build/ compiled. A
# compile with warnings fails under -Werror and is never cached, so nothing cached hides a warning.
export CCACHE_BASEDIR=$PWD CCACHE_IGNOREOPTIONS=-Werror

run_start=$SECONDS
default_tier_seconds=""
names=()
times=()
summary() {
  local status=$?
  echo "::: stage times"
  local i
  for i in "${!names[@]}"; do printf ':::   %-26s %5d s\n' "${names[$i]}" "${times[$i]}"; done
  local total=$((SECONDS - run_start))
  if [[ -n $default_tier_seconds ]]; then
    echo "::: default tier: ${default_tier_seconds} s (budget: 15 min cold, 7.5 min warm)"
  fi
  if ((full)) && ((status == 0)); then
    echo "::: full tier: ${total} s (budget: 45 min)"
  fi
  ((status == 0)) || echo "::: FAILED after ${total} s"
}
trap summary EXIT

stage() {
  local name=$1
  shift
  local start=$SECONDS
  echo "::: ${name}"
  "$@"
  names+=("$name")
  times+=($((SECONDS - start)))
  echo "::: ${name}: $((SECONDS - start)) s"
}

# Every test carries `fast` or `long` (the tier it runs in); one with neither would never run.
check_tier_labels() {
  local unlabelled
  unlabelled=$(ctest --test-dir build -N -LE '^(fast|long)$' | sed -n 's/^ *Test *#[0-9]*: //p')
  if [[ -n $unlabelled ]]; then
    echo "error: these tests have no tier label (fast or long; CONTRIBUTING.md, \"Test tiers\"):"
    echo "$unlabelled"
    return 1
  fi
}

# ctest, failing when a test skipped itself: ctest counts a skip as a pass, and a check that does not
# run proves nothing (fix the test, or do not register it where it cannot run).
run_tests() {
  local log rc
  log=$(mktemp)
  ctest "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  if grep -q '(Skipped)$' "$log"; then
    echo "error: the tests above marked (Skipped) did not run"
    rc=1
  fi
  rm -f "$log"
  return "$rc"
}

# --- the default tier -------------------------------------------------------------------------------
stage "install dependencies" scripts/install-deps.sh --test
stage "layer check" scripts/check-layers.sh
stage "format check" scripts/check-format.sh
# Warnings fail; the Node.js suites are asked for, so a machine without node fails here rather than
# skipping them.
stage "build" scripts/build.sh -DMCP_BUILD_TESTS=ON -DMCP_WERROR=ON -DMCP_NODE_TESTS=ON
stage "tier labels" check_tier_labels
stage "tests (fast)" run_tests --test-dir build --output-on-failure -j 2 -L '^fast$' "$@"
default_tier_seconds=$((SECONDS - run_start))
((full)) || exit 0

# --- the full tier ----------------------------------------------------------------------------------
stage "install full-tier deps" scripts/install-deps.sh --full
stage "tests (long)" run_tests --test-dir build --output-on-failure -j 2 -L '^long$' "$@"
stage "clang-tidy" scripts/tidy.sh
# Every reply checked, no time asserted: bench/run.sh --quick.
stage "benchmark smoke" bench/run.sh --quick --no-build
stage "allocator builds" scripts/check-allocators.sh

# One clang build serves the sanitizer tests and the fuzz targets (docs/adr/0022): ASan and UBSan at -O0,
# with libFuzzer's coverage instrumentation. The tests that run again under it are the sanitize test
# preset's (CMakePresets.json): HTTP, stdio, several nodes, client requests, OAuth, CORS, conformance,
# Redis, JWTs, token verification, authorization, the HTTP client and the SSE parser.
sanitized_targets=(mcp-cpp-demo mcp-cpp-probe mcp-cpp-conformance mcp-cpp-conformance-client test_redis_client
  test_redis_sentinel test_redis_backend test_redis_tls test_redis_cluster_pieces test_jwt test_token_verifier test_server_authorization
  test_net fuzz_targets)
stage "sanitizer build" bash -c "cmake --preset sanitize -DMCP_WERROR=ON -DMCP_NODE_TESTS=ON >/dev/null && \
    cmake --build --preset sanitize -j $(nproc) --target ${sanitized_targets[*]}"
stage "sanitizer tests" run_tests --preset sanitize
# Every fuzz target from its committed seeds and regressions: a crash, undefined behaviour, a hang or
# unbounded growth fails (tests/fuzz/campaign.sh prints the figures).
stage "fuzz" tests/fuzz/campaign.sh --build-dir build-sanitize --seconds 20 --jobs "$(nproc)"
stage "packages" tests/packages/check.sh build
