#!/usr/bin/env bash
# What tracing costs the server per 2026-07-28 tools/call, in instructions (callgrind), which a
# shared machine's load does not move: mcp-cpp-demo answers N and then 2N sequential calls of echo
# (bench/drivers/sequential.mjs, every reply checked) with tracing off, on at ratio 0 (every call
# unsampled), 0.01 and 1, exporting http/protobuf to a receiver that discards the spans
# (bench/drivers/otlp-sink.mjs); the difference of the two runs divided by N, the exporter's thread
# and the flush at SIGTERM included. Prints a Markdown table with each against tracing off.
# --gateway: the same calls through mcp-cpp-gateway (--no-prefix) in front of the demo over stdio,
# the gateway counted (its SERVER, handler and upstream CLIENT spans), the demo not.
#   bench/tracing-cost.sh [--calls N] [--demo PATH] [--gateway]   (needs valgrind and node; a build)
set -euo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd)
DEMO=$BENCH/../build/examples/demo/mcp-cpp-demo
GATEWAY=""
CALLS=2000
while [[ $# -gt 0 ]]; do
    case $1 in
        --calls) CALLS=${2:?}; shift ;;
        --demo) DEMO=${2:?}; shift ;;
        --gateway) GATEWAY=$BENCH/../build/tools/mcp-cpp-gateway/mcp-cpp-gateway ;;
        *) echo "usage: $0 [--calls N] [--demo PATH] [--gateway]" >&2; exit 2 ;;
    esac
    shift
done
command -v valgrind >/dev/null || { echo "tracing-cost: valgrind is needed (scripts/install-deps.sh --full)" >&2; exit 2; }
[[ -x $DEMO ]] || { echo "tracing-cost: no demo at $DEMO (build first)" >&2; exit 2; }
[[ -z $GATEWAY || -x $GATEWAY ]] || { echo "tracing-cost: no gateway at $GATEWAY (build first)" >&2; exit 2; }
export BENCH_TEXT=${BENCH_TEXT:-$(printf 'a%.0s' {1..100})}
WORK=$(mktemp -d)
SINK_PID=""
trap '[[ -n $SINK_PID ]] && kill "$SINK_PID" 2>/dev/null; rm -rf "$WORK"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# What runs under callgrind: the demo, or the gateway with the demo as its stdio child.
SERVER=("$DEMO")
if [[ -n $GATEWAY ]]; then
    printf '{"mcpServers":{"demo":{"command":"%s"}}}\n' "$DEMO" >"$WORK/gateway.json"
    SERVER=("$GATEWAY" --servers "$WORK/gateway.json" --no-prefix)
fi

SINK_PORT=$(free_port)
node "$BENCH/drivers/otlp-sink.mjs" --port "$SINK_PORT" >"$WORK/sink.log" 2>&1 &
SINK_PID=$!

# Instructions of one server run answering CALLS calls; args: the demo's tracing options.
run_total() {
    local calls=$1 port pid file
    shift
    port=$(free_port)
    file=$WORK/callgrind.$RANDOM.out
    valgrind --tool=callgrind --callgrind-out-file="$file" "${SERVER[@]}" --http "127.0.0.1:$port" --io-threads 1 \
        --log-level off "$@" >"$WORK/server.log" 2>&1 &
    pid=$!
    for _ in $(seq 120); do
        curl -s -o /dev/null "http://127.0.0.1:$port/mcp" && break
        sleep 0.5
    done
    if ! timeout -k 5 900 node "$BENCH/drivers/sequential.mjs" --url "http://127.0.0.1:$port/mcp" --calls "$calls" \
        >>"$WORK/server.log" 2>&1; then
        kill "$pid" 2>/dev/null
        echo "tracing-cost: the calls failed (log below)" >&2
        cat "$WORK/server.log" >&2
        exit 1
    fi
    kill -TERM "$pid"
    wait "$pid" || true # callgrind writes its counts as the server exits
    awk '/^(summary|totals):/ { print $2; exit }' "$file"
}

per_call() {
    local one two
    one=$(run_total "$CALLS" "$@")
    two=$(run_total $((CALLS * 2)) "$@")
    echo $(((two - one) / CALLS))
}

OTLP=(--otlp-endpoint "http://127.0.0.1:$SINK_PORT" --otlp-protocol http/protobuf)
off=$(per_call)
echo "| tracing${GATEWAY:+ (through the gateway)} | instructions per call | more than off |"
echo "|---|---:|---:|"
echo "| off | $off | |"
for ratio in 0 0.01 1; do
    on=$(per_call "${OTLP[@]}" --otel-sampling-ratio "$ratio")
    echo "| on, ratio $ratio | $on | $(awk -v a="$on" -v b="$off" 'BEGIN { printf "%+.1f %%", (a - b) * 100 / b }') |"
done
kill -TERM "$SINK_PID"
wait "$SINK_PID" || true
SINK_PID=""
echo
echo "$CALLS and $((CALLS * 2)) sequential calls per point; the receiver got: $(cat "$WORK/sink.log")."
