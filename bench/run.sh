#!/usr/bin/env bash
# mcp-cpp side by side with the TypeScript SDK and this machine's HTTP floor, in one run.
#
#   bench/run.sh            the full run: 1, 32 and 256 connections, a warm-up then 3 x 10 s per
#                           point; writes bench/results/<date>-<host>.{md,json}  (about 40 minutes)
#   bench/run.sh --quick    a smoke test: 32 connections, one 1 s run per point after 1 s of warm-up, every
#                           reply still checked; results stay in the work directory under /tmp
#                           (about 3 minutes)
#   bench/run.sh --soak MINUTES
#                           the soak run (bench/soak/): for MINUTES (at least 3), one node and two nodes
#                           sharing a redis-server side by side under a mixed load, every reply
#                           checked; RSS, threads, open fds and Redis keys sampled every 10 s must not
#                           trend upward after warm-up; writes bench/results/<date>-<host>-soak-<M>min.
#                           {md,json,csv,png} (or into --out); exits 1 on a wrong reply, a death or
#                           an upward trend. Not a benchmark: nothing is pinned or timed (bench/README.md)
#
# It installs what it needs (Debian: wrk, nginx-light, curl, jq, valgrind; npm: the peers pinned by
# bench/peers/package-lock.json), builds mcp-cpp-demo and mcp-cpp-bench-growth (Release) if needed,
# then runs its suites, each target one after the other, each on a fresh 127.0.0.1 port, the server
# pinned to one core and the load (wrk or a Node driver) to another (the first two CPUs of this
# process's affinity mask). Every reply is checked (bench/wrk/, bench/drivers/); a wrong reply, a
# socket error, a crash or a failed setup makes the run exit 1 after the table is printed.
# Benchmarks are not tests: no time is asserted.
#
# Suites (see bench/README.md):
#   http     tools/call over Streamable HTTP, three wires, every target below (wrk); among them
#            mcp-cpp-gateway --no-prefix and supergateway (npm) each in front of mcp-cpp-demo on stdio
#   stdio    a pipelined tools/call stream, 256 outstanding, through mcp-cpp-demo, the two SDKs'
#            stdio servers and `cat` (the driver's ceiling): calls/s and CPU per call
#   memory   VmRSS per 1000 idle 2025 sessions (mcp-cpp and the sessionful peers), per 1000
#            tool calls parked in an unanswered elicitation (mcp-cpp and v1-session), and with 1000
#            tools/call of export_notes running as 2025 tasks (mcp-cpp and v1-session): create
#            time, time to drain, VmRSS and threads; and (mcp-cpp) memory after a burst: cycles of
#            20,000 parked calls whose sessions are then deleted, VmRSS 10 s after each
#   parked   1k, 10k and 100k elicitations parked at once with the clients gone (mcp-cpp and
#            v1-session): fill time, VmRSS and threads per parked call, an unrelated call's p50/p99
#            meanwhile, and what DELETE of a session holding 30k of them does to other connections
#   growth   mcp-cpp with 10, 1000 and 10 000 registered tools: tools/call and a full paginated
#            tools/list; tools/call with 100 B, 10 KiB and 1 MiB of text
#   https    mcp-cpp-demo serving TLS itself (--tls-cert/--tls-key) and plain HTTP, the 2026 wire
#            at the same points (wrk), and the server's instructions per call (callgrind): what TLS
#            costs a call
#   interceptors  the growth server's echo with no interceptor, one that only passes the call on,
#            and --rate-limit (never reached): calls/s (wrk) and instructions per call (callgrind)
#   client   the clients: mcp::Client (bench/client/client_driver.cpp) and the TypeScript SDK 1.32.2
#            client (bench/peers/client-ts.mjs) calling mcp-cpp-demo's echo with 32 calls in flight,
#            over HTTP and over stdio: calls/s, client and server CPU per call
#
# Options:
#   --quick                 as above
#   --suites LIST           comma-separated subset of: http,stdio,memory,parked,growth,https,
#                           interceptors,client
#                           (default: all)
#   --targets LIST          comma-separated subset of: mcp-cpp,mcp-cpp-jemalloc,mcp-cpp-mimalloc,mcp-cpp-metrics,mcp-cpp-redis,
#                           mcp-cpp-redis-cluster,floor,v2-stateless,v2-session,v1-stateless,v1-session,
#                           gateway,supergateway,v2-stdio,v1-stdio,cat,mcp-client,mcp-client-2025,ts-client,
#                           ts2-client (default: all); each
#                           suite runs those of its targets that are listed
#   --conns "1 32 256"      connection counts (http) --duration S   seconds per measured run
#   --reps N                repetitions per point    --warmup S     seconds of warm-up per point
#   --again N               redo a wrk run disturbed by other processes (they took > 10% of the
#                           server's or wrk's core) at most N times (default 2; --quick: 0)
#   --out DIR               where to write <date>-<host>.{md,json} (default: bench/results for a
#                           full run, the work directory for --quick)
#   --no-install            do not apt-get/npm anything  --no-build   use the existing binaries
#   --build-dir DIR         the Release build directory (default: build)
#
# Targets (see bench/README.md):
#   mcp-cpp       http, memory: build/examples/demo/mcp-cpp-demo --http 127.0.0.1:PORT --io-threads 1
#                 --log-level off, wires 2026, 2025-session, 2025-churn; stdio: the same binary on
#                 stdin/stdout; https: the same with --tls-cert/--tls-key, and without; growth,
#                 interceptors: build/bench/mcp-cpp-bench-growth (bench/server/growth_server.cpp)
#   mcp-cpp-jemalloc, mcp-cpp-mimalloc  http (wires 2026, 2025-session), memory (the burst): the same
#                 binary with Debian's jemalloc or mimalloc preloaded: which malloc the programs link
#   mcp-cpp-metrics  http: the same, with --metrics on a second port that curl scrapes every second
#                 (as Prometheus would), wires 2026 and 2025-session: the cost of metrics
#   mcp-cpp-redis  http: mcp-cpp-metrics with --store redis:// on one redis-server (on the load core),
#                 wire 2025-session: calls/s, server CPU per call, Redis commands per call (INFO
#                 total_commands_processed) and round trips per call (the node's
#                 mcp_store_command_duration_seconds count) beside the memory store's mcp-cpp-metrics
#   mcp-cpp-redis-cluster  http: the same with --store redis-cluster:// on three masters (no replicas),
#                 started as e2e.redis_cluster starts its cluster; --quick skips it (its start alone
#                 takes seconds the smoke does not have)
#   floor         nginx, one worker, fixed replies byte-identical to mcp-cpp's (bench/nginx/nginx.conf)
#                 wires 2026 (checked) alternating with 2026-nocheck (no response() hook: its cost),
#                 2025-session and 2025-churn (the same scripts as for the servers: what wrk can drive)
#   v2-stateless  @modelcontextprotocol/server 2.4.0, createMcpHandler defaults: wires 2026, 2025-stateless
#   v2-session    @modelcontextprotocol/server 2.4.0, sessionful 2025 transport: wires 2025-session,
#                 2025-churn; memory (sessions)
#   v1-stateless  @modelcontextprotocol/sdk 1.32.2, sessionIdGenerator undefined: wire 2025-stateless
#   v1-session    @modelcontextprotocol/sdk 1.32.2, sessions (SSE replies): wires 2025-session,
#                 2025-churn; memory (sessions, parked calls, tasks); parked
#   v2-stdio      stdio: @modelcontextprotocol/server 2.4.0, serveStdio (bench/peers/server-stdio.mjs)
#   v1-stdio      stdio: @modelcontextprotocol/sdk 1.32.2, StdioServerTransport (the same file)
#   cat           stdio: cat, which sends each request back: what the driver can check per second
#   mcp-client    client: mcp::Client, protocol_version auto (2026-07-28 against the demo)
#   mcp-client-2025  client: mcp::Client pinned to 2025-11-25, the TypeScript client's wire
#   ts-client     client: @modelcontextprotocol/sdk 1.32.2's Client (2025-11-25)
#   ts2-client    client: @modelcontextprotocol/client 2.4.0's Client pinned to 2026-07-28
set -euo pipefail
shopt -u patsub_replacement 2>/dev/null || true

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH=$ROOT/bench

quick=0 soak_minutes=0 do_install=1 do_build=1 out_dir="" build_dir=build targets_opt="" suites_opt="" again_opt=""
conns_opt="" duration_opt="" reps_opt="" warmup_opt=""
die() { echo "bench: $*" >&2; exit 2; }
while (($#)); do
    case $1 in
        --quick) quick=1 ;;
        --soak) soak_minutes=${2:?}; shift ;;
        --targets) targets_opt=${2:?}; shift ;;
        --suites) suites_opt=${2:?}; shift ;;
        --conns) conns_opt=${2:?}; shift ;;
        --duration) duration_opt=${2:?}; shift ;;
        --reps) reps_opt=${2:?}; shift ;;
        --warmup) warmup_opt=${2:?}; shift ;;
        --again) again_opt=${2:?}; shift ;;
        --out) out_dir=${2:?}; shift ;;
        --no-install) do_install=0 ;;
        --no-build) do_build=0 ;;
        --build-dir) build_dir=${2:?}; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done

if ((quick)); then
    CONNS=(${conns_opt:-32}) DURATION=${duration_opt:-1} REPS=${reps_opt:-1} WARMUP=${warmup_opt:-1} MAX_AGAIN=${again_opt:-0}
else
    CONNS=(${conns_opt:-1 32 256}) DURATION=${duration_opt:-10} REPS=${reps_opt:-3} WARMUP=${warmup_opt:-2} MAX_AGAIN=${again_opt:-2}
fi
DISTURBED_ABOVE=0.10 # share of a core taken by other processes that makes a run "disturbed"
STDIO_WINDOW=256                         # stdio: requests outstanding at most
CLIENT_INFLIGHT=32                       # client: calls in flight
MEMORY_N=1000 MEMORY_SETTLE_MS=1000      # memory: sessions, parked calls or tasks; wait before each reading
# memory, tasks: export_notes sleeps this per note (2 notes): long enough that every task outlives the
# creation of all of them when creating is quick, so the reading holds them all running
TASKS_STEP_MS=5000
((quick)) && TASKS_STEP_MS=200
PARKED_RUNS=(1000:10 10000:10 100000:10 30000:1) # parked: calls:sessions, each on a fresh server
# memory, burst (mcp-cpp): parked calls per cycle, over this many sessions, cycles, seconds read after each
BURST_N=20000 BURST_SESSIONS=20 BURST_CYCLES=10 BURST_AFTER_S=10
((quick)) && PARKED_RUNS=(1000:1)
((quick)) && BURST_N=1000 BURST_SESSIONS=10 BURST_CYCLES=2 BURST_AFTER_S=3
((quick)) && MEMORY_SETTLE_MS=300
GROWTH_TOOLS=(10 1000 10000) GROWTH_BYTES=(100 10240 1048576) GROWTH_CONNS=32 GROWTH_DURATION=$DURATION
((quick)) && GROWTH_DURATION=1
CALLGRIND_CALLS=20000 CALLGRIND_HTTP_CALLS=2000 # instructions per call from runs of N and 2N calls
((quick)) && CALLGRIND_CALLS=300 CALLGRIND_HTTP_CALLS=300
DISTURBED=false
for n in "${CONNS[@]}" "$DURATION" "$REPS" "$WARMUP"; do
    [[ $n =~ ^[0-9]+$ ]] && ((n > 0)) || die "connections, durations and repetitions are positive integers"
done
[[ $MAX_AGAIN =~ ^[0-9]+$ ]] || die "--again takes a count"
[[ $soak_minutes =~ ^[0-9]+$ ]] && ((soak_minutes == 0 || (soak_minutes >= 3 && soak_minutes <= 1440))) ||
    die "--soak takes minutes, from 3 to 1440"
((soak_minutes && quick)) && die "--soak and --quick do not go together"
((${#CONNS[@]} <= 8 && DURATION <= 600 && REPS <= 20 && WARMUP <= 60 && MAX_AGAIN <= 5)) || die "that run would be too long"
MAX_CONNS=$(printf '%s\n' "${CONNS[@]}" | sort -n | tail -1)

# pick_from RESULT ALL WHAT LIST: RESULT (an array) is the comma-separated LIST, each checked
# against the array ALL, or all of ALL when LIST is empty.
pick_from() {
    local -n into=$1 all=$2
    local item
    if [[ -z $4 ]]; then
        into=("${all[@]}")
        return
    fi
    IFS=, read -r -a into <<<"$4"
    for item in "${into[@]}"; do [[ " ${all[*]} " == *" $item "* ]] || die "unknown $3 $item"; done
}

ALL_SUITES=(http stdio memory parked growth https interceptors client)
pick_from SUITES ALL_SUITES suite "$suites_opt"
suite_on() { [[ " ${SUITES[*]} " == *" $1 "* ]]; }

# Each suite's targets, in order; --targets picks among all of them.
HTTP_TARGETS=(mcp-cpp mcp-cpp-jemalloc mcp-cpp-mimalloc mcp-cpp-metrics mcp-cpp-redis mcp-cpp-redis-cluster floor v2-stateless
              v2-session v1-stateless v1-session gateway supergateway)
STDIO_TARGETS=(mcp-cpp v2-stdio v1-stdio cat)
MEMORY_TARGETS=(mcp-cpp mcp-cpp-jemalloc mcp-cpp-mimalloc v2-session v1-session)
PARKED_TARGETS=(mcp-cpp v1-session)
GROWTH_TARGETS=(mcp-cpp)
HTTPS_TARGETS=(mcp-cpp)
INTERCEPTORS_TARGETS=(mcp-cpp)
CLIENT_TARGETS=(mcp-client mcp-client-2025 ts-client ts2-client)
ALL_TARGETS=("${HTTP_TARGETS[@]}" v2-stdio v1-stdio cat "${CLIENT_TARGETS[@]}")
pick_from TARGETS ALL_TARGETS target "$targets_opt"
selected() { [[ " ${TARGETS[*]} " == *" $1 "* ]]; }
has_targets() { # SUITE: whether any of its targets is selected
    local -n list=${1^^}_TARGETS
    local t
    for t in "${list[@]}"; do selected "$t" && return 0; done
    return 1
}
runnable=()
for s in "${SUITES[@]}"; do has_targets "$s" && runnable+=("$s"); done
((${#runnable[@]})) || die "no suite has any of the targets selected"
SUITES=("${runnable[@]}")
wires_of() {
    case $1 in
        mcp-cpp) echo "2026 2025-session 2025-churn" ;;
        mcp-cpp-metrics | mcp-cpp-jemalloc | mcp-cpp-mimalloc) echo "2026 2025-session" ;;
        mcp-cpp-redis | mcp-cpp-redis-cluster) echo "2025-session" ;;
        floor) echo "2026+2026-nocheck 2025-session 2025-churn" ;; # a+b: a and b alternate run by run
        v2-stateless) echo "2026 2025-stateless" ;;
        v2-session) echo "2025-session 2025-churn" ;;
        v1-stateless) echo "2025-stateless" ;;
        v1-session) echo "2025-session 2025-churn" ;;
        gateway) echo "2026 2025-session" ;;
        supergateway) echo "2025-session" ;; # --stateful: one child for the one session
    esac
}

# ~100 bytes of echo text, nothing that needs JSON escaping (bench/wrk/common.lua checks).
export BENCH_TEXT="mcp-cpp-bench-echo:0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789-0123456"
URL_PATH=/mcp
CLK_TCK=$(getconf CLK_TCK)

WORK=$(mktemp -d /tmp/mcp-bench.XXXXXX) # transient: raw wrk output, server logs, records
mkdir -p "$WORK/logs"

# --- what it needs -------------------------------------------------------------------------------
as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
policy_rc_created=0
install_debian() {
    local missing=()
    command -v wrk >/dev/null || missing+=(wrk)
    command -v curl >/dev/null || missing+=(curl)
    command -v jq >/dev/null || missing+=(jq)
    if ((soak_minutes)) || { suite_on http && { selected mcp-cpp-redis || selected mcp-cpp-redis-cluster; }; }; then
        command -v redis-server >/dev/null || missing+=(redis-server)
        command -v redis-cli >/dev/null || missing+=(redis-tools)
    fi
    if ((soak_minutes)); then command -v gnuplot >/dev/null || missing+=(gnuplot-nox); fi
    command -v taskset >/dev/null || missing+=(util-linux)
    command -v openssl >/dev/null || missing+=(openssl)
    [[ -e ${ALLOCATOR_LIBS[mcp-cpp-jemalloc]} ]] || missing+=(libjemalloc2)
    [[ -e ${ALLOCATOR_LIBS[mcp-cpp-mimalloc]} ]] || missing+=(libmimalloc2.0)
    if suite_on interceptors && ! command -v valgrind >/dev/null; then missing+=(valgrind); fi
    if ! command -v nginx >/dev/null && ! [[ -x /usr/sbin/nginx ]]; then
        if apt-cache show nginx-light >/dev/null 2>&1; then missing+=(nginx-light); else missing+=(nginx); fi
    fi
    ((${#missing[@]})) || return 0
    ((do_install)) || die "missing: ${missing[*]} (run without --no-install)"
    echo "bench: installing ${missing[*]}"
    # Installing nginx must not start it as a system service: a policy-rc.d that says no, for the
    # duration of the install, unless the machine already has one.
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        as_root sh -c 'printf "#!/bin/sh\nexit 101\n" > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d'
        policy_rc_created=1
    fi
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}"
    if ((policy_rc_created)); then as_root rm -f /usr/sbin/policy-rc.d; policy_rc_created=0; fi
}

install_npm() {
    command -v node >/dev/null && command -v npm >/dev/null ||
        die "the TypeScript peers need node and npm (Node.js 20 or newer, from NodeSource; not apt-get nodejs)"
    local major
    major=$(node -p 'process.versions.node.split(".")[0]')
    ((major >= 20)) || die "Node.js $(node -v) is too old: the peers need 20 or newer"
    local peers=$BENCH/peers
    if [[ ! -f $peers/node_modules/.package-lock.json || $peers/package-lock.json -nt $peers/node_modules/.package-lock.json ]]; then
        ((do_install)) || die "bench/peers/node_modules is missing or stale (run without --no-install)"
        echo "bench: npm ci in bench/peers"
        npm ci --prefix "$peers" --no-audit --no-fund --loglevel=error
    fi
}

DEMO="" GROWTH=""
build_demo() {
    local dir=$build_dir
    [[ $dir = /* ]] || dir=$ROOT/$dir
    DEMO=$dir/examples/demo/mcp-cpp-demo
    GROWTH=$dir/bench/mcp-cpp-bench-growth
    local -a build_targets=(mcp-cpp-demo)
    if suite_on growth || suite_on interceptors; then build_targets+=(mcp-cpp-bench-growth); fi
    if suite_on client; then build_targets+=(mcp-cpp-bench-client); fi
    if suite_on http && selected gateway; then build_targets+=(mcp-cpp-gateway); fi
    if ((do_build)); then
        local jobs=${BENCH_JOBS:-2}
        if [[ -f $dir/CMakeCache.txt ]]; then
            grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$dir/CMakeCache.txt" ||
                die "$dir is not a Release build: pass --build-dir with a Release one"
        else
            ((do_install)) && "$ROOT/scripts/install-deps.sh"
            cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
        fi
        echo "bench: building ${build_targets[*]} (Release) in $dir if needed"
        if ! cmake --build "$dir" --target "${build_targets[@]}" -j "$jobs" >"$WORK/logs/build.log" 2>&1; then
            grep -m 20 -E 'error|Error' "$WORK/logs/build.log" >&2 || tail -20 "$WORK/logs/build.log" >&2
            die "the build failed (log: $WORK/logs/build.log); --no-build measures the existing binary"
        fi
    fi
    [[ -x $DEMO ]] || die "no $DEMO (run without --no-build)"
    # Measure one binary throughout, even if the build directory is rebuilt meanwhile.
    cp "$DEMO" "$WORK/mcp-cpp-demo"
    DEMO_RUN=$WORK/mcp-cpp-demo
    if suite_on growth || suite_on interceptors; then
        [[ -x $GROWTH ]] || die "no $GROWTH (run without --no-build, or configure with -DMCP_BUILD_BENCH=ON)"
        cp "$GROWTH" "$WORK/mcp-cpp-bench-growth"
        GROWTH_RUN=$WORK/mcp-cpp-bench-growth
    fi
    if suite_on http && selected gateway; then
        [[ -x $dir/tools/mcp-cpp-gateway/mcp-cpp-gateway ]] || die "no $dir/tools/mcp-cpp-gateway/mcp-cpp-gateway (run without --no-build)"
        cp "$dir/tools/mcp-cpp-gateway/mcp-cpp-gateway" "$WORK/mcp-cpp-gateway"
        GATEWAY_RUN=$WORK/mcp-cpp-gateway
    fi
    if suite_on client; then
        [[ -x $dir/bench/mcp-cpp-bench-client ]] || die "no $dir/bench/mcp-cpp-bench-client (run without --no-build)"
        cp "$dir/bench/mcp-cpp-bench-client" "$WORK/mcp-cpp-bench-client"
        CLIENT_RUN=$WORK/mcp-cpp-bench-client
    fi
}

# --- processes -----------------------------------------------------------------------------------
STARTED=() # pids of the servers this script started
cleanup() {
    local rc=$?
    for p in "${STARTED[@]}"; do stop_pid "$p"; done
    if ((policy_rc_created)); then as_root rm -f /usr/sbin/policy-rc.d || true; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

children_of() { cat /proc/"$1"/task/*/children 2>/dev/null || true; }
tree_pids() { echo "$1"; children_of "$1"; } # the server and its direct children (nginx workers)

stop_pid() {
    local pid=$1 kids i
    kill -0 "$pid" 2>/dev/null || return 0
    kids=$(children_of "$pid")
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" $kids 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

free_port() {
    node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# The two cores, from this process's affinity mask.
expand_cpus() {
    local part a b out=()
    IFS=, read -r -a parts <<<"$1"
    for part in "${parts[@]}"; do
        if [[ $part == *-* ]]; then
            a=${part%-*} b=${part#*-}
            for ((i = a; i <= b; i++)); do out+=("$i"); done
        else
            out+=("$part")
        fi
    done
    echo "${out[@]}"
}
read -r -a CPUS <<<"$(expand_cpus "$(awk '/^Cpus_allowed_list/{print $2}' /proc/$$/status)")"
((${#CPUS[@]} >= 2)) || die "needs two CPUs in the affinity mask, has: ${CPUS[*]}"
SERVER_CPU=${CPUS[0]}
LOAD_CPU=${CPUS[1]}

proc_ticks() { # utime+stime of the server's process tree, in clock ticks
    local t=0 p s f
    for p in $(tree_pids "$1"); do
        s=$(cat /proc/"$p"/stat 2>/dev/null) || continue
        s=${s##*) }
        read -r -a f <<<"$s"
        t=$((t + f[11] + f[12]))
    done
    echo "$t"
}
status_kb() { # sum of a /proc/<pid>/status field (VmRSS, VmHWM) over the server's process tree
    local t=0 p v
    for p in $(tree_pids "$1"); do
        v=$(awk -v k="$2:" '$1==k{print $2}' /proc/"$p"/status 2>/dev/null) || true
        t=$((t + ${v:-0}))
    done
    echo "$t"
}
reset_hwm() { local p; for p in $(tree_pids "$1"); do echo 5 >/proc/"$p"/clear_refs 2>/dev/null || true; done; }
children_cpu_s() { # user+sys seconds of the children line of bash's `times` output
    awk 'NR==2{ t=0; for (i=1;i<=2;i++) { split($i, a, /[ms]/); t += a[1]*60 + a[2] } printf "%.3f\n", t }' "$1"
}
core_ticks() { # ticks of one CPU from /proc/stat: "tasks (user+nice+system) irq+softirq steal total"
    awk -v c="cpu$1" '$1==c{t=$2+$3+$4; i=$7+$8; print t, i, $9, t+i+$9+$5+$6}' /proc/stat
}

event() { # a setup failure, crash or other incident, kept for the report
    jq -nc --arg target "$1" --arg wire "$2" --arg what "$3" '{target:$target,wire:$wire,what:$what}' >>"$WORK/events.jsonl"
    echo "bench: $1 ${2:+$2 }$3" >&2
}

H_JSON=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream')
curl_mcp() { curl -s --max-time 5 "$@"; }
REQ_2026='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"'$BENCH_TEXT'"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcp-cpp-bench","version":"1.0.0"}}}}'
post_2026() {
    curl_mcp "http://127.0.0.1:$1$URL_PATH" "${H_JSON[@]}" -H 'MCP-Protocol-Version: 2026-07-28' \
        -H 'Mcp-Method: tools/call' -H 'Mcp-Name: echo' -d "$REQ_2026"
}

wait_listening() { # until the port answers HTTP at all, bounded
    local i
    for ((i = 0; i < 150; i++)); do
        kill -0 "$2" 2>/dev/null || return 1
        [[ $(curl -sk -o /dev/null -w '%{http_code}' --max-time 1 "$SCHEME://127.0.0.1:$1$URL_PATH") != 000 ]] && return 0
        sleep 0.1
    done
    return 1
}

SPID="" PORT=""
SCHEME=http     # https: the https suite's TLS runs (start_target, wait_listening, run_wrk)
TARGET_ARGS=()  # more options for mcp-cpp and growth (the https and interceptors suites set them)
# The same demo binary under another malloc (Debian's libjemalloc2 and libmimalloc2.0), preloaded as
# a build that links it would bind it, jemalloc with the settings such a build compiles in
# (cmake/jemalloc_conf.cpp): which allocator the project's programs should link (docs/adr/0031-allocator.md).
declare -A ALLOCATOR_LIBS=([mcp-cpp-jemalloc]=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
                           [mcp-cpp-mimalloc]=/usr/lib/x86_64-linux-gnu/libmimalloc.so.2)
declare -A ALLOCATOR_ENV=(
    [mcp-cpp-jemalloc]="LD_PRELOAD=${ALLOCATOR_LIBS[mcp-cpp-jemalloc]} MALLOC_CONF=$(sed -n 's/.*malloc_conf = "\(.*\)";/\1/p' "$ROOT/cmake/jemalloc_conf.cpp")"
    [mcp-cpp-mimalloc]="LD_PRELOAD=${ALLOCATOR_LIBS[mcp-cpp-mimalloc]}")
# A driver is one client standing for many: mcp-cpp's bounds per client are lifted to its bounds in
# all, so that what is measured is the server, not the quota of one client (docs/adr/0024-fair-limits.md).
ONE_CLIENT_ARGS=(--max-connections-per-client 1000000 --max-sessions-per-client 10000000
                 --max-get-streams-per-client 1000000 --max-listen-streams-per-client 1000000
                 --max-parked-calls-per-client 100000000 --max-calls-per-client 100000000)
start_target() { # start_target TARGET [TOOLS, for growth] -> SPID, PORT
    local target=$1 log=$WORK/logs/$1${2:+-$2}$LOG_TAG.server.log
    PORT=$(free_port)
    case $target in
        mcp-cpp | mcp-cpp-jemalloc | mcp-cpp-mimalloc)
            # shellcheck disable=SC2086 # the variables, one word each
            taskset -c "$SERVER_CPU" env ${ALLOCATOR_ENV[$target]:-} "$DEMO_RUN" \
                --http "127.0.0.1:$PORT" --io-threads 1 --log-level off "${ONE_CLIENT_ARGS[@]}" "${TARGET_ARGS[@]}" >"$log" 2>&1 &
            ;;
        mcp-cpp-metrics | mcp-cpp-redis*) # and a scraper, as Prometheus with a 1 s interval, for the server's life
            local -a store=()
            [[ $target == mcp-cpp-redis* ]] && store=(--store "$REDIS_URL")
            METRICS_PORT=$(free_port)
            MCP_SECRET=$(head -c 32 /dev/urandom | base64) taskset -c "$SERVER_CPU" "$DEMO_RUN" --http "127.0.0.1:$PORT" \
                --io-threads 1 --log-level off "${ONE_CLIENT_ARGS[@]}" --metrics "127.0.0.1:$METRICS_PORT" "${store[@]}" >"$log" 2>&1 &
            local server=$! mport=$METRICS_PORT
            (while kill -0 "$server" 2>/dev/null; do
                curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$mport/metrics"
                sleep 1
            done) &
            STARTED+=("$!")
            SPID=$server
            STARTED+=("$SPID")
            wait_listening "$PORT" "$SPID"
            return
            ;;
        growth) # mcp-cpp with TOOLS registered tools (bench/server/growth_server.cpp)
            taskset -c "$SERVER_CPU" "$GROWTH_RUN" "$2" --http "127.0.0.1:$PORT" --io-threads 1 --log-level off \
                "${ONE_CLIENT_ARGS[@]}" "${TARGET_ARGS[@]}" >"$log" 2>&1 &
            ;;
        floor)
            local prefix=$WORK/nginx conf
            mkdir -p "$prefix/tmp"
            conf=$(<"$BENCH/nginx/nginx.conf")
            conf=${conf//@PORT@/$PORT}
            conf=${conf//@SESSION_ID@/$(<"$WORK/reply.session-id")}
            conf=${conf//@REPLY_2026@/$(<"$WORK/reply.2026.json")}
            conf=${conf//@REPLY_INITIALIZE@/$(<"$WORK/reply.initialize.json")}
            conf=${conf//@REPLY_2025@/$(<"$WORK/reply.2025.json")}
            printf '%s\n' "$conf" >"$prefix/nginx.conf"
            taskset -c "$SERVER_CPU" nginx -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" >"$log" 2>&1 &
            ;;
        gateway) # mcp-cpp-gateway in front of the demo on stdio, both on the server's core
            printf '{"mcpServers": {"demo": {"command": "%s", "args": ["--log-level", "off"]}}}' "$DEMO_RUN" \
                >"$WORK/gateway-servers.json"
            taskset -c "$SERVER_CPU" "$GATEWAY_RUN" --servers "$WORK/gateway-servers.json" --no-prefix \
                --http "127.0.0.1:$PORT" --io-threads 1 --log-level off "${ONE_CLIENT_ARGS[@]}" >"$log" 2>&1 &
            ;;
        supergateway) # supergateway (npm) in front of the same, stateful: one child per session
            taskset -c "$SERVER_CPU" node "$BENCH/peers/node_modules/supergateway/dist/index.js" \
                --stdio "$DEMO_RUN --log-level off" --outputTransport streamableHttp --stateful \
                --port "$PORT" --logLevel none >"$log" 2>&1 &
            ;;
        v2-*) taskset -c "$SERVER_CPU" node "$BENCH/peers/server-v2.mjs" --port "$PORT" --mode "${target#v2-}" >"$log" 2>&1 & ;;
        v1-*) taskset -c "$SERVER_CPU" node "$BENCH/peers/server-v1.mjs" --port "$PORT" --mode "${target#v1-}" >"$log" 2>&1 & ;;
    esac
    SPID=$!
    STARTED+=("$SPID")
    wait_listening "$PORT" "$SPID"
}

# The Redis of an mcp-cpp-redis target: single (one redis-server) or cluster (three masters), started
# by bench/drivers/redis_store.mjs on the load core, as the end-to-end tests start theirs. Sets
# REDIS_URL (the --store URL), REDIS_PORTS, REDIS_PASSWORD and REDIS_PID (stop_pid stops them all).
REDIS_URL="" REDIS_PORTS=() REDIS_PASSWORD="" REDIS_PID="" METRICS_PORT=""
start_redis() { # single|cluster
    local out=$WORK/logs/redis-$1.txt line="" i
    taskset -c "$LOAD_CPU" node "$BENCH/drivers/redis_store.mjs" "$1" >"$out" 2>&1 &
    REDIS_PID=$!
    STARTED+=("$REDIS_PID")
    for ((i = 0; i < 600; i++)); do
        line=$(grep -m1 '^BENCH_REDIS ' "$out" 2>/dev/null) && break
        kill -0 "$REDIS_PID" 2>/dev/null || return 1
        sleep 0.1
    done
    [[ -n $line ]] || return 1
    line=${line#BENCH_REDIS }
    REDIS_URL=$(jq -r .url <<<"$line") REDIS_PASSWORD=$(jq -r .password <<<"$line")
    read -r -a REDIS_PORTS <<<"$(jq -r '.ports | map(tostring) | join(" ")' <<<"$line")"
}

# "COMMANDS TRIPS": the commands every Redis server has run (INFO total_commands_processed; a
# script's own commands count too; this reading's INFO counts in the next one), and the round trips
# of the node on METRICS_PORT (mcp_store_command_duration_seconds_count: a pipeline counts once).
store_counters() {
    local commands=0 port n trips
    local -a auth=()
    [[ -n $REDIS_PASSWORD ]] && auth=(-a "$REDIS_PASSWORD" --no-auth-warning)
    for port in "${REDIS_PORTS[@]}"; do
        n=$(redis-cli -p "$port" "${auth[@]}" INFO stats | tr -d '\r' | awk -F: '$1=="total_commands_processed"{print $2}')
        commands=$((commands + ${n:-0}))
    done
    trips=$(curl -s --max-time 2 "http://127.0.0.1:$METRICS_PORT/metrics" |
        awk '/^mcp_store_command_duration_seconds_count/{s+=$2} END{printf "%d", s}')
    echo "$commands ${trips:-0}"
}

# mcp-cpp's own replies, which the floor serves byte for byte: the 2026 echo reply, and the 2025
# initialize reply, session id and echo reply (id 2) of one churn iteration.
capture_replies() {
    start_target mcp-cpp || { event mcp-cpp "" "did not start (see $WORK/logs/mcp-cpp.server.log)"; return 1; }
    local ok=1 f
    post_2026 "$PORT" >"$WORK/reply.2026.json" || ok=0
    if open_session "$PORT" "$WORK/reply.initialize.json"; then
        printf '%s' "$SESSION_ID" >"$WORK/reply.session-id"
        post_2025_call "$PORT" "$SESSION_ID" >"$WORK/reply.2025.json" || ok=0
        close_session "$PORT" "$SESSION_ID"
    else
        ok=0
    fi
    stop_pid "$SPID"
    local block='{"type":"text","text":"'"$BENCH_TEXT"'"}'
    ((ok)) && [[ $(<"$WORK/reply.2026.json") == *"$block"* && $(<"$WORK/reply.2026.json") == *'"resultType":"complete"'* &&
        $(<"$WORK/reply.2025.json") == *"$block"* && $(<"$WORK/reply.2025.json") == *'"id":2'* ]] ||
        { event floor "" "could not capture mcp-cpp's replies for the floor (see $WORK/reply.*)"; return 1; }
    for f in "$WORK"/reply.*; do
        [[ $(<"$f") != *[\'\\\$]* ]] || { event floor "" "$f has characters nginx's return would alter"; return 1; }
    done
    [[ $(<"$WORK/reply.session-id") =~ ^[A-Za-z0-9_.~-]+$ ]] || { event floor "" "unexpected session id"; return 1; }
}

# A 2025 session: initialize + notifications/initialized, checked. open_session PORT [INIT_REPLY_FILE]
open_session() {
    local hdr=$WORK/init.headers body sid code
    body=$(curl_mcp -D "$hdr" "http://127.0.0.1:$1$URL_PATH" "${H_JSON[@]}" \
        -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-cpp-bench","version":"1.0.0"}}}') || return 1
    sid=$(tr -d '\r' <"$hdr" | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')
    [[ -n $sid && $body == *'"protocolVersion":"2025-11-25"'* ]] || return 1
    [[ -z ${2:-} ]] || printf '%s' "$body" >"$2"
    code=$(curl_mcp -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1$URL_PATH" "${H_JSON[@]}" \
        -H "Mcp-Session-Id: $sid" -H 'MCP-Protocol-Version: 2025-11-25' \
        -d '{"jsonrpc":"2.0","method":"notifications/initialized"}') || return 1
    [[ $code == 202 ]] || return 1
    SESSION_ID=$sid
}
post_2025_call() { # PORT SESSION_ID: the churn's tools/call, id 2
    curl_mcp "http://127.0.0.1:$1$URL_PATH" "${H_JSON[@]}" -H "Mcp-Session-Id: $2" -H 'MCP-Protocol-Version: 2025-11-25' \
        -d '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"'"$BENCH_TEXT"'"}}}'
}
close_session() {
    curl_mcp -o /dev/null -X DELETE "http://127.0.0.1:$1$URL_PATH" "${H_JSON[@]}" \
        -H "Mcp-Session-Id: $2" -H 'MCP-Protocol-Version: 2025-11-25' || true
}

# What run_wrk and measure_point add to their records and log names: the suite, and the growth
# suite's point (suite_growth sets its own, local, values).
EXTRA='{"suite":"http"}' LOG_TAG=""

# One wrk run; prints its BENCH_RESULT object with what was measured around it.
# run_wrk TARGET WIRE CONNS SECONDS REP(0 = warm-up)
run_wrk() {
    local target=$1 wire=$2 conns=$3 secs=$4 rep=$5 attempt=${6:-0} script threads=1 log
    local -a envs=()
    case $wire in
        2026) script=wire2026.lua ;;
        2026-nocheck) script=wire2026.lua envs+=(BENCH_NO_CHECK=1) ;;
        2025-stateless) script=wire2025.lua ;;
        2025-session)
            script=wire2025.lua envs+=("BENCH_SESSION_ID=$SESSION_ID")
            [[ $target == floor ]] && envs+=(BENCH_FIXED_REPLY=1)
            ;;
        2025-churn) script=churn2025.lua threads=$conns ;; # one connection per thread: see the script
        tools-call) script=wire2026.lua ;;
        tools-list) script=list2026.lua threads=$conns ;; # a listing is a sequence, as the churn
    esac
    log=$WORK/logs/$target$LOG_TAG.$wire.c$conns.r$rep.a$attempt.txt
    local t0 t1 s0 s1 l0 l1 res w0 w1 store=null
    local -a c0 c1
    # Read outside the window the server's CPU is measured over (the metrics page costs it some).
    [[ $target == mcp-cpp-redis* ]] && read -r -a c0 <<<"$(store_counters)"
    t0=$(proc_ticks "$SPID") s0=$(core_ticks "$SERVER_CPU") l0=$(core_ticks "$LOAD_CPU")
    times >"$WORK/times.0" # this shell's children: wrk's own CPU time is the difference
    env "${envs[@]}" timeout -k 5 $((secs + 60)) taskset -c "$LOAD_CPU" \
        wrk -t"$threads" -c"$conns" -d"${secs}s" --timeout 30s --latency -s "$BENCH/wrk/$script" \
        "$SCHEME://127.0.0.1:$PORT$URL_PATH" >"$log" 2>&1 || true
    times >"$WORK/times.1"
    t1=$(proc_ticks "$SPID") s1=$(core_ticks "$SERVER_CPU") l1=$(core_ticks "$LOAD_CPU")
    w0=$(children_cpu_s "$WORK/times.0") w1=$(children_cpu_s "$WORK/times.1")
    if [[ $target == mcp-cpp-redis* ]]; then
        read -r -a c1 <<<"$(store_counters)"
        store="{\"redis_commands\":$((c1[0] - c0[0] - ${#REDIS_PORTS[@]})),\"round_trips\":$((c1[1] - c0[1]))}"
    fi
    res=$(grep -m1 '^BENCH_RESULT ' "$log" | cut -d' ' -f2-) || true
    if [[ -z $res ]]; then
        event "$target" "$wire" "wrk produced no result at $conns connections (see $log)"
        return 1
    fi
    jq -c --arg target "$target" --arg wire "$wire" --argjson conns "$conns" --argjson rep "$rep" \
        --argjson attempt "$attempt" --argjson threads "$threads" --argjson server_ticks $((t1 - t0)) \
        --argjson clk "$CLK_TCK" --argjson s0 "[${s0// /,}]" --argjson s1 "[${s1// /,}]" \
        --argjson l0 "[${l0// /,}]" --argjson l1 "[${l1// /,}]" --argjson wrk_cpu "$(awk -v a="$w0" -v b="$w1" 'BEGIN{print b-a}')" \
        --argjson limit "$DISTURBED_ABOVE" --argjson extra "$EXTRA" --argjson store "$store" '
        def d(a; b; i): (b[i] - a[i]) / $clk;
        . + $extra + {target:$target, wire:$wire, conns:$conns, rep:$rep, attempt:$attempt, warmup:($rep==0), store:$store,
             wrk_threads:$threads, server_cpu_s:($server_ticks/$clk), wrk_cpu_s:$wrk_cpu,
             server_core:{tasks_s:d($s0;$s1;0), irq_s:d($s0;$s1;1), steal_s:d($s0;$s1;2), total_s:d($s0;$s1;3)},
             load_core:{tasks_s:d($l0;$l1;0), irq_s:d($l0;$l1;1), steal_s:d($l0;$l1;2), total_s:d($l0;$l1;3)}}
        | .others_on_server_core = ([0, (.server_core.tasks_s + .server_core.steal_s - .server_cpu_s) / .server_core.total_s] | max)
        | .others_on_load_core = ([0, (.load_core.tasks_s + .load_core.steal_s - .wrk_cpu_s) / .load_core.total_s] | max)
        | .disturbed = (([.others_on_server_core, .others_on_load_core] | max) > $limit)' \
        <<<"$res" >>"$WORK/samples.jsonl"
    jq -r '"  \(.target) \(.wire) c=\(.conns) " + (if .rep==0 then "warm-up" else "run \(.rep)" end) +
           (if .attempt > 0 then " (again)" else "" end) +
           ": \(.requests) requests, \(.ok) ok, \(.failures) failed, p99 \(.lat_p99_us) us" +
           (if .disturbed then ", disturbed: others used \(.others_on_server_core*100|floor)% of the server core, \(.others_on_load_core*100|floor)% of wrk'"'"'s" else "" end)' \
        <<<"$(tail -1 "$WORK/samples.jsonl")"
    DISTURBED=$(tail -1 "$WORK/samples.jsonl" | jq -r '.disturbed')
}

# measure_point TARGET WIRES CONNS PEAK: a warm-up, then REPS runs. WIRES is one wire, or wires
# joined by "+" that alternate run by run (the floor with and without the response() hook), so
# that a comparison between them is not skewed by what else the machine does meanwhile. PEAK=1:
# VmHWM is reset before and recorded after.
measure_point() {
    local target=$1 conns=$3 peak=$4 rep wire rss hwm=null
    local -a wires
    IFS=+ read -r -a wires <<<"$2"
    SESSION_ID=""
    if [[ $2 == 2025-session ]]; then
        if [[ $target == floor ]]; then
            SESSION_ID=$(<"$WORK/reply.session-id")
        elif ! open_session "$PORT"; then
            event "$target" "$2" "could not open a 2025 session (initialize + notifications/initialized)"
            return 1
        fi
    fi
    ((peak)) && reset_hwm "$SPID"
    for wire in "${wires[@]}"; do run_wrk "$target" "$wire" "$conns" "$WARMUP" 0 || return 1; done
    local attempt
    for ((rep = 1; rep <= REPS; rep++)); do
        for wire in "${wires[@]}"; do
            # A run during which other processes took more than DISTURBED_ABOVE of either core is
            # done again, at most MAX_AGAIN times; the report uses each repetition's last attempt.
            for ((attempt = 0; attempt <= MAX_AGAIN; attempt++)); do
                run_wrk "$target" "$wire" "$conns" "$DURATION" "$rep" "$attempt" || return 1
                [[ $DISTURBED == true ]] || break
                kill -0 "$SPID" 2>/dev/null || return 1
            done
        done
        kill -0 "$SPID" 2>/dev/null || return 1
    done
    rss=$(status_kb "$SPID" VmRSS)
    ((peak)) && hwm=$(status_kb "$SPID" VmHWM)
    [[ -n $SESSION_ID && $target != floor ]] && close_session "$PORT" "$SESSION_ID"
    for wire in "${wires[@]}"; do
        jq -nc --arg target "$target" --arg wire "$wire" --argjson conns "$conns" --argjson rss "$rss" --argjson hwm "$hwm" \
            --argjson extra "$EXTRA" '$extra + {target:$target, wire:$wire, conns:$conns, rss_after_kb:$rss, peak_rss_kb:$hwm}' >>"$WORK/points.jsonl"
    done
}

suite_http() {
    local target wire conns idle
    for target in "${HTTP_TARGETS[@]}"; do
        selected "$target" || continue
        echo "bench: == http $target"
        if [[ $target == floor && ! -s $WORK/reply.2025.json ]]; then
            event floor "" "skipped: no captured mcp-cpp replies to serve"
            continue
        fi
        if [[ $target == mcp-cpp-redis-cluster ]] && ((quick)); then
            echo "bench: mcp-cpp-redis-cluster skipped by --quick: making a Redis Cluster takes seconds the smoke's budget lacks (the full run measures it)"
            continue
        fi
        if [[ $target == mcp-cpp-redis* ]] && ! start_redis "$([[ $target == mcp-cpp-redis ]] && echo single || echo cluster)"; then
            event "$target" "" "its Redis did not start (see $WORK/logs/redis-*.txt)"
            stop_pid "$REDIS_PID"
            continue
        fi
        if ! start_target "$target"; then
            event "$target" "" "did not start (see $WORK/logs/$target.server.log)"
            stop_pid "$SPID"
            [[ $target == mcp-cpp-redis* ]] && stop_pid "$REDIS_PID"
            continue
        fi
        if [[ $target == floor ]] && ! { cmp -s <(post_2026 "$PORT") "$WORK/reply.2026.json" &&
            cmp -s <(post_2025_call "$PORT" x) "$WORK/reply.2025.json"; }; then
            event floor "" "nginx's replies differ from mcp-cpp's"
        fi
        sleep 1
        idle=$(status_kb "$SPID" VmRSS)
        jq -nc --arg target "$target" --argjson pid "$SPID" --argjson port "$PORT" --argjson idle "$idle" \
            '{target:$target, pid:$pid, port:$port, idle_rss_kb:$idle}' >>"$WORK/targets.jsonl"
        for wire in $(wires_of "$target"); do
            for conns in "${CONNS[@]}"; do
                measure_point "$target" "$wire" "$conns" $((conns == MAX_CONNS)) && continue
                kill -0 "$SPID" 2>/dev/null ||
                    event "$target" "$wire" "the server died at $conns connections (see $WORK/logs/$target.server.log)"
                break
            done
            kill -0 "$SPID" 2>/dev/null || break
        done
        stop_pid "$SPID"
        if [[ $target == mcp-cpp-redis* ]]; then stop_pid "$REDIS_PID"; fi
    done
}

# stdio: a pipelined tools/call stream (bench/drivers/stdio.mjs), WARMUP s then REPS x DURATION s
# in one server process per target. `cat` echoes the requests back: the driver's own ceiling.
suite_stdio() {
    local target log raw
    local -a cmd
    for target in "${STDIO_TARGETS[@]}"; do
        selected "$target" || continue
        echo "bench: == stdio $target"
        raw=""
        case $target in
            mcp-cpp) cmd=("$DEMO_RUN" --log-level off) ;;
            v2-stdio) cmd=(node "$BENCH/peers/server-stdio.mjs" --sdk v2) ;;
            v1-stdio) cmd=(node "$BENCH/peers/server-stdio.mjs" --sdk v1) ;;
            cat) cmd=(cat) raw=--raw ;;
        esac
        log=$WORK/logs/stdio.$target.txt
        timeout -k 5 $((WARMUP + REPS * DURATION + 90)) taskset -c "$LOAD_CPU" node "$BENCH/drivers/stdio.mjs" $raw \
            --seconds "$DURATION" --warmup "$WARMUP" --reps "$REPS" --window "$STDIO_WINDOW" \
            --server-cpu "$SERVER_CPU" --load-cpu "$LOAD_CPU" -- taskset -c "$SERVER_CPU" "${cmd[@]}" >"$log" 2>&1 || true
        grep '^BENCH_RESULT ' "$log" | cut -d' ' -f2- | jq -c --arg target "$target" '{target:$target} + .' >>"$WORK/stdio.jsonl" || true
        jq -r --arg target "$target" 'select(.target==$target) | "  stdio \(.target) " +
            if .error then "failed: \(.error)" else (if .phase==0 then "warm-up" else "run \(.phase)" end) +
            ": \(.calls) calls, \(.ok) ok, \(.failures) failed, \(.ok / .duration_us * 1e6 | floor) calls/s" end' "$WORK/stdio.jsonl"
        jq -e --arg target "$target" 'select(.target==$target and .phase!=null)' "$WORK/stdio.jsonl" >/dev/null ||
            event "$target" stdio "the driver produced no result (see $log)"
    done
}

# memory: VmRSS with MEMORY_N idle 2025 sessions open, and (mcp-cpp, v1-session) with MEMORY_N
# tool calls parked in an unanswered elicitation (bench/drivers/memory.mjs), and with MEMORY_N calls
# of export_notes running as 2025 tasks (bench/drivers/tasks.mjs); a fresh server for each.
suite_memory() {
    local target kind log res tasks_timeout_s=$((TASKS_STEP_MS * 2 / 1000 + 180))
    local -a TARGET_ARGS=()
    # mcp-cpp refuses a client's tasks beyond --max-tasks (1000 by default)
    ((MEMORY_N > 1000)) && TARGET_ARGS=(--max-tasks "$MEMORY_N")
    for target in "${MEMORY_TARGETS[@]}"; do
        selected "$target" || continue
        for kind in sessions parked tasks; do
            # that peer has no eliciting tool, and no task tool
            [[ $kind != sessions && $target == v2-session ]] && continue
            [[ $target == mcp-cpp-*alloc ]] && continue  # another malloc: only the burst

            echo "bench: == memory $target $kind"
            if ! start_target "$target"; then
                event "$target" "memory" "did not start (see $WORK/logs/$target.server.log)"
                stop_pid "$SPID"
                continue
            fi
            log=$WORK/logs/memory.$target.$kind.txt
            if [[ $kind == tasks ]]; then
                timeout -k 5 "$tasks_timeout_s" taskset -c "$LOAD_CPU" node "$BENCH/drivers/tasks.mjs" --url "http://127.0.0.1:$PORT$URL_PATH" \
                    --pid "$SPID" --n "$MEMORY_N" --step-ms "$TASKS_STEP_MS" --settle-ms "$MEMORY_SETTLE_MS" \
                    --timeout-ms $(((tasks_timeout_s - 60) * 1000)) >"$log" 2>&1 || true
            else
                timeout -k 5 300 taskset -c "$LOAD_CPU" node "$BENCH/drivers/memory.mjs" --url "http://127.0.0.1:$PORT$URL_PATH" \
                    --pid "$SPID" "--$kind" "$MEMORY_N" --settle-ms "$MEMORY_SETTLE_MS" >"$log" 2>&1 || true
            fi
            res=$(grep -m1 '^BENCH_RESULT ' "$log" | cut -d' ' -f2-) || true
            if [[ -n $res ]]; then
                jq -c --arg target "$target" '{target:$target} + .' <<<"$res" >>"$WORK/memory.jsonl"
                jq -r '"  memory \(.target) \(.kind): \(.ok) of \(.n) ok, \(.failures) failed; " +
                    if .kind == "tasks" then "created in \(.create_ms) ms, drained in \(.drain_ms) ms, \(.working_at_reading) working at the reading; " +
                        "VmRSS \(.rss_before_kb) -> \(.rss_open_kb) kB created, \(.rss_closed_kb) kB ended; threads \(.threads_before) -> \(.threads_open) (peak \(.threads_peak)) -> \(.threads_closed)"
                    else "VmRSS \(.rss_before_kb) -> \(.rss_open_kb) kB open, \(.rss_closed_kb) kB closed" end' \
                    <<<"$(tail -1 "$WORK/memory.jsonl")"
            else
                event "$target" "memory" "the $kind driver produced no result (see $log)"
            fi
            kill -0 "$SPID" 2>/dev/null || event "$target" "memory" "the server died during $kind (see $WORK/logs/$target.server.log)"
            stop_pid "$SPID"
        done
        if [[ $target == mcp-cpp* ]]; then memory_burst "$target"; fi
    done
}

# memory, burst: does memory go back after a burst? Cycles of BURST_N parked calls whose sessions
# are then all deleted, VmRSS read BURST_AFTER_S seconds after each (bench/drivers/burst.mjs).
memory_burst() {
    local target=$1 log=$WORK/logs/memory.$1.burst.txt res
    echo "bench: == memory $target burst"
    if ! start_target "$target"; then
        event "$target" "memory" "did not start for the burst (see $WORK/logs/$target.server.log)"
        stop_pid "$SPID"
        return
    fi
    timeout -k 5 $((BURST_CYCLES * (BURST_AFTER_S + 120))) taskset -c "$LOAD_CPU" node "$BENCH/drivers/burst.mjs" \
        --url "http://127.0.0.1:$PORT$URL_PATH" --pid "$SPID" --n "$BURST_N" --sessions "$BURST_SESSIONS" \
        --cycles "$BURST_CYCLES" --after-s "$BURST_AFTER_S" >"$log" 2>&1 || true
    res=$(grep -m1 '^BENCH_RESULT ' "$log" | cut -d' ' -f2-) || true
    if [[ -n $res ]]; then
        jq -c --arg target "$target" '{target:$target} + .' <<<"$res" >>"$WORK/burst.jsonl"
        jq -r '"  memory \(.target) burst: \(.ok) parked, \(.failures) failed; idle \(.idle_mib) MiB, peaks \(.peak_mib), after \(.after_s) s \(.after_mib) (target \(.target_mib))"' \
            <<<"$(tail -1 "$WORK/burst.jsonl")"
    else
        event "$target" "memory" "the burst driver produced no result (see $log)"
    fi
    kill -0 "$SPID" 2>/dev/null || event "$target" "memory" "the server died during the burst (see $WORK/logs/$target.server.log)"
    stop_pid "$SPID"
}

# parked: for each PARKED_RUNS entry N:S, a fresh server and N calls of delete_note over S
# sessions, each parked in an elicitation whose client hung up (bench/drivers/parked.mjs).
suite_parked() {
    local target run n sessions log res
    for target in "${PARKED_TARGETS[@]}"; do
        selected "$target" || continue
        for run in "${PARKED_RUNS[@]}"; do
            n=${run%%:*} sessions=${run##*:}
            echo "bench: == parked $target: $n over $sessions sessions"
            if ! start_target "$target"; then
                event "$target" parked "did not start (see $WORK/logs/$target.server.log)"
                stop_pid "$SPID"
                continue
            fi
            log=$WORK/logs/parked.$target.$n.$sessions.txt
            timeout -k 5 900 taskset -c "$LOAD_CPU" node "$BENCH/drivers/parked.mjs" --url "http://127.0.0.1:$PORT$URL_PATH" \
                --pid "$SPID" --n "$n" --sessions "$sessions" --detached --settle-ms "$MEMORY_SETTLE_MS" >"$log" 2>&1 || true
            res=$(grep -m1 '^BENCH_RESULT ' "$log" | cut -d' ' -f2-) || true
            if [[ -n $res ]]; then
                jq -c --arg target "$target" '{target:$target} + .' <<<"$res" >>"$WORK/parked.jsonl"
                jq -r '"  parked \(.target) \(.n)/\(.sessions): \(.ok) ok, \(.failures) failed; fill \(.fill_ms) ms, \(.rss_per_parked_kb) KiB and threads \(.threads_before) -> \(.threads_parked); echo p99 \(.echo_p99_ms) ms; DELETE stall \(.delete_stall_ms) ms"' \
                    <<<"$(tail -1 "$WORK/parked.jsonl")"
            else
                event "$target" parked "the driver produced no result for $n/$sessions (see $log)"
            fi
            kill -0 "$SPID" 2>/dev/null || event "$target" parked "the server died during $n/$sessions (see $WORK/logs/$target.server.log)"
            stop_pid "$SPID"
        done
    done
}

# growth: mcp-cpp with GROWTH_TOOLS registered tools: tools/call of echo (100 B of text, and with
# the fewest tools also the larger GROWTH_BYTES) at GROWTH_CONNS connections, and full paginated
# tools/list listings on one connection; the server's default page size.
suite_growth() {
    selected mcp-cpp || return 0
    local tools bytes EXTRA="" LOG_TAG=""
    local -x BENCH_TOOLS BENCH_TEXT_BYTES # for the wrk scripts
    local DURATION=$GROWTH_DURATION       # what measure_point sees (bash scoping is dynamic)
    for tools in "${GROWTH_TOOLS[@]}"; do
        echo "bench: == growth, $tools tools"
        if ! start_target growth "$tools"; then
            event mcp-cpp growth "did not start with $tools tools (see $WORK/logs/growth-$tools.server.log)"
            stop_pid "$SPID"
            continue
        fi
        BENCH_TOOLS=$tools
        # The listing first, and the largest text last: each point's peak RSS then is its own.
        EXTRA="{\"suite\":\"growth\",\"tools\":$tools,\"text_bytes\":null}" LOG_TAG=.t$tools
        if measure_point mcp-cpp tools-list 1 1; then
            for bytes in "${GROWTH_BYTES[@]}"; do
                ((bytes == GROWTH_BYTES[0] || tools == GROWTH_TOOLS[0])) || continue
                BENCH_TEXT_BYTES=$bytes
                EXTRA="{\"suite\":\"growth\",\"tools\":$tools,\"text_bytes\":$bytes}" LOG_TAG=.t$tools.b$bytes
                measure_point mcp-cpp tools-call "$GROWTH_CONNS" 1 || break
            done
        fi
        kill -0 "$SPID" 2>/dev/null || event mcp-cpp growth "the server died with $tools tools (see $WORK/logs/growth-$tools.server.log)"
        stop_pid "$SPID"
    done
    # The same echo on the handler pool (not declared runs_inline): the cost of the two thread
    # hand-offs a blocking handler needs.
    tools=${GROWTH_TOOLS[0]}
    echo "bench: == growth, $tools tools, handlers on the pool"
    if MCP_BENCH_POOLED=1 start_target growth "$tools"; then
        BENCH_TOOLS=$tools BENCH_TEXT_BYTES=${GROWTH_BYTES[0]}
        EXTRA="{\"suite\":\"growth\",\"tools\":$tools,\"text_bytes\":${GROWTH_BYTES[0]},\"handler\":\"pool\"}" LOG_TAG=.t$tools.pool
        measure_point mcp-cpp tools-call "$GROWTH_CONNS" 1 || true
        kill -0 "$SPID" 2>/dev/null || event mcp-cpp growth "the pooled server died (see $WORK/logs/growth-$tools.server.log)"
    else
        event mcp-cpp growth "the pooled server did not start (see $WORK/logs/growth-$tools.server.log)"
    fi
    stop_pid "$SPID"
    # Structured output checked against the tool's outputSchema on every call, then unchecked
    # (--output-validation off): the difference is the validation's cost.
    local validation label
    for validation in on off; do
        label=structured
        [[ $validation == off ]] && label="structured, unvalidated"
        echo "bench: == growth, $tools tools, $label"
        if MCP_BENCH_STRUCTURED=1 MCP_OUTPUT_VALIDATION=$validation start_target growth "$tools"; then
            BENCH_TOOLS=$tools BENCH_TEXT_BYTES=${GROWTH_BYTES[0]}
            EXTRA="{\"suite\":\"growth\",\"tools\":$tools,\"text_bytes\":${GROWTH_BYTES[0]},\"handler\":\"$label\"}" LOG_TAG=.t$tools.output-$validation
            measure_point mcp-cpp tools-call "$GROWTH_CONNS" 1 || true
            kill -0 "$SPID" 2>/dev/null || event mcp-cpp growth "the structured server died (see $WORK/logs/growth-$tools.server.log)"
        else
            event mcp-cpp growth "the structured server did not start (see $WORK/logs/growth-$tools.server.log)"
        fi
        stop_pid "$SPID"
    done
}

# The server's instructions per call over SCHEME (http or https), counted by callgrind: mcp-cpp-demo
# answering tools/call of echo one after the other on one kept-alive connection
# (bench/drivers/sequential.mjs, every reply checked), N calls and then 2N in a fresh server; the
# difference divided by N, so that startup, the handshake and shutdown cancel out. Prints it.
server_instructions_per_call() { # SCHEME
    local scheme=$1 i port pid total=() file
    local -a args
    command -v valgrind >/dev/null || return 1
    for i in 1 2; do
        port=$(free_port)
        args=(--http "127.0.0.1:$port" --io-threads 1 --log-level off)
        [[ $scheme == https ]] && args+=(--tls-cert "$WORK/tls.pem" --tls-key "$WORK/tls.key")
        file=$WORK/callgrind.$scheme.$i.out
        valgrind --tool=callgrind --callgrind-out-file="$file" "$DEMO_RUN" "${args[@]}" \
            >"$WORK/logs/callgrind.$scheme.$i.txt" 2>&1 &
        pid=$!
        if ! SCHEME=$scheme wait_listening "$port" "$pid" ||
            ! timeout -k 5 900 node "$BENCH/drivers/sequential.mjs" --url "$scheme://127.0.0.1:$port$URL_PATH" \
                --calls $((CALLGRIND_HTTP_CALLS * i)) >>"$WORK/logs/callgrind.$scheme.$i.txt" 2>&1; then
            stop_pid "$pid"
            return 1
        fi
        kill -TERM "$pid"
        wait "$pid" || true # callgrind writes its counts as the server exits
        total+=("$(awk '/^(summary|totals):/ { print $2; exit }' "$file")")
    done
    [[ -n ${total[0]} && -n ${total[1]} ]] || return 1
    echo $(((total[1] - total[0]) / CALLGRIND_HTTP_CALLS))
}

# https: the 2026 wire served by mcp-cpp-demo over TLS (an ECDSA P-256 certificate of this run;
# wrk keeps its connections, so the figure is the cost of TLS records, not of handshakes), and the
# same binary over plain HTTP at the same points, one after the other; then the server's
# instructions per call over each.
suite_https() {
    selected mcp-cpp || return 0
    local scheme conns EXTRA="" LOG_TAG="" SCHEME
    local -a TARGET_ARGS
    if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=127.0.0.1 \
        -addext subjectAltName=IP:127.0.0.1 -keyout "$WORK/tls.key" -out "$WORK/tls.pem" >"$WORK/logs/tls.txt" 2>&1; then
        event mcp-cpp https "could not make a certificate (see $WORK/logs/tls.txt)"
        return 0
    fi
    for scheme in http https; do
        SCHEME=$scheme LOG_TAG=.$scheme EXTRA="{\"suite\":\"https\",\"scheme\":\"$scheme\"}"
        TARGET_ARGS=()
        [[ $scheme == https ]] && TARGET_ARGS=(--tls-cert "$WORK/tls.pem" --tls-key "$WORK/tls.key")
        echo "bench: == https, mcp-cpp over $scheme"
        if ! start_target mcp-cpp; then
            event mcp-cpp https "did not start over $scheme (see $WORK/logs/mcp-cpp.$scheme.server.log)"
            stop_pid "$SPID"
            continue
        fi
        if [[ $scheme == https ]]; then # what wrk's OpenSSL and the server agree on
            openssl s_client -connect "127.0.0.1:$PORT" </dev/null 2>/dev/null | grep -m1 '^New, ' >"$WORK/tls.session" || true
        fi
        for conns in "${CONNS[@]}"; do
            measure_point mcp-cpp 2026 "$conns" $((conns == MAX_CONNS)) && continue
            kill -0 "$SPID" 2>/dev/null || event mcp-cpp https "the server died at $conns connections over $scheme"
            break
        done
        stop_pid "$SPID"
    done
    local instructions
    for scheme in http https; do
        if instructions=$(server_instructions_per_call "$scheme"); then
            jq -nc --arg scheme "$scheme" --argjson calls "$CALLGRIND_HTTP_CALLS" --argjson per_call "$instructions" \
                '{scheme:$scheme, calls:$calls, instructions_per_call:$per_call}' >>"$WORK/instructions.jsonl"
            echo "  https suite, over $scheme: $instructions server instructions per call (callgrind)"
        else
            event mcp-cpp https "no instruction count over $scheme (see $WORK/logs/callgrind.$scheme.*.txt)"
        fi
    done
}

# Instructions per tools/call of echo, counted by callgrind on stdio (the growth server, 10 tools,
# with TARGET_ARGS and MCP_BENCH_INTERCEPTORS as set): a 2025 session of N calls and one of 2N,
# the difference divided by N, so that startup and shutdown cancel out. Every reply is counted.
# Prints the figure; fails when valgrind is missing or a reply is missing.
instructions_per_call() { # KIND
    local kind=$1 i n total=() file
    command -v valgrind >/dev/null || return 1
    for i in 1 2; do
        n=$((CALLGRIND_CALLS * i))
        awk -v n="$n" -v text="$BENCH_TEXT" 'BEGIN {
            print "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"mcp-cpp-bench\",\"version\":\"1.0.0\"}}}"
            print "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"
            for (i = 1; i <= n; i++)
                printf "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"%s\"}}}\n", i, text
        }' >"$WORK/stdio-requests.jsonl"
        file=$WORK/callgrind.$kind.$i.out
        timeout -k 5 900 valgrind --tool=callgrind --callgrind-out-file="$file" "$GROWTH_RUN" 10 --log-level off \
            "${TARGET_ARGS[@]}" <"$WORK/stdio-requests.jsonl" >"$WORK/stdio-replies.jsonl" 2>"$WORK/logs/callgrind.$kind.$i.txt" ||
            return 1
        [[ $(grep -c "{\"type\":\"text\",\"text\":\"$BENCH_TEXT\"}" "$WORK/stdio-replies.jsonl") == "$n" ]] || return 1
        total+=("$(awk '/^(summary|totals):/ { print $2; exit }' "$file")")
    done
    [[ -n ${total[0]} && -n ${total[1]} ]] || return 1
    echo $(((total[1] - total[0]) / CALLGRIND_CALLS))
}

# interceptors: the growth server's echo (10 tools, runs_inline, the 2026 wire at GROWTH_CONNS
# connections) with no interceptor, with one that only calls next(), and with --rate-limit at a
# rate never reached (a bucket per principal, under a mutex); then each one's instructions per call.
suite_interceptors() {
    selected mcp-cpp || return 0
    local kind EXTRA="" LOG_TAG="" instructions
    local -a TARGET_ARGS
    local -x BENCH_TOOLS=10 BENCH_TEXT_BYTES=${GROWTH_BYTES[0]} MCP_BENCH_INTERCEPTORS
    for kind in none pass-through rate-limit; do
        MCP_BENCH_INTERCEPTORS=0 TARGET_ARGS=()
        [[ $kind == pass-through ]] && MCP_BENCH_INTERCEPTORS=1
        [[ $kind == rate-limit ]] && TARGET_ARGS=(--rate-limit 1000000000/s)
        EXTRA="{\"suite\":\"interceptors\",\"interceptors\":\"$kind\"}" LOG_TAG=.$kind
        echo "bench: == interceptors: $kind"
        if start_target growth 10; then
            measure_point mcp-cpp tools-call "$GROWTH_CONNS" 1 ||
                { kill -0 "$SPID" 2>/dev/null || event mcp-cpp interceptors "the server died ($kind)"; }
        else
            event mcp-cpp interceptors "did not start ($kind, see $WORK/logs/growth-10.$kind.server.log)"
        fi
        stop_pid "$SPID"
        if instructions=$(instructions_per_call "$kind"); then
            jq -nc --arg kind "$kind" --argjson calls "$CALLGRIND_CALLS" --argjson per_call "$instructions" \
                '{interceptors:$kind, calls:$calls, instructions_per_call:$per_call}' >>"$WORK/instructions.jsonl"
            echo "  interceptors $kind: $instructions instructions per call (callgrind)"
        else
            event mcp-cpp interceptors "no instruction count for $kind (see $WORK/logs/callgrind.$kind.*.txt)"
        fi
    done
}

# client: each client calls the demo's echo with CLIENT_INFLIGHT calls in flight, over HTTP (a fresh
# demo per run, as the http suite's mcp-cpp target) and over stdio (the demo the driver starts);
# the client pinned to the load core, the server to the server core. The drivers measure their own
# CPU (getrusage, process.cpuUsage) and the server's (/proc), and check every reply.
suite_client() {
    local transport target log
    local -a driver where
    for transport in http stdio; do
        for target in "${CLIENT_TARGETS[@]}"; do
            selected "$target" || continue
            echo "bench: == client $target over $transport"
            case $target in
                mcp-client) driver=("$CLIENT_RUN" --protocol auto) ;;
                mcp-client-2025) driver=("$CLIENT_RUN" --protocol 2025-11-25) ;;
                ts-client) driver=(node "$BENCH/peers/client-ts.mjs") ;;
                ts2-client) driver=(node "$BENCH/peers/client-ts.mjs" --sdk v2 --pin 2026-07-28) ;;
            esac
            if [[ $transport == http ]]; then
                start_target mcp-cpp
                where=(--url "http://127.0.0.1:$PORT$URL_PATH" --server-pid "$SPID")
            else
                where=(-- taskset -c "$SERVER_CPU" "$DEMO_RUN" --log-level off)
            fi
            log=$WORK/logs/client.$target.$transport.txt
            timeout -k 5 $((WARMUP + REPS * DURATION + 90)) taskset -c "$LOAD_CPU" "${driver[@]}" \
                --inflight "$CLIENT_INFLIGHT" --warmup "$WARMUP" --seconds "$DURATION" --reps "$REPS" "${where[@]}" \
                >"$log" 2>&1 || event "$target" "client $transport" "the driver failed (see $log)"
            [[ $transport == http ]] && stop_pid "$SPID"
            grep '^BENCH_RESULT ' "$log" | cut -d' ' -f2- |
                jq -c --arg target "$target" --arg transport "$transport" '{target:$target, transport:$transport} + .' \
                    >>"$WORK/client.jsonl" || true
            jq -r --arg target "$target" --arg transport "$transport" \
                'select(.target==$target and .transport==$transport) | "  client \(.target) \(.transport) " +
                if .error then "failed: \(.error)" else (if .phase==0 then "warm-up" else "run \(.phase)" end) +
                ": \(.ok) ok, \(.failures) failed, \(.ok / .duration_us * 1e6 | floor) calls/s, " +
                "\(.client_cpu_us / ([.calls, 1] | max) | floor) client CPU µs/call" end' "$WORK/client.jsonl"
        done
    done
}

write_meta() {
    local wrk_v nginx_v commit dirty
    wrk_v=$(wrk -v 2>&1 | head -1 || true)
    nginx_v=$(nginx -v 2>&1 | head -1 || true)
    commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
    dirty=$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null | wc -l || echo 0)
    jq -n --arg date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --arg host "$(hostname -s)" \
        --arg cpu "$(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo)" --arg kernel "$(uname -r)" \
        --argjson online "$(nproc --all)" --arg affinity "${CPUS[*]}" \
        --argjson server_cpu "$SERVER_CPU" --argjson load_cpu "$LOAD_CPU" \
        --arg wrk "$wrk_v" --arg nginx "$nginx_v" --arg node "$(node -v)" --arg commit "$commit" --argjson dirty "$dirty" \
        --argjson quick "$quick" --argjson duration "$DURATION" --argjson reps "$REPS" --argjson warmup "$WARMUP" \
        --argjson again "$MAX_AGAIN" --argjson disturbed_above "$DISTURBED_ABOVE" \
        --argjson conns "$(printf '%s\n' "${CONNS[@]}" | jq -s .)" --arg text "$BENCH_TEXT" \
        --arg loadavg "$(cut -d' ' -f1-3 /proc/loadavg)" --argjson built "$do_build" \
        --arg binary_time "$(date -u -r "$DEMO" +%Y-%m-%dT%H:%M:%SZ)" \
        --arg reply "$(cat "$WORK/reply.2026.json" 2>/dev/null || true)" \
        --argjson suites "$(printf '%s\n' "${SUITES[@]}" | jq -R . | jq -sc .)" --argjson stdio_window "$STDIO_WINDOW" \
        --argjson client_inflight "$CLIENT_INFLIGHT" \
        --argjson memory_n "$MEMORY_N" --argjson memory_settle_ms "$MEMORY_SETTLE_MS" --argjson tasks_step_ms "$TASKS_STEP_MS" --argjson parked_runs "$(printf '%s\n' "${PARKED_RUNS[@]}" | jq -R . | jq -sc .)" --argjson growth_conns "$GROWTH_CONNS" \
        --argjson callgrind_calls "$CALLGRIND_CALLS" --argjson callgrind_http_calls "$CALLGRIND_HTTP_CALLS" --arg valgrind "$(valgrind --version 2>/dev/null || true)" \
        --argjson growth_duration "$GROWTH_DURATION" --argjson growth_tools "$(printf '%s\n' "${GROWTH_TOOLS[@]}" | jq -sc .)" --argjson growth_bytes "$(printf '%s\n' "${GROWTH_BYTES[@]}" | jq -sc .)" \
        '{date:$date, host:$host, cpu:$cpu, kernel:$kernel, cpus_online:$online, affinity:$affinity,
          server_cpu:$server_cpu, load_cpu:$load_cpu, quick:($quick==1), duration_s:$duration, reps:$reps,
          warmup_s:$warmup, max_again:$again, disturbed_above:$disturbed_above, conns:$conns, text_bytes:($text|length), echo_reply_bytes:($reply|length),
          loadavg_start:$loadavg, demo_built_by_run:($built==1), demo_binary_time:$binary_time,
          suites:$suites, stdio_window:$stdio_window, client_inflight:$client_inflight, memory_n:$memory_n, memory_settle_ms:$memory_settle_ms, tasks_step_ms:$tasks_step_ms, parked_runs:$parked_runs,
          growth:{tools:$growth_tools, text_bytes:$growth_bytes, conns:$growth_conns, duration_s:$growth_duration},
          callgrind_calls:$callgrind_calls, callgrind_http_calls:$callgrind_http_calls,
          versions:{wrk:$wrk, nginx:$nginx, node:$node, valgrind:$valgrind, mcp_cpp:$commit, mcp_cpp_uncommitted_files:$dirty,
                    "@modelcontextprotocol/server":"2.4.0", "@modelcontextprotocol/client":"2.4.0", "@modelcontextprotocol/sdk":"1.32.2"}}' >"$WORK/meta.json"
}

# --- the run -------------------------------------------------------------------------------------
start_s=$SECONDS
if ((soak_minutes)); then
    command -v node >/dev/null || die "the soak runs on Node.js 20 or newer (from NodeSource; not apt-get nodejs)"
    install_debian
    SUITES=(soak) # build_demo builds the demo only
    build_demo
    out_dir=${out_dir:-$BENCH/results}
    mkdir -p "$out_dir"
    rc=0
    node "$BENCH/soak/soak.mjs" --minutes "$soak_minutes" --demo "$DEMO_RUN" --out "$out_dir" \
        --name "$(date +%Y-%m-%d)-$(hostname -s)-soak-${soak_minutes}min" --work "$WORK" || rc=$?
    echo "bench: soak finished in $((SECONDS - start_s)) s; logs in $WORK"
    exit "$rc"
fi
install_debian
install_npm
build_demo
echo "bench: work directory $WORK; server on CPU $SERVER_CPU, wrk on CPU $LOAD_CPU;" \
    "connections ${CONNS[*]}, ${REPS} x ${DURATION} s after ${WARMUP} s of warm-up"
for f in samples points targets events stdio memory parked instructions client; do : >"$WORK/$f.jsonl"; done
if suite_on http && selected floor; then capture_replies || true; fi
write_meta
for suite in "${SUITES[@]}"; do "suite_$suite"; done
jq --arg l "$(cut -d' ' -f1-3 /proc/loadavg)" --argjson s $((SECONDS - start_s)) \
    '. + {loadavg_end:$l, elapsed_s:$s}' "$WORK/meta.json" >"$WORK/meta.tmp" && mv "$WORK/meta.tmp" "$WORK/meta.json"

if [[ -z $out_dir ]]; then
    if ((quick)); then out_dir=$WORK; else out_dir=$BENCH/results; fi
fi
mkdir -p "$out_dir"
name="$(date +%Y-%m-%d)-$(hostname -s)"
((quick)) && name="$name-quick"
rc=0
node "$BENCH/report.mjs" "$WORK" "$out_dir/$name" || rc=$?
echo "bench: $out_dir/$name.md and .json written in $((SECONDS - start_s)) s; raw logs in $WORK"
exit "$rc"
