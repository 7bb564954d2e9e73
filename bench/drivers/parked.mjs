// The memory suite's parked-call driver: N tools/call of an eliciting tool (delete_note) parked in
// an elicitation nobody answers yet, on the 2025-11-25 wire; what they cost and what they do to
// everyone else. Raw HTTP (node:http), every reply checked; prints one BENCH_RESULT line.
//   node parked.mjs --url URL --pid PID --n N [--detached] [--sessions S] [--settle-ms MS]
// - N calls over S sessions (N / S each), 64 in flight; a call counts as parked when its SSE
//   stream carried the elicitation/create. --detached: the client hangs up right then (the call
//   waits with no connection), else every stream stays open.
// - VmRSS and threads before and once parked (after --settle-ms): RSS per parked call.
// - While they wait: 2000 tools/call of echo (after 2000 unmeasured) one after another on a session of their own: p50, p99.
// - Then one parked session (N / S calls) is deleted while echo calls keep going on another
//   connection: the longest echo round trip around the DELETE is its stall; the longest over as
//   long a window before it, with nothing else going on, is the driver's own noise (quiet_max_ms).
import http from 'node:http';
import { openSession, procStatus, request } from './session_http.mjs';

const opts = { url: '', pid: 0, n: 0, detached: false, sessions: 1, settleMs: 2000 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--url') opts.url = argv[++i];
    else if (a === '--pid') opts.pid = Number(argv[++i]);
    else if (a === '--n') opts.n = Number(argv[++i]);
    else if (a === '--detached') opts.detached = true;
    else if (a === '--sessions') opts.sessions = Number(argv[++i]);
    else if (a === '--settle-ms') opts.settleMs = Number(argv[++i]);
    else throw new Error(`unknown option ${a}`);
}
if (!opts.url || !opts.pid || !(opts.n > 0 && opts.n <= 1_000_000) || !(opts.sessions >= 1 && opts.n % opts.sessions === 0)) {
    throw new Error('usage: parked.mjs --url URL --pid PID --n N [--detached] [--sessions S dividing N] [--settle-ms MS]');
}
const IN_FLIGHT = 64;
const ECHOES = 2000;
const agent = new http.Agent({ keepAlive: true, maxSockets: opts.detached ? IN_FLIGHT + 8 : opts.n + 16 });
const echoAgent = new http.Agent({ keepAlive: true, maxSockets: 2 });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));


const result = { kind: opts.detached ? 'parked-detached' : 'parked', n: opts.n, sessions: opts.sessions, ok: 0, failures: 0, first_failure: '' };
function fail(what) {
    result.failures++;
    if (!result.first_failure) result.first_failure = String(what).slice(0, 400);
}

const send = (method, body, headers = {}, { via = agent, ...options } = {}) =>
    request(opts.url, via, method, body, headers, { timeoutMs: 60_000, ...options });
const status = () => procStatus(opts.pid);

let echoId = 0;
async function echo(h) {
    const id = ++echoId;
    const text = `echo ${id}`;
    const t0 = process.hrtime.bigint();
    const r = await send('POST', JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } }),
        h, { via: echoAgent, timeoutMs: 10_000 });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 200 || !r.body.includes(`"text":"${text}"`)) throw new Error(`echo: ${r.status} ${r.body.slice(0, 200)}`);
    return ms;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function park(sessions) {
    let next = 0;
    const open = [];
    const worker = async () => {
        while (next < opts.n) {
            const i = next++;
            const h = sessions[i % sessions.length];
            const call = { jsonrpc: '2.0', id: `p${i}`, method: 'tools/call', params: { name: 'delete_note', arguments: { slug: 'welcome' } } };
            try {
                const r = await send('POST', JSON.stringify(call), h, { until: (body) => body.includes('"method":"elicitation/create"') });
                if (r.status === 200 && r.body.includes('"method":"elicitation/create"')) result.ok++;
                else fail(`tools/call ${call.id}: ${r.status} ${r.body.slice(0, 300)}`);
                if (opts.detached) r.req.destroy();
                else open.push(r.req);
            } catch (e) {
                fail(e.message ?? e);
            }
        }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    return open;
}

try {
    const sessions = [];
    for (let s = 0; s < opts.sessions; s++) sessions.push(await openSession(opts.url, agent, { elicitation: {} }));
    const bystander = await openSession(opts.url, echoAgent, {});
    await echo(bystander);
    await sleep(opts.settleMs);
    const before = status();
    const t0 = Date.now();
    const open = await park(sessions);
    result.fill_ms = Date.now() - t0;
    await sleep(opts.settleMs);
    const parked = status();
    Object.assign(result, {
        rss_before_kb: before.rss_kb, rss_parked_kb: parked.rss_kb,
        rss_per_parked_kb: Math.round(((parked.rss_kb - before.rss_kb) / opts.n) * 100) / 100,
        threads_before: before.threads, threads_parked: parked.threads,
    });

    for (let i = 0; i < ECHOES; i++) await echo(bystander); // the driver's own warm-up (JIT)
    const latencies = [];
    for (let i = 0; i < ECHOES; i++) latencies.push(await echo(bystander));
    latencies.sort((a, b) => a - b);
    result.echo_p50_ms = Math.round(quantile(latencies, 0.5) * 100) / 100;
    result.echo_p99_ms = Math.round(quantile(latencies, 0.99) * 100) / 100;

    // The slowest echo over 1.2 s with nothing else going on: what the instrument itself shows.
    const quiet = [];
    for (const end = Date.now() + 1200; Date.now() < end;) quiet.push(await echo(bystander));
    result.quiet_max_ms = Math.round(Math.max(...quiet) * 100) / 100;

    // DELETE of the first session while echoes keep going, over as long a window.
    let deleting = true;
    const around = [];
    const loop = (async () => {
        while (deleting) around.push(await echo(bystander));
    })();
    await sleep(200);
    const d0 = Date.now();
    const del = await send('DELETE', undefined, sessions[0]);
    result.delete_ms = Date.now() - d0;
    if (del.status !== 200) fail(`DELETE: ${del.status} ${del.body.slice(0, 200)}`);
    result.delete_parked = opts.n / opts.sessions;
    await sleep(1000);
    deleting = false;
    await loop;
    result.delete_stall_ms = Math.round(Math.max(...around) * 100) / 100;
    for (const req of open) req.destroy();
} catch (e) {
    fail(e.message ?? e);
}
agent.destroy();
echoAgent.destroy();
console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
process.exit(result.failures ? 1 : 0);
