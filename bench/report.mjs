// Turns the raw records of one bench/run.sh run into the tables, one section per suite (http,
// stdio, memory and its tasks, parked, growth, https, interceptors, client): prints Markdown, writes <base>.md and <base>.json. Exit code 1 when any
// reply was wrong, any socket error happened, a server died, a setup step failed or a suite that
// ran has no records.
//   node bench/report.mjs WORK_DIR OUT_BASE
import { readFileSync, writeFileSync, existsSync } from 'node:fs';

const [workDir, outBase] = process.argv.slice(2);
if (!workDir || !outBase) {
    console.error('usage: node bench/report.mjs WORK_DIR OUT_BASE');
    process.exit(2);
}
const jsonl = (name) => {
    const p = `${workDir}/${name}`;
    if (!existsSync(p)) return [];
    return readFileSync(p, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
};
const meta = JSON.parse(readFileSync(`${workDir}/meta.json`, 'utf8'));
const suitesRun = meta.suites ?? ['http'];
// wrk runs and points of the http and growth suites share their files, told apart by `suite`.
const allSamples = jsonl('samples.jsonl');
const allPoints = jsonl('points.jsonl');
const ofSuite = (xs, suite) => xs.filter((x) => (x.suite ?? 'http') === suite);
const samples = ofSuite(allSamples, 'http');
const points = ofSuite(allPoints, 'http');
const growthSamples = ofSuite(allSamples, 'growth');
const growthPoints = ofSuite(allPoints, 'growth');
const httpsSamples = ofSuite(allSamples, 'https');
const httpsPoints = ofSuite(allPoints, 'https');
const interceptorSamples = ofSuite(allSamples, 'interceptors');
const interceptorPoints = ofSuite(allPoints, 'interceptors');
const instructions = jsonl('instructions.jsonl');
const schemeInstructions = (scheme) => instructions.find((r) => r.scheme === scheme)?.instructions_per_call ?? null;
const tlsSession = existsSync(`${workDir}/tls.session`) ? readFileSync(`${workDir}/tls.session`, 'utf8').trim() : '';
const targets = jsonl('targets.jsonl');
const events = jsonl('events.jsonl');
const stdio = jsonl('stdio.jsonl');
const memory = jsonl('memory.jsonl');
const parked = jsonl('parked.jsonl');
const burst = jsonl('burst.jsonl');
const clientRecords = jsonl('client.jsonl');

const TARGET_LABEL = {
    'mcp-cpp': 'mcp-cpp',
    'mcp-cpp-jemalloc': 'mcp-cpp, jemalloc preloaded',
    'mcp-cpp-mimalloc': 'mcp-cpp, mimalloc preloaded',
    'mcp-cpp-metrics': 'mcp-cpp, --metrics scraped every 1 s',
    'mcp-cpp-redis': 'mcp-cpp, --metrics, --store redis:// (one redis-server)',
    'mcp-cpp-redis-cluster': 'mcp-cpp, --metrics, --store redis-cluster:// (3 masters)',
    floor: 'nginx floor',
    'v2-stateless': 'TS server 2.4.0 (createMcpHandler)',
    'v2-session': 'TS server 2.4.0 (sessions)',
    'v1-stateless': 'TS sdk 1.32.2 (stateless)',
    'v1-session': 'TS sdk 1.32.2 (sessions)',
    gateway: 'mcp-cpp-gateway → mcp-cpp-demo on stdio',
    supergateway: 'supergateway 4.0.0 (--stateful) → mcp-cpp-demo on stdio',
};
const WIRE_LABEL = {
    2026: '2026-07-28 stateless',
    '2026-nocheck': '2026-07-28, no response() hook',
    '2025-session': '2025-11-25 reused session',
    '2025-churn': '2025-11-25 session churn',
    '2025-stateless': '2025-11-25 no session',
};
const STDIO_LABEL = {
    'mcp-cpp': 'mcp-cpp-demo',
    'v2-stdio': 'TS server 2.4.0 (serveStdio)',
    'v1-stdio': 'TS sdk 1.32.2 (StdioServerTransport)',
    cat: '`cat` (the driver\'s ceiling)',
};
const TARGET_ORDER = Object.keys(TARGET_LABEL);
const WIRE_ORDER = Object.keys(WIRE_LABEL);

// --- aggregation ---------------------------------------------------------------------------------
const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const n = s.length;
    if (!n) return null;
    return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const stat = (xs) => (xs.length ? { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length } : null);
const errorsOf = (s) => s.err_connect + s.err_read + s.err_write + s.err_status + s.err_timeout;

// One row per point: the wrk runs with equal `fields`, and the point record with the same.
function aggregate(list, pointList, fields) {
    const key = (x) => JSON.stringify(fields.map((f) => x[f] ?? null));
    const groups = new Map();
    for (const s of list) {
        const k = key(s);
        if (!groups.has(k)) groups.set(k, []);
        groups.get(k).push(s);
    }
    return [...groups.values()].map((all) => aggregatePoint(all, Object.fromEntries(fields.map((f) => [f, all[0][f] ?? null])),
        pointList.find((p) => key(p) === key(all[0]))));
}
function aggregatePoint(all, head, point) {
    // Each repetition's last attempt (a run disturbed by other processes may have been done again).
    const last = new Map();
    for (const s of all.filter((x) => !x.warmup)) if (!last.has(s.rep) || last.get(s.rep).attempt < s.attempt) last.set(s.rep, s);
    const runs = [...last.values()];
    const calls = (s) => (s.checked ? s.ok : s.requests);
    const secs = (s) => s.duration_us / 1e6;
    const firstFailure = all.map((s) => s.first_failure).find((f) => f) ?? '';
    return {
        ...head,
        checked: all.every((s) => s.checked),
        reps: runs.length,
        calls_per_s: stat(runs.map((s) => calls(s) / secs(s))),
        http_requests_per_s: stat(runs.map((s) => s.requests / secs(s))),
        p50_us: stat(runs.map((s) => s.lat_p50_us)),
        p99_us: stat(runs.map((s) => s.lat_p99_us)),
        server_cpu_us_per_call: stat(runs.filter((s) => calls(s) > 0).map((s) => (s.server_cpu_s / calls(s)) * 1e6)),
        server_core_busy: stat(runs.map((s) => (s.server_core.tasks_s + s.server_core.irq_s + s.server_core.steal_s) / s.server_core.total_s)),
        load_core_busy: stat(runs.map((s) => (s.load_core.tasks_s + s.load_core.irq_s + s.load_core.steal_s) / s.load_core.total_s)),
        others_on_server_core: stat(runs.map((s) => s.others_on_server_core)),
        others_on_load_core: stat(runs.map((s) => s.others_on_load_core)),
        runs_done_again: all.filter((s) => !s.warmup && s.attempt > 0).length,
        runs_still_disturbed: runs.filter((s) => s.disturbed).length,
        wrk_cpu_us_per_request: stat(runs.filter((s) => s.requests > 0 && s.wrk_cpu_s != null).map((s) => (s.wrk_cpu_s / s.requests) * 1e6)),
        wrk_process_busy: stat(runs.filter((s) => s.wrk_cpu_s != null).map((s) => s.wrk_cpu_s / (s.duration_us / 1e6))),
        // The store targets: Redis commands and the node's store round trips per call.
        redis_commands_per_call: stat(runs.filter((s) => s.store && calls(s) > 0).map((s) => s.store.redis_commands / calls(s))),
        round_trips_per_call: stat(runs.filter((s) => s.store && calls(s) > 0).map((s) => s.store.round_trips / calls(s))),
        failures: all.reduce((a, s) => a + s.failures, 0),
        socket_errors: all.reduce((a, s) => a + errorsOf(s), 0),
        first_failure: firstFailure,
        rss_after_kb: point?.rss_after_kb ?? null,
        peak_rss_kb: point?.peak_rss_kb ?? null,
        // tools-list: `ok` counts full listings; the time each took and its pages.
        ...(head.wire === 'tools-list' ? {
            ms_per_ok: stat(runs.filter((s) => s.ok > 0).map((s) => s.duration_us / 1e3 / s.ok)),
            pages_per_ok: stat(runs.filter((s) => s.ok > 0).map((s) => s.pages / s.ok)),
        } : {}),
    };
}
const rows = aggregate(samples, points, ['target', 'wire', 'conns']);
const order = (r) => TARGET_ORDER.indexOf(r.target) * 1e6 + WIRE_ORDER.indexOf(r.wire) * 1e4 + r.conns;
rows.sort((a, b) => order(a) - order(b));
const find = (target, wire, conns) => rows.find((r) => r.target === target && r.wire === wire && r.conns === conns);

// The floor each row is compared with: nginx measured with the same wrk script (the 2026 one for the
// stateless wires: same static request and check, the request's version aside).
const floorFor = (r) => find('floor', ['2025-session', '2025-churn'].includes(r.wire) ? r.wire : '2026', r.conns);
const ratio = (a, b) => (a?.calls_per_s && b?.calls_per_s ? a.calls_per_s.median / b.calls_per_s.median : null);
for (const r of rows) r.ratio_to_floor = ratio(r, floorFor(r));

const peerRows = rows.filter((r) => r.target.startsWith('v'));
const peerKeys = [...new Set(peerRows.map((r) => `${r.target}|${r.wire}`))];
const ratios = rows
    .filter((r) => r.target === 'mcp-cpp')
    .map((r) => ({
        wire: r.wire,
        conns: r.conns,
        vs: Object.fromEntries(
            peerKeys.map((k) => {
                const [t, w] = k.split('|');
                return [k, ratio(r, find(t, w, r.conns))];
            })
        ),
    }));

// stdio: one row per server, over its measured phases (phase 0 is the warm-up). The driver reads
// /proc/stat of both cores around each phase: [tasks, irq, steal, total] seconds.
const othersOn = (core, own) => Math.max(0, (core[0] + core[2] - own) / core[3]);
const stdioRows = Object.keys(STDIO_LABEL).filter((t) => stdio.some((r) => r.target === t)).map((target) => {
    const recs = stdio.filter((r) => r.target === target);
    const runs = recs.filter((r) => r.phase > 0);
    const secs = (r) => r.duration_us / 1e6;
    const disturbed = (r) => Math.max(othersOn(r.cores.server, r.server_cpu_s), othersOn(r.cores.load, r.driver_cpu_s)) > (meta.disturbed_above ?? 0.1);
    return {
        target,
        reps: runs.length,
        calls_per_s: stat(runs.map((r) => r.ok / secs(r))),
        server_cpu_us_per_call: stat(runs.filter((r) => r.ok > 0).map((r) => (r.server_cpu_s / r.ok) * 1e6)),
        server_busy: stat(runs.map((r) => r.server_cpu_s / secs(r))),
        driver_busy: stat(runs.map((r) => r.driver_cpu_s / secs(r))),
        others_on_server_core: stat(runs.map((r) => othersOn(r.cores.server, r.server_cpu_s))),
        others_on_load_core: stat(runs.map((r) => othersOn(r.cores.load, r.driver_cpu_s))),
        runs_disturbed: runs.filter(disturbed).length,
        failures: recs.reduce((a, r) => a + (r.failures ?? 0), 0),
        error: recs.find((r) => r.error)?.error ?? '',
        first_failure: recs.map((r) => r.first_failure).find((f) => f) ?? '',
    };
});
const stdioOf = (t) => stdioRows.find((r) => r.target === t);

// client: one row per client and transport, over its measured phases. "per client core" is calls
// per second of the client's own CPU time: calls/s as if the client had one core to itself.
const CLIENT_LABEL = {
    'mcp-client': 'mcp::Client, auto (2026-07-28)',
    'mcp-client-2025': 'mcp::Client, 2025-11-25',
    'ts-client': 'TS sdk 1.32.2 Client (2025-11-25)',
    'ts2-client': 'TS client 2.4.0 (2026-07-28)',
};
// Each mcp::Client row is held against the TypeScript client that speaks its wire.
const TS_PEER = { 'mcp-client': 'ts2-client', 'mcp-client-2025': 'ts-client' };
const isTs = (target) => !(target in TS_PEER);
const clientRows = ['http', 'stdio'].flatMap((transport) =>
    Object.keys(CLIENT_LABEL).filter((t) => clientRecords.some((r) => r.target === t && r.transport === transport)).map((target) => {
        const recs = clientRecords.filter((r) => r.target === target && r.transport === transport);
        const runs = recs.filter((r) => r.phase > 0 && r.ok > 0);
        const secs = (r) => r.duration_us / 1e6;
        return {
            target, transport,
            protocol: runs[0]?.protocol ?? '',
            reps: runs.length,
            calls_per_s: stat(runs.map((r) => r.ok / secs(r))),
            calls_per_client_core_s: stat(runs.map((r) => r.ok / (r.client_cpu_us / 1e6))),
            client_cpu_us_per_call: stat(runs.map((r) => r.client_cpu_us / r.ok)),
            client_busy: stat(runs.map((r) => r.client_cpu_us / r.duration_us)),
            server_cpu_us_per_call: stat(runs.map((r) => r.server_cpu_us / r.ok)),
            server_busy: stat(runs.map((r) => r.server_cpu_us / r.duration_us)),
            failures: recs.reduce((a, r) => a + (r.failures ?? 0), 0),
            error: recs.find((r) => r.error)?.error ?? '',
        };
    })
);
const clientOf = (target, transport) => clientRows.find((r) => r.target === target && r.transport === transport);
const clientVsTs = (r, key) => {
    const ts = clientOf(TS_PEER[r.target], r.transport);
    return med(r[key]) && med(ts?.[key]) ? med(r[key]) / med(ts[key]) : null;
};

// memory: each driver record, with its growth per held session, call or task.
const memoryRows = memory.map((r) => ({
    ...r,
    kb_each: r.rss_open_kb != null ? (r.rss_open_kb - r.rss_before_kb) / r.n : null,
}));
const heldRows = memoryRows.filter((r) => r.kind !== 'tasks');
// memory, tasks: each server's run, and mcp-cpp's figures divided by each peer's.
const taskRows = memoryRows.filter((r) => r.kind === 'tasks');
const taskMcp = taskRows.find((r) => r.target === 'mcp-cpp');
const div = (a, b) => (a != null && b ? a / b : null);
const taskRatios = taskMcp ? taskRows.filter((r) => r !== taskMcp).map((r) => ({
    peer: r.target,
    kb_each: div(taskMcp.kb_each, r.kb_each),
    create_ms: div(taskMcp.create_ms, r.create_ms),
    drain_ms: div(taskMcp.drain_ms, r.drain_ms),
    threads_peak: div(taskMcp.threads_peak, r.threads_peak),
})) : [];

// growth: one row per point (tools, text size, what).
const growthRows = aggregate(growthSamples, growthPoints, ['target', 'tools', 'text_bytes', 'wire', 'conns', 'handler'])
    .sort((a, b) => (a.wire === b.wire ? 0 : a.wire === 'tools-call' ? -1 : 1) || (a.handler ? 1 : 0) - (b.handler ? 1 : 0) ||
        a.tools - b.tools || a.text_bytes - b.text_bytes);

// https: each connection count over plain HTTP and over TLS, and their ratio.
const httpsRows = aggregate(httpsSamples, httpsPoints, ['target', 'scheme', 'wire', 'conns']);
const httpsInstructions = { http: schemeInstructions('http'), https: schemeInstructions('https') };
const httpsPairs = [...new Set(httpsRows.map((r) => r.conns))].sort((a, b) => a - b).map((conns) => {
    const plain = httpsRows.find((r) => r.conns === conns && r.scheme === 'http');
    const tls = httpsRows.find((r) => r.conns === conns && r.scheme === 'https');
    return { conns, plain, tls, ratio: ratio(tls, plain) };
});

// interceptors: none, one that only passes the call on, the rate limiter; each against none.
const INTERCEPTOR_LABEL = {
    none: 'none',
    'pass-through': 'one that only calls next()',
    'rate-limit': '`--rate-limit` (never reached)',
};
const interceptorRows = aggregate(interceptorSamples, interceptorPoints, ['target', 'interceptors', 'wire', 'conns'])
    .sort((a, b) => Object.keys(INTERCEPTOR_LABEL).indexOf(a.interceptors) - Object.keys(INTERCEPTOR_LABEL).indexOf(b.interceptors));
const instructionsOf = (kind) => instructions.find((r) => r.interceptors === kind)?.instructions_per_call ?? null;
for (const r of interceptorRows) {
    r.ratio_to_none = ratio(r, interceptorRows.find((x) => x.interceptors === 'none'));
    r.instructions_per_call = instructionsOf(r.interceptors);
}
const interceptorKinds = Object.keys(INTERCEPTOR_LABEL).filter((k) => interceptorRows.some((r) => r.interceptors === k) || instructionsOf(k) != null);

// --- formatting ----------------------------------------------------------------------------------
const int = (x) => (x == null ? '–' : Math.round(x).toLocaleString('en-US'));
const fix = (x, d = 2) => (x == null ? '–' : x.toFixed(d));
const ms = (us) => (us == null ? '–' : (us / 1000).toFixed(us < 10000 ? 2 : 1));
const pct = (x) => (x == null ? '–' : `${Math.round(x * 100)}%`);
const mb = (kb) => (kb == null ? '–' : (kb / 1024).toFixed(1));
const range = (s, f) => (s ? (s.n > 1 ? `${f(s.median)} (${f(s.min)}–${f(s.max)})` : f(s.median)) : '–');
const times = (x) => (x == null ? '–' : x >= 10 ? `${x.toFixed(0)}×` : x >= 1 ? `${x.toFixed(1)}×` : `${x.toFixed(2)}×`);
const med = (s) => s?.median ?? null;

const out = [];
const p = (s = '') => out.push(s);
p(`# mcp-cpp benchmark, ${meta.date.slice(0, 10)}, ${meta.host}${meta.quick ? ' (--quick)' : ''}`);
p();
p(`- Machine: ${meta.cpu}, ${meta.cpus_online} CPUs online, kernel ${meta.kernel}; server pinned to CPU ${meta.server_cpu}, wrk to CPU ${meta.load_cpu}.`);
p(`- Load average ${meta.loadavg_start} at the start, ${meta.loadavg_end ?? '?'} at the end (other processes share these cores).`);
p(`- ${meta.versions.wrk}; ${meta.versions.nginx}; Node ${meta.versions.node}; mcp-cpp ${meta.versions.mcp_cpp}` +
    `${meta.versions.mcp_cpp_uncommitted_files ? ` + ${meta.versions.mcp_cpp_uncommitted_files} uncommitted files` : ''} (Release` +
    `${meta.demo_built_by_run ? '' : `, binary of ${meta.demo_binary_time} used as it was (--no-build)`}); ` +
    `@modelcontextprotocol/server 2.4.0, @modelcontextprotocol/sdk 1.32.2.`);
p(`- Each point: ${meta.warmup_s} s warm-up, then ${meta.reps} × ${meta.duration_s} s; median (min–max). tools/call of \`echo\` with ` +
    `${meta.text_bytes} bytes of text${meta.echo_reply_bytes ? `; the floor answers with mcp-cpp's own ${meta.echo_reply_bytes}-byte reply` : ''}. Every reply checked.`);
p(`- Suites: ${suitesRun.join(', ')}. Run took ${meta.elapsed_s ?? '?'} s.`);
p();
if (rows.length) {
    p('## HTTP throughput');
    p();
    p('calls/s = checked tools/call replies per second (session churn: one call per initialize + initialized + call + DELETE, ' +
        'so 4 HTTP requests per call). × floor: against nginx measured with the same kind of wrk script. CPU/call: server ' +
        'process user+system time over the run ÷ calls. server core, wrk core: how busy each pinned core was (100% on wrk\'s ' +
        'core: the figure is wrk\'s limit, not the server\'s). Others on the cores: task time on the server\'s / wrk\'s core ' +
        `not charged to the server / wrk, i.e. other processes (this machine is shared); a run where others took more than ` +
        `${Math.round((meta.disturbed_above ?? 0.1) * 100)}% of either core was done again, up to ${meta.max_again ?? 0} times; ` +
        '⚠n: n of the runs kept were still disturbed.');
    p();
    p('| target | wire | conns | calls/s | × floor | HTTP req/s | p50 ms | p99 ms | CPU µs/call | server core | wrk core | others on the cores | failed |');
    p('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
    for (const r of rows) {
        p(`| ${TARGET_LABEL[r.target]} | ${WIRE_LABEL[r.wire]} | ${r.conns} | ${range(r.calls_per_s, int)} | ${times(r.ratio_to_floor)} | ` +
            `${int(med(r.http_requests_per_s))} | ${ms(med(r.p50_us))} | ${range(r.p99_us, ms)} | ${fix(med(r.server_cpu_us_per_call), 1)} | ` +
            `${pct(med(r.server_core_busy))} | ${pct(med(r.load_core_busy))} | ${pct(med(r.others_on_server_core))} / ${pct(med(r.others_on_load_core))}` +
            `${r.runs_still_disturbed ? ` ⚠${r.runs_still_disturbed}` : ''} | ${r.failures + r.socket_errors} |`);
    }
    p();
}
if (ratios.length && peerKeys.length) {
    p('## mcp-cpp ÷ each TypeScript peer (calls/s, same connection count)');
    p();
    p(`| mcp-cpp wire | conns | ${peerKeys.map((k) => { const [t, w] = k.split('|'); return `${TARGET_LABEL[t]}, ${WIRE_LABEL[w]}`; }).join(' | ')} |`);
    p(`|---|---:|${peerKeys.map(() => '---:').join('|')}|`);
    for (const r of ratios) p(`| ${WIRE_LABEL[r.wire]} | ${r.conns} | ${peerKeys.map((k) => times(r.vs[k])).join(' | ')} |`);
    p();
}
// The same server with and without --metrics (and a scraper every second): what metrics cost.
const metricsCost = rows
    .filter((r) => r.target === 'mcp-cpp-metrics')
    .map((on) => ({ on, off: find('mcp-cpp', on.wire, on.conns) }))
    .filter((m) => m.off);
if (metricsCost.length) {
    p('## Cost of metrics (--metrics, scraped every second)');
    p();
    p('| wire | conns | calls/s off | calls/s on | on ÷ off | server CPU µs/call off | on |');
    p('|---|---:|---:|---:|---:|---:|---:|');
    for (const { on, off } of metricsCost) {
        p(`| ${WIRE_LABEL[on.wire]} | ${on.conns} | ${range(off.calls_per_s, int)} | ${range(on.calls_per_s, int)} | ` +
            `${pct(ratio(on, off))} | ${fix(med(off.server_cpu_us_per_call), 1)} | ${fix(med(on.server_cpu_us_per_call), 1)} |`);
    }
    p();
}
const hook = meta.conns
    .map((c) => ({ c, on: find('floor', '2026', c), off: find('floor', '2026-nocheck', c), sess: find('floor', '2025-session', c) }))
    .filter((h) => h.on && h.off);
if (hook.length) {
    p('## Cost of checking every reply (wrk `response()` hook), on the nginx floor');
    p();
    p('The two alternate run by run; "throughput lost" is the median over the pairs. wrk CPU: the wrk process\'s own user+system time ÷ requests. The hook slows a target down only where wrk\'s core is saturated (the "wrk core" column of the first table).');
    p();
    p('| conns | no hook calls/s | hook calls/s | throughput lost | wrk CPU µs/request, no hook | with hook | session script (per-request ids + check) calls/s |');
    p('|---:|---:|---:|---:|---:|---:|---:|');
    for (const h of hook) {
        // The two alternate run by run: compare each run with its neighbour, then take the median.
        const on = samples.filter((s) => s.target === 'floor' && s.wire === '2026' && s.conns === h.c && !s.warmup);
        const off = samples.filter((s) => s.target === 'floor' && s.wire === '2026-nocheck' && s.conns === h.c && !s.warmup);
        const lost = median(on.map((s) => {
            const o = off.find((x) => x.rep === s.rep);
            return o ? 1 - (s.ok / s.duration_us) / (o.requests / o.duration_us) : null;
        }).filter((x) => x != null));
        p(`| ${h.c} | ${range(h.off.calls_per_s, int)} | ${range(h.on.calls_per_s, int)} | ${pct(lost)} | ` +
            `${fix(med(h.off.wrk_cpu_us_per_request))} | ${fix(med(h.on.wrk_cpu_us_per_request))} | ${h.sess ? range(h.sess.calls_per_s, int) : '–'} |`);
    }
    p();
}
if (targets.length) {
    p('## Memory (HTTP suite)');
    p();
    p(`Idle: VmRSS 1 s after start. Peak: VmHWM over the ${Math.max(...meta.conns)}-connection point of each wire (reset with clear_refs before it).`);
    p();
    p('| target | idle RSS MB | peak RSS MB, per wire |');
    p('|---|---:|---|');
    for (const t of [...targets].sort((a, b) => TARGET_ORDER.indexOf(a.target) - TARGET_ORDER.indexOf(b.target))) {
        const peaks = rows.filter((r) => r.target === t.target && r.peak_rss_kb != null).map((r) => `${WIRE_LABEL[r.wire]}: ${mb(r.peak_rss_kb)}`);
        p(`| ${TARGET_LABEL[t.target]} | ${mb(t.idle_rss_kb)} | ${peaks.join('; ') || '–'} |`);
    }
    p();
}
// Issue 27's targets: the gateway in front of a stdio server against supergateway in front of the
// same, and what the gateway adds to a call over the demo serving HTTP itself (same wire, same
// connections).
const gatewayRows = rows.filter((r) => r.target === 'gateway');
if (gatewayRows.length) {
    p("## The gateway (issue 27's targets, information, not asserted)");
    p();
    p('calls/s ÷ supergateway: the same wire and connections (supergateway serves the 2025 session wire only). ' +
        'p50 added: the gateway\'s p50 minus mcp-cpp-demo\'s own HTTP p50 at the same point (target ≤ 100 µs); ' +
        '× supergateway target ≥ 5.');
    p();
    p('| wire | conns | gateway calls/s | supergateway calls/s | × supergateway | gateway p50 ms | direct p50 ms | p50 added µs |');
    p('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of gatewayRows) {
        const peer = find('supergateway', r.wire, r.conns);
        const direct = find('mcp-cpp', r.wire, r.conns);
        const added = direct ? med(r.p50_us) - med(direct.p50_us) : null;
        p(`| ${WIRE_LABEL[r.wire]} | ${r.conns} | ${range(r.calls_per_s, int)} | ${peer ? range(peer.calls_per_s, int) : '–'} | ` +
            `${times(ratio(r, peer))} | ${ms(med(r.p50_us))} | ${direct ? ms(med(direct.p50_us)) : '–'} | ${added == null ? '–' : int(added)} |`);
    }
    p();
}
// The shared stores beside the memory store, the same server otherwise (--metrics scraped every
// second on all three), a reused 2025 session; issue 25's targets for information.
const storeRows = rows.filter((r) => r.target.startsWith('mcp-cpp-redis') && r.wire === '2025-session');
if (storeRows.length) {
    p('## What a shared store costs a reused-session 2025 call');
    p();
    p('Each store row beside mcp-cpp with --metrics and the memory store at the same connections. Redis commands: ' +
        'INFO total_commands_processed over every Redis server (a script\'s own commands count), background work ' +
        '(the cluster\'s slot map read once a second, health checks) included. Round trips: the node\'s ' +
        'mcp_store_command_duration_seconds count (a pipeline once). Redis runs on the load core, beside wrk. ' +
        "Issue 25's targets: CPU ≤ 1.5× the memory store's, ≤ 1 command and ≤ 0.1 round trips per call.");
    p();
    p('| store | conns | calls/s | CPU µs/call | × memory CPU | Redis commands/call | round trips/call | targets met |');
    p('|---|---:|---:|---:|---:|---:|---:|---|');
    for (const conns of [...new Set(storeRows.map((r) => r.conns))].sort((a, b) => a - b)) {
        const memory = find('mcp-cpp-metrics', '2025-session', conns);
        if (memory) {
            p(`| memory | ${conns} | ${range(memory.calls_per_s, int)} | ${range(memory.server_cpu_us_per_call, (x) => fix(x, 1))} | 1.0× | 0 | 0 | |`);
        }
        for (const r of storeRows.filter((x) => x.conns === conns)) {
            const cpu = med(memory?.server_cpu_us_per_call) ? med(r.server_cpu_us_per_call) / med(memory.server_cpu_us_per_call) : null;
            const commands = med(r.redis_commands_per_call);
            const trips = med(r.round_trips_per_call);
            const met = cpu == null || commands == null || trips == null ? '–' : cpu <= 1.5 && commands <= 1 && trips <= 0.1 ? 'yes' : 'no';
            p(`| ${r.target === 'mcp-cpp-redis' ? 'redis' : 'redis-cluster'} | ${conns} | ${range(r.calls_per_s, int)} | ` +
                `${range(r.server_cpu_us_per_call, (x) => fix(x, 1))} | ${times(cpu)} | ${range(r.redis_commands_per_call, (x) => fix(x, 3))} | ` +
                `${range(r.round_trips_per_call, (x) => fix(x, 4))} | ${met} |`);
        }
    }
    p();
}
// Issue 6's speed targets, for information (a benchmark asserts nothing).
const at32 = (w) => find('mcp-cpp', w, 32);
if (at32('2026') || at32('2025-session')) {
    const idle = targets.find((t) => t.target === 'mcp-cpp')?.idle_rss_kb;
    const checks = [
        ['2026 wire ≥ 50% of the floor at 32 connections', at32('2026')?.ratio_to_floor, (x) => x >= 0.5, pct],
        ['reused-session 2025 wire ≥ 50% of the floor at 32 connections', at32('2025-session')?.ratio_to_floor, (x) => x >= 0.5, pct],
        ['server CPU ≤ 20 µs per call (2026, 32 connections)', med(at32('2026')?.server_cpu_us_per_call), (x) => x <= 20, (x) => `${fix(x, 1)} µs`],
        ['p99 ≤ 2 ms (2026, 32 connections)', med(at32('2026')?.p99_us), (x) => x <= 2000, (x) => `${ms(x)} ms`],
        ['p99 ≤ 2 ms (2025 reused session, 32 connections)', med(at32('2025-session')?.p99_us), (x) => x <= 2000, (x) => `${ms(x)} ms`],
        ['idle RSS ≤ 15 MB', idle, (x) => x <= 15 * 1024, (x) => `${mb(x)} MB`],
    ];
    p("## Issue 6's targets for mcp-cpp (information, not asserted)");
    p();
    p('| target | measured | met |');
    p('|---|---:|---|');
    for (const [what, v, ok, f] of checks) p(`| ${what} | ${v == null ? '–' : f(v)} | ${v == null ? '–' : ok(v) ? 'yes' : 'no'} |`);
    p();
}
const size = (b) => (b == null ? '–' : b >= 1 << 20 ? `${b / (1 << 20)} MiB` : b >= 1024 ? `${b / 1024} KiB` : `${b} B`);
const ratioOf = (a, b) => (med(a?.calls_per_s) && med(b?.calls_per_s) ? med(a.calls_per_s) / med(b.calls_per_s) : null);
if (stdioRows.length) {
    p('## stdio');
    p();
    p(`A 2025-11-25 session on the server's stdin and stdout (initialize + notifications/initialized), then tools/call of \`echo\` ` +
        `with ${meta.text_bytes} bytes of text, streamed with at most ${meta.stdio_window} requests outstanding; every reply checked ` +
        `(bench/drivers/stdio.mjs, Node, on the load core; the server on the server core). ${meta.warmup_s} s warm-up, then ` +
        `${meta.reps} × ${meta.duration_s} s in the same server process. \`cat\` sends each request back as its reply, which the ` +
        'driver checks the same way: the most this driver can do. CPU/call: the server process\'s user+system time ÷ calls. ' +
        'server, driver: the share of its core each process used. Others on the cores as in the HTTP table (not done again here).');
    p();
    p('| server | calls/s | mcp-cpp ÷ this | share of `cat` | CPU µs/call | server | driver | others on the cores | failed |');
    p('|---|---:|---:|---:|---:|---:|---:|---|---:|');
    for (const r of stdioRows) {
        p(`| ${STDIO_LABEL[r.target]} | ${range(r.calls_per_s, int)} | ${r.target === 'mcp-cpp' ? '' : times(ratioOf(stdioOf('mcp-cpp'), r))} | ` +
            `${pct(ratioOf(r, stdioOf('cat')))} | ${fix(med(r.server_cpu_us_per_call), 1)} | ${pct(med(r.server_busy))} | ${pct(med(r.driver_busy))} | ` +
            `${pct(med(r.others_on_server_core))} / ${pct(med(r.others_on_load_core))}${r.runs_disturbed ? ` ⚠${r.runs_disturbed}` : ''} | ` +
            `${r.error ? 'error' : r.failures} |`);
    }
    p();
}
if (clientRows.length) {
    p('## client');
    p();
    p(`Each client calls mcp-cpp-demo's \`echo\` (${meta.text_bytes} bytes of text) with ${meta.client_inflight} calls in flight, ` +
        'every reply checked: mcp::Client through `async_call_tool` (bench/client/client_driver.cpp), the TypeScript SDKs\' ' +
        'Clients through `callTool` (bench/peers/client-ts.mjs). Each mcp::Client row\'s ÷ TS is against the TypeScript client ' +
        'on the same wire: 2026-07-28 against the 2.4.0 client, 2025-11-25 against the 1.32.2 one. HTTP: a fresh `mcp-cpp-demo --http --io-threads 1` per run; stdio: ' +
        'the demo the client starts. The client on the load core, the server on the server core. ' +
        `${meta.warmup_s} s warm-up, then ${meta.reps} × ${meta.duration_s} s, medians (min–max). Client CPU: the driver's own ` +
        'getrusage / process.cpuUsage (all its threads); server CPU: /proc/<pid>/stat. Per client core: calls ÷ client CPU seconds. ' +
        `Load average ${meta.loadavg_start} at the start, ${meta.loadavg_end ?? '–'} at the end: the machine is shared.`);
    p();
    p('| transport | client | calls/s | ÷ TS | per client core | ÷ TS | client CPU µs/call | client core busy | server CPU µs/call | server core busy | failed |');
    p('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of clientRows) {
        const own = isTs(r.target);
        p(`| ${r.transport} | ${CLIENT_LABEL[r.target]} | ${range(r.calls_per_s, int)} | ${own ? '' : times(clientVsTs(r, 'calls_per_s'))} | ` +
            `${int(med(r.calls_per_client_core_s))} | ${own ? '' : times(clientVsTs(r, 'calls_per_client_core_s'))} | ` +
            `${fix(med(r.client_cpu_us_per_call), 1)} | ${pct(med(r.client_busy))} | ${fix(med(r.server_cpu_us_per_call), 1)} | ` +
            `${pct(med(r.server_busy))} | ${r.error ? 'error' : r.failures} |`);
    }
    p();
    const goal = clientRows.filter((r) => !isTs(r.target)).map((r) => [r, clientVsTs(r, 'calls_per_client_core_s')]);
    if (goal.some(([, v]) => v != null)) {
        p("Issue 22's target, ≥ 10× the TypeScript client's calls/s per client core on the same wire (information, not asserted): " +
            goal.map(([r, v]) => `${r.transport}, ${CLIENT_LABEL[r.target]}: ${v == null ? '–' : `${times(v)} (${v >= 10 ? 'met' : 'missed'})`}`).join('; ') + '.');
        p();
    }
}
if (heldRows.length) {
    p(`## Memory per ${meta.memory_n} idle sessions and parked calls`);
    p();
    p(`VmRSS of a fresh server before, while it holds ${meta.memory_n} idle 2025-11-25 sessions (initialize + ` +
        'notifications/initialized over HTTP, 32 at a time) or as many tools/call of mcp-cpp-demo\'s `delete_note` parked in ' +
        'an elicitation nobody answers (each an open SSE stream that carried its elicitation/create), and after the sessions ' +
        `are ended (DELETE) or the streams closed; each reading ${meta.memory_settle_ms} ms after the step (bench/drivers/memory.mjs). ` +
        'A Node server\'s figures include garbage not yet collected. The TypeScript server 2.4.0 peer serves no eliciting tool.');
    p();
    p('| server | held | VmRSS before MB | while held MB | growth per 1000 MB | KiB each | after ending them MB | threads before → held → after | failed |');
    p('|---|---|---:|---:|---:|---:|---:|---|---:|');
    for (const r of heldRows) {
        p(`| ${TARGET_LABEL[r.target] ?? r.target} | ${r.n} ${r.kind === 'parked' ? 'parked elicitations' : 'idle sessions'} | ` +
            `${mb(r.rss_before_kb)} | ${mb(r.rss_open_kb)} | ${mb(r.kb_each == null ? null : r.kb_each * 1000)} | ${fix(r.kb_each, 1)} | ` +
            `${mb(r.rss_closed_kb)} | ${r.threads_before ?? '–'} → ${r.threads_open ?? '–'} → ${r.threads_closed ?? '–'} | ${r.failures} |`);
    }
    p();
}
if (burst.length) {
    p('## Memory after a burst');
    p();
    p('Cycles of tools/call of mcp-cpp-demo\'s `delete_note` parked in elicitations whose clients hung up (2025-11-25, 64 at ' +
        'a time), then every one of their sessions deleted; VmRSS idle, with all parked (peak), and the stated seconds after ' +
        'each cycle\'s last DELETE (bench/drivers/burst.mjs). Target (issue 26): after each cycle at most 2x idle + 20 MiB, ' +
        'and no growth from cycle to cycle.');
    p();
    p('| server | parked per cycle | sessions | idle MiB | peak MiB per cycle | MiB after each cycle | target MiB | met | failed |');
    p('|---|---:|---:|---:|---|---|---:|---|---:|');
    for (const r of burst) {
        const met = r.after_mib?.length && r.after_mib.every((v) => v <= r.target_mib);
        p(`| ${TARGET_LABEL[r.target] ?? r.target} | ${r.n} | ${r.sessions} | ${r.idle_mib ?? '–'} | ${(r.peak_mib ?? []).join(', ')} | ` +
            `${(r.after_mib ?? []).join(', ')} (after ${r.after_s} s) | ${r.target_mib ?? '–'} | ${met ? 'yes' : 'no'} | ${r.failures} |`);
    }
    p();
}
if (taskRows.length) {
    const step = meta.tasks_step_ms ?? taskRows[0].step_ms;
    p(`## ${meta.memory_n} tasks at once`);
    p();
    p(`One 2025-11-25 session; ${meta.memory_n} tools/call of \`export_notes\` {step_ms: ${step}} with \`params.task\`, 32 at a ` +
        `time, each answered {task} (working); the tool sleeps ${step} ms per note in the background, 2 notes, so a task ` +
        `needs ${fix((2 * step) / 1000, 1)} s. A fresh server (bench/drivers/tasks.mjs). create: from the first request to the last ` +
        `answer. drain: from the first request to the last task's end (its lastUpdatedAt), found by reading every page of ` +
        'tasks/list until all are completed; the ideal is the create time plus one task. VmRSS and threads before, once all are ' +
        `created and once all have ended, each ${meta.memory_settle_ms} ms after the step; peak: the most seen (read every ` +
        '50 ms). KiB per task: (created − before) ÷ tasks; working: tasks still running at the "created" reading (the others ' +
        'had ended and are records). Every task\'s tasks/result is then checked. mcp-cpp-demo\'s handler runs on the handler ' +
        'pool and holds its thread while it sleeps; a handler that becomes a task counts as blocking for the pool, which ' +
        'replaces its thread at once (one thread per running task). The TypeScript peer\'s is a timer ' +
        '(an InMemoryTaskStore, cancellation through an AbortSignal).');
    p();
    p('| server | tasks | create s | created/s | drain s | VmRSS before → created → ended MB | KiB per task | peak MB | ' +
        'threads before → created → ended (peak) | working at the reading | failed |');
    p('|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|');
    for (const r of taskRows) {
        p(`| ${TARGET_LABEL[r.target] ?? r.target} | ${r.created ?? '–'} | ${fix(r.create_ms / 1000, 1)} | ` +
            `${r.create_ms ? int(r.created / (r.create_ms / 1000)) : '–'} | ${fix(r.drain_ms == null ? null : r.drain_ms / 1000, 1)} | ` +
            `${mb(r.rss_before_kb)} → ${mb(r.rss_open_kb)} → ${mb(r.rss_closed_kb)} | ${fix(r.kb_each, 1)} | ${mb(r.rss_peak_kb)} | ` +
            `${r.threads_before ?? '–'} → ${r.threads_open ?? '–'} → ${r.threads_closed ?? '–'} (${r.threads_peak ?? '–'}) | ` +
            `${r.working_at_reading ?? '–'} | ${r.failures} |`);
    }
    p();
    if (taskRatios.length) {
        p('| mcp-cpp ÷ | KiB per task | create time | drain time | peak threads |');
        p('|---|---:|---:|---:|---:|');
        for (const x of taskRatios) {
            p(`| ${TARGET_LABEL[x.peer] ?? x.peer} | ${times(x.kb_each)} | ${times(x.create_ms)} | ${times(x.drain_ms)} | ${times(x.threads_peak)} |`);
        }
        p();
    }
}
if (parked.length) {
    p('## Parked calls');
    p();
    p('N tools/call of `delete_note` (mcp-cpp-demo\'s, and the same tool on the TypeScript sdk 1.32.2 peer) spread over S ' +
        '2025-11-25 sessions, 64 in flight; each counts as parked once its SSE stream carried the elicitation/create, and the ' +
        'client then hangs up, so the call waits with no connection. A fresh server per row (bench/drivers/parked.mjs). ' +
        `VmRSS and threads ${meta.memory_settle_ms} ms before and after the fill; then 2000 tools/call of \`echo\` (after as many unmeasured), one at a ` +
        'time on a session of their own, while every call stays parked; then DELETE of one session (N / S parked calls) while ' +
        'the echoes go on over another connection: the slowest echo is the stall, beside the slowest of as long a quiet window ' +
        'just before (the driver\'s own noise).');
    p();
    p('| server | parked | sessions | fill s | parked/s | VmRSS before → parked MB | KiB each | threads before → parked | ' +
        'echo p50 / p99 ms | DELETE of | DELETE ms | stall ms (quiet) | failed |');
    p('|---|---:|---:|---:|---:|---|---:|---|---|---:|---:|---|---:|');
    for (const r of parked) {
        p(`| ${TARGET_LABEL[r.target] ?? r.target} | ${r.n} | ${r.sessions} | ${fix(r.fill_ms / 1000, 1)} | ` +
            `${r.fill_ms ? Math.round(r.ok / (r.fill_ms / 1000)) : '–'} | ${mb(r.rss_before_kb)} → ${mb(r.rss_parked_kb)} | ` +
            `${fix(r.rss_per_parked_kb, 2)} | ${r.threads_before ?? '–'} → ${r.threads_parked ?? '–'} | ` +
            `${fix(r.echo_p50_ms, 2)} / ${fix(r.echo_p99_ms, 2)} | ${r.delete_parked ?? '–'} | ${r.delete_ms ?? '–'} | ` +
            `${fix(r.delete_stall_ms, 1)} (${fix(r.quiet_max_ms, 1)}) | ${r.failures} |`);
    }
    p();
}
const growthCalls = growthRows.filter((r) => r.wire === 'tools-call');
const growthLists = growthRows.filter((r) => r.wire === 'tools-list');
if (growthRows.length) {
    p('## Growth: registered tools and argument size (mcp-cpp)');
    p();
    p(`bench/server/growth_server.cpp: mcp-cpp-demo's \`echo\` among N registered tools of the same shape, on the 2026-07-28 ` +
        `stateless wire; ${meta.warmup_s} s warm-up, then ${meta.reps} × ${meta.growth.duration_s} s per point. tools/call of ` +
        `\`echo\` at ${meta.growth.conns} connections (bench/wrk/wire2026.lua, the text repeated to size); peak RSS: VmHWM over ` +
        'the point. Columns as in the HTTP table. Handler: `inline` as the demo declares `echo` (`runs_inline`), ' +
        '`pool` the same tool on the handler pool, as a handler that may block runs; `structured` the tool returning ' +
        'structuredContent against a declared outputSchema, which is validated on every call (`structured, unvalidated`: ' +
        'the same with --output-validation off, so the difference is what the check costs).');
    p();
    p('| registered tools | handler | text | calls/s | MB/s of text | p50 ms | p99 ms | CPU µs/call | peak RSS MB | server core | wrk core | others on the cores | failed |');
    p('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
    for (const r of growthCalls) {
        p(`| ${int(r.tools)} | ${r.handler ?? 'inline'} | ${size(r.text_bytes)} | ${range(r.calls_per_s, int)} | ${fix((med(r.calls_per_s) * r.text_bytes) / 1e6, 1)} | ` +
            `${ms(med(r.p50_us))} | ${range(r.p99_us, ms)} | ${fix(med(r.server_cpu_us_per_call), 1)} | ${mb(r.peak_rss_kb)} | ` +
            `${pct(med(r.server_core_busy))} | ${pct(med(r.load_core_busy))} | ${pct(med(r.others_on_server_core))} / ${pct(med(r.others_on_load_core))}` +
            `${r.runs_still_disturbed ? ` ⚠${r.runs_still_disturbed}` : ''} | ${r.failures + r.socket_errors} |`);
    }
    p();
    p('A full tools/list on one connection: the first page, then each nextCursor until the last page (the server\'s default ' +
        'page size); every page checked and the tools counted (bench/wrk/list2026.lua). Latency is per page.');
    p();
    p('| registered tools | pages | ms per listing | CPU ms per listing | page p50 ms | page p99 ms | peak RSS MB | server core | wrk core | others on the cores | failed |');
    p('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
    for (const r of growthLists) {
        p(`| ${int(r.tools)} | ${int(med(r.pages_per_ok))} | ${range(r.ms_per_ok, (x) => fix(x, x < 10 ? 2 : 1))} | ` +
            `${fix(med(r.server_cpu_us_per_call) / 1e3, 2)} | ${ms(med(r.p50_us))} | ${range(r.p99_us, ms)} | ${mb(r.peak_rss_kb)} | ` +
            `${pct(med(r.server_core_busy))} | ${pct(med(r.load_core_busy))} | ${pct(med(r.others_on_server_core))} / ${pct(med(r.others_on_load_core))}` +
            `${r.runs_still_disturbed ? ` ⚠${r.runs_still_disturbed}` : ''} | ${r.failures + r.socket_errors} |`);
    }
    p();
}

if (httpsPairs.length || httpsInstructions.http != null || httpsInstructions.https != null) {
    p('## HTTPS (mcp-cpp)');
    p();
    p('mcp-cpp-demo serving TLS itself (`--tls-cert`/`--tls-key`, an ECDSA P-256 certificate made for the run' +
        `${tlsSession ? `; ${tlsSession.replace(/^New, /, '')}` : ''}), and the same binary over plain HTTP, one after the other: ` +
        'the 2026-07-28 wire (bench/wrk/wire2026.lua), every reply checked. wrk keeps its connections open, so this is the ' +
        'cost of encrypting the requests and replies, not of handshakes. Columns as in the HTTP table.');
    p();
    p('| conns | HTTP calls/s | HTTPS calls/s | HTTPS ÷ HTTP | CPU µs/call HTTP | HTTPS | p99 ms HTTP | HTTPS | server core HTTP / HTTPS | wrk core HTTP / HTTPS | others on the cores HTTP; HTTPS | failed |');
    p('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
    const others = (r) => (r ? `${pct(med(r.others_on_server_core))} / ${pct(med(r.others_on_load_core))}${r.runs_still_disturbed ? ` ⚠${r.runs_still_disturbed}` : ''}` : '–');
    for (const { conns, plain, tls, ratio: x } of httpsPairs) {
        p(`| ${conns} | ${range(plain?.calls_per_s, int)} | ${range(tls?.calls_per_s, int)} | ${times(x)} | ` +
            `${fix(med(plain?.server_cpu_us_per_call), 1)} | ${fix(med(tls?.server_cpu_us_per_call), 1)} | ` +
            `${range(plain?.p99_us, ms)} | ${range(tls?.p99_us, ms)} | ${pct(med(plain?.server_core_busy))} / ${pct(med(tls?.server_core_busy))} | ` +
            `${pct(med(plain?.load_core_busy))} / ${pct(med(tls?.load_core_busy))} | ${others(plain)}; ${others(tls)} | ` +
            `${[plain, tls].reduce((a, r) => a + (r ? r.failures + r.socket_errors : 0), 0)} |`);
    }
    p();
    const { http: ih, https: is } = httpsInstructions;
    p(`Server instructions per call, counted by callgrind (user space only: the kernel's TCP path is not in them): ` +
        `${ih == null ? '–' : int(ih)} over HTTP, ${is == null ? '–' : int(is)} over HTTPS` +
        `${ih != null && is != null ? ` (${times(is / ih)}, +${int(is - ih)})` : ''}. One client sends ${meta.callgrind_http_calls ?? '?'} ` +
        'tools/call one after the other on one kept-alive connection to a fresh server, then twice as many; the difference ' +
        'is divided by the first count, so startup, the handshake and shutdown cancel out (bench/drivers/sequential.mjs). ' +
        'Unlike the throughputs, these do not depend on what else the machine does.');
    p();
}
if (interceptorKinds.length) {
    p('## Interceptors (mcp-cpp)');
    p();
    p('bench/server/growth_server.cpp with 10 tools: tools/call of `echo` (`runs_inline`, 100 bytes of text) on the ' +
        `2026-07-28 wire at ${meta.growth.conns} connections, with no interceptor, with one that only calls \`next()\` ` +
        '(`MCP_BENCH_INTERCEPTORS=1`), and with `--rate-limit 1000000000/s` (a token bucket per principal, never empty). ' +
        'Instructions per call: callgrind on stdio (a 2025-11-25 session), the difference between a run of ' +
        `${meta.callgrind_calls ?? '?'} calls and one of twice as many, divided by ${meta.callgrind_calls ?? '?'}: ` +
        'deterministic, unlike the throughput on a shared machine. With no interceptor and no principal the core only tests ' +
        'that there is none (`invoke`, src/server/dispatch.cpp).');
    p();
    p('| interceptors | calls/s | ÷ none | CPU µs/call | p99 ms | instructions per call | more than none | server core | wrk core | others on the cores | failed |');
    p('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
    const none = instructionsOf('none');
    for (const kind of interceptorKinds) {
        const r = interceptorRows.find((x) => x.interceptors === kind);
        const n = instructionsOf(kind);
        p(`| ${INTERCEPTOR_LABEL[kind]} | ${range(r?.calls_per_s, int)} | ${kind === 'none' ? '' : times(r?.ratio_to_none)} | ` +
            `${fix(med(r?.server_cpu_us_per_call), 1)} | ${range(r?.p99_us, ms)} | ${int(n)} | ` +
            `${kind === 'none' || n == null || none == null ? '' : `${n - none >= 0 ? '+' : ''}${int(n - none)} (${pct((n - none) / none)})`} | ` +
            `${pct(med(r?.server_core_busy))} | ${pct(med(r?.load_core_busy))} | ` +
            `${r ? `${pct(med(r.others_on_server_core))} / ${pct(med(r.others_on_load_core))}${r.runs_still_disturbed ? ` ⚠${r.runs_still_disturbed}` : ''}` : '–'} | ` +
            `${r ? r.failures + r.socket_errors : '–'} |`);
    }
    p();
}

const bad = [...rows, ...growthRows, ...httpsRows, ...interceptorRows].filter((r) => r.failures || r.socket_errors);
const badStdio = stdioRows.filter((r) => r.failures || r.error);
const badClient = clientRows.filter((r) => r.failures || r.error);
const badMemory = [...memoryRows, ...parked.map((r) => ({ ...r, kind: `parked ${r.n}/${r.sessions}, detached` })),
    ...burst.map((r) => ({ ...r, kind: 'burst' }))].filter((r) => r.failures);
// A suite that ran must have left records.
const empty = [
    ['http', samples], ['stdio', stdio], ['memory', [...memory, ...burst]], ['parked', parked], ['growth', growthSamples], ['https', httpsSamples],
    ['interceptors', interceptorSamples], ['client', clientRecords],
].filter(([suite, records]) => suitesRun.includes(suite) && records.length === 0).map(([suite]) => suite);
if (bad.length || badStdio.length || badClient.length || badMemory.length || events.length || empty.length) {
    p('## Failures');
    p();
    for (const r of bad) {
        const what = r.scheme ? `https suite, over ${r.scheme}` : r.interceptors ? `interceptors suite, ${r.interceptors}`
            : r.tools != null ? `growth, ${r.tools} tools, ${r.wire}${r.text_bytes ? ` (${size(r.text_bytes)})` : ''}`
                : `${TARGET_LABEL[r.target]}, ${WIRE_LABEL[r.wire]}`;
        p(`- ${what}, ${r.conns} connections: ${r.failures} wrong replies, ` +
            `${r.socket_errors} socket errors/timeouts/HTTP ≥ 400${r.first_failure ? `; first: \`${r.first_failure.slice(0, 400)}\`` : ''}`);
    }
    for (const r of badStdio) {
        p(`- stdio, ${STDIO_LABEL[r.target]}: ${r.failures} wrong replies${r.error ? `; ${r.error}` : ''}` +
            `${r.first_failure ? `; first: \`${r.first_failure.slice(0, 400)}\`` : ''}`);
    }
    for (const r of badClient) p(`- client, ${CLIENT_LABEL[r.target]} over ${r.transport}: ${r.failures} failed${r.error ? `; ${r.error}` : ''}`);
    for (const r of badMemory) {
        p(`- memory, ${TARGET_LABEL[r.target] ?? r.target}, ${r.kind}: ${r.failures} failed` +
            `${r.first_failure ? `; first: \`${r.first_failure.slice(0, 400)}\`` : ''}`);
    }
    for (const e of events) p(`- ${TARGET_LABEL[e.target] ?? e.target}${e.wire ? `, ${e.wire}` : ''}: ${e.what}`);
    for (const suite of empty) p(`- the ${suite} suite left no records`);
    p();
}

const md = out.join('\n') + '\n';
process.stdout.write(md);
writeFileSync(`${outBase}.md`, md);
writeFileSync(
    `${outBase}.json`,
    JSON.stringify({
        meta, rows, mcp_cpp_vs_peers: ratios, targets, events,
        suites: {
            http: suitesRun.includes('http'),
            stdio: suitesRun.includes('stdio') ? stdioRows : null,
            memory: suitesRun.includes('memory') ? memoryRows : null,
            memory_tasks_mcp_cpp_vs_peers: suitesRun.includes('memory') ? taskRatios : null,
            memory_burst: suitesRun.includes('memory') ? burst : null,
            parked: suitesRun.includes('parked') ? parked : null,
            growth: suitesRun.includes('growth') ? growthRows : null,
            https: suitesRun.includes('https') ? { tls: tlsSession, rows: httpsRows, instructions: httpsInstructions } : null,
            interceptors: suitesRun.includes('interceptors')
                ? { rows: interceptorRows, instructions: instructions.filter((r) => r.interceptors) } : null,
            client: suitesRun.includes('client') ? clientRows : null,
        },
        samples: allSamples, points: allPoints, stdio_records: stdio, client_records: clientRecords,
    }, null, 1) + '\n'
);
const failed = bad.length + badStdio.length + badClient.length + badMemory.length + events.length + empty.length > 0;
if (failed) console.error('bench: FAILED: wrong replies, errors or incidents (see above)');
process.exit(failed ? 1 : 0);
