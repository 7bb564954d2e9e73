// The memory suite's driver: what a server's VmRSS grows by while it holds N idle 2025-11-25
// sessions, or N tool calls parked in an elicitation nobody answers. Raw HTTP (node:http), every
// reply checked; prints one BENCH_RESULT line.
//   node memory.mjs --url URL --pid PID --sessions N
//       N sessions opened (initialize + notifications/initialized, 32 at a time), then ended (DELETE)
//   node memory.mjs --url URL --pid PID --parked N
//       one session whose client can answer forms; N tools/call of the demo's delete_note at once,
//       each an open SSE stream that must carry an elicitation/create; then the N streams closed
// VmRSS and the thread count are read before, while open (after --settle-ms) and after the close.
import http from 'node:http';
import { VERSION, eachAtOnce, openSession, procStatus, request } from './session_http.mjs';

const opts = { url: '', pid: 0, sessions: 0, parked: 0, settleMs: 1000 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--url') opts.url = argv[++i];
    else if (a === '--pid') opts.pid = Number(argv[++i]);
    else if (a === '--sessions') opts.sessions = Number(argv[++i]);
    else if (a === '--parked') opts.parked = Number(argv[++i]);
    else if (a === '--settle-ms') opts.settleMs = Number(argv[++i]);
    else throw new Error(`unknown option ${a}`);
}
const N = opts.sessions || opts.parked;
if (!opts.url || !opts.pid || !(N > 0 && N <= 100_000) || (opts.sessions && opts.parked)) {
    throw new Error('usage: memory.mjs --url URL --pid PID (--sessions N | --parked N)');
}
const CONCURRENCY = 32;
const agent = new http.Agent({ keepAlive: true, maxSockets: opts.parked ? N + 8 : CONCURRENCY });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));


const result = { kind: opts.sessions ? 'sessions' : 'parked', n: N, ok: 0, failures: 0, first_failure: '' };
function fail(what) {
    result.failures++;
    if (!result.first_failure) result.first_failure = String(what).slice(0, 400);
}

const send = (method, body, headers, options) => request(opts.url, agent, method, body, headers, options);
const status = () => procStatus(opts.pid);

async function endSession(h) {
    const r = await send('DELETE', undefined, h);
    if (r.status < 200 || r.status > 299) throw new Error(`DELETE: ${r.status} ${r.body.slice(0, 300)}`);
}

async function sessions() {
    const opened = [];
    await eachAtOnce(fail, N, CONCURRENCY, async () => {
        opened.push(await openSession(opts.url, agent, {}));
        result.ok++;
    });
    if (new Set(opened.map((h) => h['mcp-session-id'])).size !== opened.length) fail('a session id was given twice');
    return async () => eachAtOnce(fail, opened.length, CONCURRENCY, (i) => endSession(opened[i]));
}

async function parked() {
    const h = await openSession(opts.url, agent, { elicitation: {} });
    const streams = [];
    await Promise.all(Array.from({ length: N }, async (_, i) => {
        const call = { jsonrpc: '2.0', id: `p${i}`, method: 'tools/call', params: { name: 'delete_note', arguments: { slug: 'welcome' } } };
        try {
            const r = await send('POST', JSON.stringify(call), h, { until: (body) => body.includes('"method":"elicitation/create"'), timeoutMs: 60_000 });
            streams.push(r.req);
            if (r.status === 200 && r.headers['content-type']?.startsWith('text/event-stream') && r.body.includes('"method":"elicitation/create"')) {
                result.ok++;
            } else {
                fail(`tools/call ${call.id}: ${r.status} ${r.body.slice(0, 300)}`);
            }
        } catch (e) {
            fail(e.message ?? e);
        }
    }));
    return async () => {
        for (const req of streams) req.destroy();
        await endSession(h);
    };
}

try {
    await sleep(opts.settleMs);
    const before = status();
    const t0 = Date.now();
    const close = opts.sessions ? await sessions() : await parked();
    result.open_ms = Date.now() - t0;
    await sleep(opts.settleMs);
    const open = status();
    await close();
    await sleep(opts.settleMs);
    const after = status();
    Object.assign(result, {
        rss_before_kb: before.rss_kb, rss_open_kb: open.rss_kb, rss_closed_kb: after.rss_kb,
        threads_before: before.threads, threads_open: open.threads, threads_closed: after.threads,
    });
} catch (e) {
    fail(e.message ?? e);
}
agent.destroy();
console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
process.exit(result.failures ? 1 : 0);
