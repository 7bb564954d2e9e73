#!/usr/bin/env bash
# Installs what mcp-cpp needs on Debian 12, skipping what is already there.
#   scripts/install-deps.sh            build dependencies
#   scripts/install-deps.sh --test     plus what the tests need (JSON-Schema-Test-Suite, Redis and nginx
#                                      for the several-node tests, redis-sentinel for the failover test,
#                                      wrk and valgrind for the benchmark smoke run,
#                                      clang-tidy and clang-format for scripts/tidy.sh and check-format.sh, Prometheus and
#                                      promtool for the metrics tests, Chromium to render the demo's MCP App headless,
#                                      clang 14 and its sanitizer and libFuzzer runtimes for tests/fuzz,
#                                      npm packages)
# Node.js and npm come from NodeSource on our machines: never apt-get nodejs or npm here, that
# would replace them.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build ccache pkg-config
          libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
          libssl-dev libfmt-dev libspdlog-dev libcli11-dev libyaml-dev)
with_tests=0
if [[ "${1:-}" == "--test" ]]; then
  with_tests=1
  packages+=(libgtest-dev libgmock-dev json-schema-test-suite redis-server redis-sentinel nginx wrk valgrind clang-tidy
             clang-format prometheus chromium)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  # The tests start redis-server and nginx themselves, on loopback ports of their own: keep the
  # packages' system services from starting (policy-rc.d 101 = "not now"), unless one is set up.
  policy=/usr/sbin/policy-rc.d
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo_cmd[@]}" tee "$policy" >/dev/null
    "${sudo_cmd[@]}" chmod +x "$policy"
    trap '"${sudo_cmd[@]}" rm -f "$policy"' EXIT
  fi
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ((with_tests)); then
  command -v node >/dev/null && command -v npm >/dev/null || {
    echo "error: the end-to-end tests need node and npm (Node.js 20 or newer)" >&2; exit 1; }
  # Pinned by tests/e2e/package-lock.json.
  npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error
  # The MCP conformance suite and the Node 22 it runs on, pinned by tests/conformance/package-lock.json.
  npm ci --prefix tests/conformance --no-audit --no-fund --loglevel=error
fi
