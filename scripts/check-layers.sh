#!/usr/bin/env bash
# Lists the include graph between the library's layers (docs/architecture.md) and fails when a file
# includes a header of a layer above its own or of a sibling layer (the client and the core are
# siblings: neither includes the other), or when a transport or the bridge includes a private header
# of the core (they use its public API only), or when an #include path climbs with "..": a relative
# path would reach a header through the including file's own directory, which the build's include
# roots do not police, and this check could not tell its layer. The build enforces the same rules
# for src/ (each layer compiles against the private headers it may use only); this check covers the
# public headers under include/mcp as well, and shows the graph.
set -euo pipefail
cd "$(dirname "$0")/.."

# Layers, lowest first, each with its rank: a file may include its own layer or a lower rank.
# Layers of equal rank are siblings and may not include each other.
declare -A rank=([util]=0 [net]=1 [json]=1 [protocol]=2 [security]=2 [jose]=2 [telemetry]=2 [store]=3 [sessions]=4 [core]=5 [client]=5 [auth]=6 [ext]=6 [stdio]=7 [http]=7 [bridge]=8 [app]=9)
order=(util net json protocol security jose telemetry store sessions core client auth ext stdio http bridge app)

# The layer of a file (a path under src/ or include/) or of an included path; nothing for a
# system or third-party header.
layer_of() {
  case "$1" in
    src/util/*|util/*|include/mcp/util/*|mcp/util/*) echo util ;;
    src/net/*|net/*|include/mcp/net/*|mcp/net/*) echo net ;;
    src/json/*|json/*|include/mcp/json/*|mcp/json/*) echo json ;;
    src/protocol/*|protocol/*|include/mcp/protocol/*|mcp/protocol/*) echo protocol ;;
    src/security/*|security/*|include/mcp/security/*|mcp/security/*) echo security ;;
    src/jose/*|jose/*) echo jose ;;
    src/telemetry/*|telemetry/*|include/mcp/telemetry/*|mcp/telemetry/*) echo telemetry ;;
    src/store/*|store/*) echo store ;;
    src/sessions/*|sessions/*|include/mcp/sessions/*|mcp/sessions/*) echo sessions ;;
    src/server/*|server/*|include/mcp/server/*|mcp/server/*) echo core ;;
    src/client/*|client/*|include/mcp/client/*|mcp/client/*) echo client ;;
    src/bridge/*|bridge/*|include/mcp/bridge/*|mcp/bridge/*) echo bridge ;;
    src/auth/*|auth/*|include/mcp/auth/*|mcp/auth/*) echo auth ;;
    src/ext/*|ext/*|include/mcp/ext/*|mcp/ext/*) echo ext ;;
    src/transport/stdio/*|transport/stdio/*|include/mcp/transport/stdio.hpp|mcp/transport/stdio.hpp) echo stdio ;;
    src/transport/http/*|transport/http/*|include/mcp/transport/http.hpp|mcp/transport/http.hpp) echo http ;;
    src/run.cpp|src/run/*|run/*|include/mcp/run.hpp|mcp/run.hpp|include/mcp/mcp.hpp|mcp/mcp.hpp) echo app ;;
  esac
}

# A transport (and auth, which serves it, the extensions, built on the server's public API, and the
# bridge, which joins a client to a server by their public APIs) may include the private headers of
# the layers below the core, not the core's own; the bridge none of the client's either.
private_denied() {
  [[ ($1 == stdio || $1 == http || $1 == auth || $1 == ext || $1 == bridge) && $2 == core ]] ||
    [[ $1 == bridge && $2 == client ]]
}

declare -A public_edges=() private_edges=()
violations=()
while IFS= read -r file; do
  from=$(layer_of "$file")
  [[ -n $from ]] || { violations+=("$file: not in any layer"); continue; }
  while IFS= read -r included; do
    if [[ $included =~ (^|/)\.\.(/|$) ]]; then violations+=("$file includes $included (a path with ..)"); continue; fi
    to=$(layer_of "$included")
    [[ -n $to ]] || continue
    [[ $to == "$from" ]] && continue
    if [[ $included == mcp/* ]]; then
      public_edges["$from -> $to"]=$(( ${public_edges["$from -> $to"]:-0} + 1 ))
    else
      private_edges["$from -> $to"]=$(( ${private_edges["$from -> $to"]:-0} + 1 ))
      if private_denied "$from" "$to"; then violations+=("$file includes $included (a private header of $to)"); fi
    fi
    if (( ${rank[$to]} >= ${rank[$from]} )); then violations+=("$file includes $included ($from -> $to)"); fi
  done < <(sed -n -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]+)[>"].*/\1/p' "$file")
done < <(find src include/mcp -type f \( -name '*.cpp' -o -name '*.hpp' \) | sort)

echo "include graph between layers (#include lines of another layer's headers: private src/ ones, public include/mcp ones):"
for from in "${order[@]}"; do
  for to in "${order[@]}"; do
    private=${private_edges["$from -> $to"]:-0}
    public=${public_edges["$from -> $to"]:-0}
    ((private + public)) && printf '  %-9s -> %-9s private %3d   public %3d\n' "$from" "$to" "$private" "$public"
  done
done
if ((${#violations[@]})); then
  printf '\nlayering violations:\n' >&2
  printf '  %s\n' "${violations[@]}" >&2
  exit 1
fi
echo "no file includes a layer above its own or a sibling layer, nor a path with ..; no transport or bridge includes a private header of the core"
