#!/usr/bin/env bash
# Installs what mcp-cpp needs on Debian 12, skipping what is already there. Everything it prints
# goes to stderr, so that scripts/demo.sh's stdout carries only the server's messages.
#   scripts/install-deps.sh            build dependencies
#   scripts/install-deps.sh --test     plus what the default test tier needs (scripts/test.sh): GoogleTest,
#                                      the JSON-Schema-Test-Suite, Redis for the store's unit tests,
#                                      clang-format for the format check, and the npm packages of the
#                                      end-to-end and conformance suites
#   scripts/install-deps.sh --full     plus what scripts/test.sh --full needs: nginx and redis-sentinel for the
#                                      several-node suites, wrk and valgrind for the benchmark smoke run,
#                                      clang-tidy, clang 14 with its sanitizer and libFuzzer runtimes,
#                                      Prometheus, Chromium, and lintian for the Debian packages
# Node.js and npm come from NodeSource on our machines: never apt-get nodejs or npm here, that
# would replace them.
set -euo pipefail
cd "$(dirname "$0")/.."
exec >&2

packages=(build-essential cmake ninja-build ccache pkg-config
          libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
          libssl-dev libfmt-dev libspdlog-dev libcli11-dev libyaml-dev)
tier=${1:-}
case "$tier" in
  "") ;;
  --test | --full)
    packages+=(libgtest-dev libgmock-dev json-schema-test-suite redis-server clang-format)
    if [[ $tier == --full ]]; then
      packages+=(redis-sentinel nginx wrk valgrind clang-tidy clang-14 libclang-rt-14-dev prometheus chromium lintian
                libjemalloc-dev libmimalloc-dev)
    fi
    ;;
  *) echo "usage: scripts/install-deps.sh [--test | --full]"; exit 2 ;;
esac

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

if [[ -n $tier ]]; then
  command -v node >/dev/null && command -v npm >/dev/null || {
    echo "error: the end-to-end tests need node and npm (Node.js 20 or newer)"; exit 1; }
  # tests/e2e: the SDK clients and the servers the suites drive; tests/conformance: the MCP conformance
  # suite and the Node 22 it runs on. Each is pinned by its package-lock.json and installed again only
  # when that file changed since the last install here.
  for dir in tests/e2e tests/conformance; do
    stamp=$dir/node_modules/.installed-lock.sha256
    sum=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
    if [[ ! -f $stamp || $(cat "$stamp") != "$sum" ]]; then
      npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
      echo "$sum" >"$stamp"
    fi
  done
fi
