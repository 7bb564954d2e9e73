// The memory suite's burst driver: does memory go back after a burst? Each cycle parks N
// tools/call of an eliciting tool (delete_note) in elicitations nobody answers, over S sessions
// whose clients hung up (the 2025-11-25 wire), then DELETEs every one of those sessions and reads
// the server's VmRSS every 500 ms for --after-s seconds. Raw HTTP (node:http), every reply checked;
// prints one BENCH_RESULT line.
//   node burst.mjs --url URL --pid PID --n N --sessions S --cycles C [--after-s SECONDS]
// Reported: VmRSS idle (before the first cycle), at each cycle's peak (all parked), and
// --after-s seconds after each cycle's last DELETE; the target is the last of those at
// most 2x idle + 20 MiB, and no growth from cycle to cycle.
import http from 'node:http';
import { openSession, procStatus, request } from './session_http.mjs';

const opts = { url: '', pid: 0, n: 0, sessions: 1, cycles: 1, afterS: 10 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--url') opts.url = argv[++i];
    else if (a === '--pid') opts.pid = Number(argv[++i]);
    else if (a === '--n') opts.n = Number(argv[++i]);
    else if (a === '--sessions') opts.sessions = Number(argv[++i]);
    else if (a === '--cycles') opts.cycles = Number(argv[++i]);
    else if (a === '--after-s') opts.afterS = Number(argv[++i]);
    else throw new Error(`unknown option ${a}`);
}
if (!opts.url || !opts.pid || !(opts.n > 0 && opts.n <= 1_000_000) || !(opts.sessions >= 1 && opts.n % opts.sessions === 0) ||
    !(opts.cycles >= 1 && opts.cycles <= 100) || !(opts.afterS > 0 && opts.afterS <= 120)) {
    throw new Error('usage: burst.mjs --url URL --pid PID --n N --sessions S (dividing N) --cycles C (1-100) [--after-s 1-120]');
}
const IN_FLIGHT = 64;
const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT + 8 });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mib = (kb) => Math.round((kb / 1024) * 10) / 10;

const result = { kind: 'burst', n: opts.n, sessions: opts.sessions, cycles: opts.cycles, after_s: opts.afterS, ok: 0, failures: 0, first_failure: '' };
function fail(what) {
    result.failures++;
    if (!result.first_failure) result.first_failure = String(what).slice(0, 400);
}
const send = (method, body, headers = {}, options = {}) => request(opts.url, agent, method, body, headers, { timeoutMs: 60_000, ...options });

// N calls over the sessions, 64 at a time; each hangs up once its elicitation/create arrived.
async function park(sessions) {
    let next = 0;
    const worker = async () => {
        while (next < opts.n) {
            const i = next++;
            const call = { jsonrpc: '2.0', id: `p${i}`, method: 'tools/call', params: { name: 'delete_note', arguments: { slug: 'welcome' } } };
            try {
                const r = await send('POST', JSON.stringify(call), sessions[i % sessions.length], { until: (body) => body.includes('"method":"elicitation/create"') });
                if (r.status === 200 && r.body.includes('"method":"elicitation/create"')) result.ok++;
                else fail(`tools/call ${call.id}: ${r.status} ${r.body.slice(0, 300)}`);
                r.req.destroy();
            } catch (e) {
                fail(e.message ?? e);
            }
        }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

try {
    await sleep(1000);
    result.idle_mib = mib(procStatus(opts.pid).rss_kb);
    result.peak_mib = [];
    result.after_mib = [];
    for (let c = 0; c < opts.cycles; c++) {
        const sessions = [];
        for (let s = 0; s < opts.sessions; s++) sessions.push(await openSession(opts.url, agent, { elicitation: {} }));
        await park(sessions);
        result.peak_mib.push(mib(procStatus(opts.pid).rss_kb));
        for (const h of sessions) {
            const del = await send('DELETE', undefined, h);
            if (del.status !== 200) fail(`DELETE: ${del.status} ${del.body.slice(0, 200)}`);
        }
        let last = 0;
        for (let t = 0; t < opts.afterS * 2; t++) {
            await sleep(500);
            last = procStatus(opts.pid).rss_kb;
        }
        result.after_mib.push(mib(last));
    }
    result.target_mib = Math.round((2 * result.idle_mib + 20) * 10) / 10;
} catch (e) {
    fail(e.message ?? e);
}
agent.destroy();
console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
process.exit(result.failures ? 1 : 0);
