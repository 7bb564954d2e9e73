#!/usr/bin/env bash
# Two mcp-cpp nodes behind nginx round robin, sharing one Redis: the worked example of the README's
# "Running several nodes".
#
#   examples/cluster/run.sh              start redis-server, two mcp-cpp-demo nodes and nginx on
#                                        loopback, print the URL, stop everything on Ctrl-C
#   examples/cluster/run.sh --check      the same, then a session through nginx with curl
#                                        (initialize, tools/call echo, DELETE), checks that both
#                                        nodes served it, and exits 0 when all went well
#
# Options:
#   --binary PATH       the server (default build/examples/demo/mcp-cpp-demo; --check needs
#                       the demo: its echo tool and demo://server/stats)
#   --port N            nginx's port (default 8080; 0 picks a free one; --check: 0)
#   --node-ports A,B    the nodes' ports (default: free ones)
#   --redis-port N      redis-server's port (default: a free one)
#   --log-level LEVEL   the nodes' --log-level (default info)
#   --dir DIR           keep configuration and logs in DIR (default: a temporary directory,
#                       removed at exit unless something failed)
# Environment: REDIS_SERVER, NGINX (the binaries; default from PATH, /usr/sbin/nginx),
# MCP_SECRET (the shared key ring; default a fresh key). Everything listens on 127.0.0.1 only.
#
# What it does, by hand:
#   redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no
#   export MCP_SECRET=$(head -c32 /dev/urandom | base64)        # the same key ring on every node
#   mcp-cpp-demo --http 127.0.0.1:8081 --store redis://127.0.0.1:6379/0 --metrics 127.0.0.1:9091 &
#   mcp-cpp-demo --http 127.0.0.1:8082 --store redis://127.0.0.1:6379/0 --metrics 127.0.0.1:9092 &
#   nginx with examples/cluster/nginx.conf, its @NGINX_PORT@ @NODE_A@ @NODE_B@ filled in
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

binary="$root/build/examples/demo/mcp-cpp-demo"
nginx_port=""
node_ports=""
redis_port=0
log_level=info
dir=""
check=0

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }
die() { echo "run.sh: $*" >&2; exit 2; }
while (($#)); do
  case "$1" in
    --binary) binary=${2:?--binary needs a path}; shift 2 ;;
    --port) nginx_port=${2:?--port needs a number}; shift 2 ;;
    --node-ports) node_ports=${2:?--node-ports needs A,B}; shift 2 ;;
    --redis-port) redis_port=${2:?--redis-port needs a number}; shift 2 ;;
    --log-level) log_level=${2:?--log-level needs a level}; shift 2 ;;
    --dir) dir=${2:?--dir needs a directory}; shift 2 ;;
    --check) check=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done
[[ -n $nginx_port ]] || { ((check)) && nginx_port=0 || nginx_port=8080; }

redis_bin=${REDIS_SERVER:-$(command -v redis-server || true)}
[[ -n $redis_bin ]] || redis_bin=/usr/bin/redis-server
nginx_bin=${NGINX:-$(command -v nginx || true)}
[[ -n $nginx_bin ]] || nginx_bin=/usr/sbin/nginx
for b in "$binary" "$redis_bin" "$nginx_bin"; do
  [[ -x $b ]] || die "not found: $b (build the project; scripts/install-deps.sh --test installs redis-server and nginx)"
done
command -v curl >/dev/null || die "curl is needed"

# ------------------------------------------------------------------------------------------------
# Ports: free_port VAR sets VAR to a port nobody listens on (from /proc/net/tcp*), and not one
# already picked. Below Linux's ephemeral range (32768 and up), where outgoing connections would
# race us for it.
picked=" "
free_port() {
  local listening=" " p _ local_address st
  while read -r _ local_address _ st _; do
    [[ $st == 0A ]] && listening+="$((16#${local_address##*:})) "
  done < <(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null)
  for _ in $(seq 200); do
    p=$((20000 + RANDOM % 12000))
    [[ $listening == *" $p "* || $picked == *" $p "* ]] && continue
    picked+="$p "
    printf -v "$1" %s "$p"
    return
  done
  die "no free port found"
}
((redis_port)) || free_port redis_port
((nginx_port)) || free_port nginx_port
if [[ -n $node_ports ]]; then
  port_a=${node_ports%,*}
  port_b=${node_ports#*,}
else
  free_port port_a
  free_port port_b
fi

# ------------------------------------------------------------------------------------------------
# Processes, and their end: every process started here is stopped at exit, TERM first, then KILL.
keep_dir=1
if [[ -z $dir ]]; then
  dir=$(mktemp -d "${TMPDIR:-/tmp}/mcp-cluster.XXXXXX")
  keep_dir=0
fi
mkdir -p "$dir/nginx"
dir=$(cd "$dir" && pwd)
chmod 755 "$dir" "$dir/nginx"   # nginx's workers run as nobody when started by root
pids=()
failed=0

stop_all() {
  local pid i
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for i in $(seq 50); do   # at most 5 s
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  pids=()
}
on_exit() {
  local status=$?
  trap - EXIT INT TERM
  stop_all
  if ((status != 0 || failed)); then
    echo "logs kept in $dir (redis.log, node-a.log, node-b.log, nginx/error.log)" >&2
  elif ((!keep_dir)); then
    rm -rf "$dir"
  fi
  exit "$status"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Waits (at most $2 tenths of a second) until $1 succeeds; fails naming $3 and its log $4.
wait_for() {
  local i
  for i in $(seq "$2"); do
    eval "$1" && return 0
    sleep 0.1
  done
  echo "run.sh: $3 did not come up; its log ($4):" >&2
  tail -n 20 "$4" >&2 || true
  exit 1
}
redis_ping() { # PING over bash's /dev/tcp: no redis-cli needed
  local reply
  { exec 3<>"/dev/tcp/127.0.0.1/$redis_port"; } 2>/dev/null || return 1
  printf 'PING\r\n' >&3
  read -r -t 1 reply <&3 || true
  exec 3>&- 3<&-
  [[ $reply == +PONG* ]]
}
http_up() { # any HTTP answer (a GET without a session is refused, which is fine)
  [[ $(curl -s -o /dev/null -m 1 -w '%{http_code}' "$1" || true) =~ ^[1-5][0-9][0-9]$ ]]
}

"$redis_bin" --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no --protected-mode yes \
             --daemonize no --dir "$dir" --logfile "$dir/redis.log" </dev/null &
pids+=($!)
wait_for redis_ping 100 "redis-server on 127.0.0.1:$redis_port" "$dir/redis.log"

secret=${MCP_SECRET:-$(head -c32 /dev/urandom | base64)}   # one key ring for both nodes
store="redis://127.0.0.1:$redis_port/0"
free_port metrics_a   # each node's operator port: /metrics, /healthz, /readyz
free_port metrics_b
MCP_SECRET=$secret "$binary" --http "127.0.0.1:$port_a" --store "$store" --log-level "$log_level" --shutdown-grace 2s \
          --metrics "127.0.0.1:$metrics_a" </dev/null >"$dir/node-a.log" 2>&1 &
pids+=($!)
MCP_SECRET=$secret "$binary" --http "127.0.0.1:$port_b" --store "$store" --log-level "$log_level" --shutdown-grace 2s \
          --metrics "127.0.0.1:$metrics_b" </dev/null >"$dir/node-b.log" 2>&1 &
pids+=($!)
wait_for "http_up http://127.0.0.1:$port_a/mcp" 150 "node A on 127.0.0.1:$port_a" "$dir/node-a.log"
wait_for "http_up http://127.0.0.1:$port_b/mcp" 150 "node B on 127.0.0.1:$port_b" "$dir/node-b.log"

sed -e "s/@NGINX_PORT@/$nginx_port/g" -e "s/@NODE_A@/127.0.0.1:$port_a/g" -e "s/@NODE_B@/127.0.0.1:$port_b/g" \
    "$here/nginx.conf" >"$dir/nginx/nginx.conf"
"$nginx_bin" -p "$dir/nginx/" -c "$dir/nginx/nginx.conf" -e "$dir/nginx/error.log" -g 'daemon off;' </dev/null &
pids+=($!)
url="http://127.0.0.1:$nginx_port/mcp"
wait_for "http_up $url" 100 "nginx on 127.0.0.1:$nginx_port" "$dir/nginx/error.log"

echo "redis-server 127.0.0.1:$redis_port; nodes 127.0.0.1:$port_a and 127.0.0.1:$port_b (--store $store)"
echo "nginx round robin: $url"
echo "metrics, health and readiness: http://127.0.0.1:$metrics_a and http://127.0.0.1:$metrics_b (/metrics, /healthz, /readyz)"
echo "logs: $dir"

if ((!check)); then
  echo "Ctrl-C stops everything."
  # Runs until interrupted, or until one of the processes exits.
  wait -n "${pids[@]}" || true
  failed=1
  echo "run.sh: a process exited; stopping" >&2
  exit 1
fi

# ------------------------------------------------------------------------------------------------
# --check: a 2025-11-25 session through nginx, whose round robin sends consecutive requests to
# alternate nodes, and a 2026-07-28 stateless call.
fail() { failed=1; echo "check: FAIL: $*" >&2; exit 1; }
headers=$dir/headers
body=$dir/body
# post JSON [extra curl args…]: sets $status; the body is in $body, the response headers in $headers.
post() {
  local data=$1; shift
  status=$(curl -s -m 10 -D "$headers" -o "$body" -w '%{http_code}' "$url" \
                -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
                "$@" -d "$data") || fail "curl failed on $data"
}
expect() { # expect STATUS GREP-PATTERN WHAT
  [[ $status == "$1" ]] || fail "$3: HTTP $status, expected $1: $(head -c 500 "$body")"
  [[ -z $2 ]] || grep -q -- "$2" "$body" || fail "$3: the answer lacks $2: $(head -c 500 "$body")"
  echo "check: ok: $3"
}

# Both nodes are ready: Redis answers them.
for node in "A $metrics_a" "B $metrics_b"; do
  set -- $node
  [[ $(curl -s -m 5 "http://127.0.0.1:$2/readyz") == ready ]] || fail "node $1 is not ready: $(curl -s -m 5 "http://127.0.0.1:$2/readyz")"
  echo "check: ok: node $1 is ready"
done

post '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"run.sh","version":"1"}}}'
expect 200 '"protocolVersion":"2025-11-25"' initialize
session=$(tr -d '\r' <"$headers" | awk -F': *' 'tolower($1) == "mcp-session-id" { print $2 }')
[[ -n $session ]] || fail "initialize: no Mcp-Session-Id"
legacy=(-H "Mcp-Session-Id: $session" -H 'MCP-Protocol-Version: 2025-11-25')

post '{"jsonrpc":"2.0","method":"notifications/initialized"}' "${legacy[@]}"
expect 202 '' notifications/initialized
for i in 2 3 4 5; do
  post "{\"jsonrpc\":\"2.0\",\"id\":$i,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hello $i\"}}}" \
       "${legacy[@]}"
  expect 200 "hello $i" "tools/call echo #$i"
done

# Round robin spread the session over both nodes: each node's own count of tool calls
# (demo://server/stats, read from the node directly, bypassing nginx) is not zero.
for node in "A $port_a" "B $port_b"; do
  set -- $node
  status=$(curl -s -m 10 -o "$body" -w '%{http_code}' "http://127.0.0.1:$2/mcp" \
                -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
                -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: resources/read' -H 'Mcp-Name: demo://server/stats' \
                -d '{"jsonrpc":"2.0","id":"stats","method":"resources/read","params":{"uri":"demo://server/stats","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}') \
    || fail "curl failed reading node $1's stats"
  grep -q '\\"tool_calls\\":[1-9]' "$body" || fail "node $1 served none of the session's tool calls: HTTP $status: $(head -c 500 "$body")"
  echo "check: ok: node $1 served some of the session's tool calls"
done

# The session is deleted on one node, and neither serves it any more.
status=$(curl -s -m 10 -o "$body" -w '%{http_code}' -X DELETE "$url" "${legacy[@]}") || fail "curl DELETE"
[[ $status == 200 || $status == 204 ]] || fail "DELETE: HTTP $status: $(head -c 500 "$body")"
echo "check: ok: DELETE ($status)"
for i in 6 7; do   # one on each node: neither serves the deleted session
  post "{\"jsonrpc\":\"2.0\",\"id\":$i,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"x\"}}}" \
       "${legacy[@]}"
  expect 404 '' "tools/call after DELETE #$i is refused"
done

post '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":"stateless"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}' \
     -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: echo'
expect 200 stateless "2026-07-28 tools/call echo"

echo "check: passed"
