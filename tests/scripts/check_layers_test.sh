#!/usr/bin/env bash
# scripts/check-layers.sh passes on this tree and fails on scratch trees that break a rule: an
# #include path with "..", an upward include, a transport reaching a private header of the core.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
"$repo/scripts/check-layers.sh" >/dev/null

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# A tree with one file holding `line`; the script must refuse it and name `expected`.
refuses() {
  local line=$1 expected=$2 tree="$scratch/tree"
  rm -rf "$tree"
  mkdir -p "$tree/scripts" "$tree/src/transport/http" "$tree/src/server" "$tree/src/util" "$tree/include/mcp"
  cp "$repo/scripts/check-layers.sh" "$tree/scripts/"
  echo '#include "util/log.hpp"' >"$tree/src/transport/http/endpoint.cpp"
  echo "$line" >>"$tree/src/transport/http/endpoint.cpp"
  if output=$("$tree/scripts/check-layers.sh" 2>&1); then
    echo "check-layers.sh accepted: $line" >&2
    exit 1
  fi
  grep -qF -- "$expected" <<<"$output" || { echo "check-layers.sh refused '$line' without saying '$expected':" >&2; echo "$output" >&2; exit 1; }
}

refuses '#include "../../server/routing_headers.hpp"' 'a path with ..'
refuses '#include "../util/log.hpp"' 'a path with ..'
refuses '#  include <transport/../server/core.hpp>' 'a path with ..'
refuses '#include "server/core.hpp"' 'a private header of core'
echo "check-layers.sh refuses relative, upward and private includes"
