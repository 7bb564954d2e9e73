#!/usr/bin/env bash
# The Debian packages as a user gets them: builds them with CPack from a Release build directory,
# installs them with apt-get, builds tests/consumer against the installed package only (CMake's
# find_package and pkg-config), runs it and the installed demo, checks both packages with lintian
# (no errors), then purges them and checks that nothing is left.
#   tests/packages/check.sh BUILD_DIR          (scripts/test.sh --full; needs root or sudo, and lintian)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: tests/packages/check.sh BUILD_DIR}" && pwd)
work=$(mktemp -d)
sudo_cmd=()
[[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
packages=(libmcp-cpp-dev mcp-cpp-tools)

for p in "${packages[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    echo "error: $p is installed already; this check installs and purges it itself" >&2
    exit 1
  fi
done
cleanup() {
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${packages[@]}" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "--- cpack"
(cd "$build" && cpack -G DEB -B "$work/debs" >/dev/null)
debs=("$work"/debs/*.deb)
((${#debs[@]} == 2)) || { echo "error: expected two packages, got: ${debs[*]}" >&2; exit 1; }
for deb in "${debs[@]}"; do
  echo "$(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"
done

echo "--- lintian"
# Errors fail; warnings (no manual page for the demo, say) are shown.
lintian --fail-on error --tag-display-limit 0 "${debs[@]}"

echo "--- apt-get install"
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${debs[@]}" >/dev/null

expect='"id":2,"result":{"content":[{"type":"text","text":"{\"result\":42}"}],"structuredContent":{"result":42}}'
check_consumer() {  # $1: what built it, $2: the binary
  local out
  out=$("$2" <"$root/tests/consumer/input.jsonl")
  if [[ $out != *"$expect"* ]]; then
    echo "error: the consumer built with $1 answered:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "consumer built with $1: answers"
}

echo "--- consumer with find_package, nothing but the installed package"
cmake -S "$root/tests/consumer" -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/consumer" >/dev/null
check_consumer "CMake" "$work/consumer/consumer"

echo "--- consumer with pkg-config"
# shellcheck disable=SC2046
g++ -std=c++20 -O1 "$root/tests/consumer/main.cpp" -o "$work/consumer-pc" $(pkg-config --cflags --libs mcp-cpp)
check_consumer "pkg-config" "$work/consumer-pc"

echo "--- the tools"
demo_out=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"check","version":"1"}}}' \
  | /usr/bin/mcp-cpp-demo --log-level off)
[[ $demo_out == *'"name":"mcp-cpp-demo"'* ]] || { echo "error: /usr/bin/mcp-cpp-demo answered: $demo_out" >&2; exit 1; }
echo "/usr/bin/mcp-cpp-demo: answers"
client_out=$(/usr/bin/mcp-cpp-client tools/call echo text=packaged -- /usr/bin/mcp-cpp-demo --log-level off)
[[ $client_out == packaged ]] || { echo "error: /usr/bin/mcp-cpp-client printed: $client_out" >&2; exit 1; }
echo "/usr/bin/mcp-cpp-client: calls the demo's echo"
printf '{"mcpServers": {"demo": {"command": "/usr/bin/mcp-cpp-demo", "args": ["--log-level", "off"]}}}' >"$work/servers.json"
gateway_out=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"check","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"demo_echo","arguments":{"text":"gated"}}}' \
  | /usr/bin/mcp-cpp-gateway --servers "$work/servers.json" --log-level off)
[[ $gateway_out == *'"text":"gated"'* ]] || { echo "error: /usr/bin/mcp-cpp-gateway answered: $gateway_out" >&2; exit 1; }
echo "/usr/bin/mcp-cpp-gateway: serves the demo's echo as demo_echo"

echo "--- apt-get purge"
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${packages[@]}" >/dev/null
left=()
for path in /usr/include/mcp /usr/lib/libmcp-cpp.a /usr/lib/cmake/mcp-cpp /usr/lib/pkgconfig/mcp-cpp.pc /usr/bin/mcp-cpp-demo \
            /usr/bin/mcp-cpp-client /usr/bin/mcp-cpp-gateway /usr/share/doc/libmcp-cpp-dev /usr/share/doc/mcp-cpp-tools; do
  [[ -e $path ]] && left+=("$path")
done
((${#left[@]} == 0)) || { echo "error: left after purge: ${left[*]}" >&2; exit 1; }
echo "purged: nothing left"
