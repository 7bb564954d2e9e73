// The memory suite's tasks driver: what N tool calls running as tasks at once cost a server, on the
// 2025-11-25 wire (the experimental tasks of that revision). Raw HTTP (node:http), every reply
// checked; prints one BENCH_RESULT line.
//   node tasks.mjs --url URL --pid PID --n N [--step-ms S] [--settle-ms MS] [--poll-ms MS] [--timeout-ms MS]
// - One session; N tools/call of export_notes {step_ms: S} with params.task, 32 at a time. Each must
//   answer {task} with a fresh taskId and the status working. create_ms: from the first request
//   sent to the last answer.
// - VmRSS and threads before, once all are created (after --settle-ms), and once all have ended
//   (again after --settle-ms); the most threads and VmRSS seen meanwhile (read every 50 ms).
//   working_at_reading: how many of the tasks were still working at the second reading.
// - Then every page of tasks/list, every --poll-ms, until each task is completed, for at most
//   --timeout-ms: a task failed, cancelled, missing or still running then counts as a failure.
//   drain_ms: from the first create sent to the latest lastUpdatedAt of a task (the server's wall
//   clock, on this machine); observed_drain_ms: to the end of the listing that saw them all done.
// - Last, tasks/result of each task, 32 at a time: it must be "Exported 2 notes: shopping, welcome",
//   not an error. `ok` counts the tasks created, completed and with that result.
import http from 'node:http';
import { eachAtOnce, openSession, procStatus, request, rpcResult } from './session_http.mjs';

const opts = { url: '', pid: 0, n: 0, stepMs: 1000, settleMs: 1000, pollMs: 250, timeoutMs: 120_000 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--url') opts.url = argv[++i];
    else if (a === '--pid') opts.pid = Number(argv[++i]);
    else if (a === '--n') opts.n = Number(argv[++i]);
    else if (a === '--step-ms') opts.stepMs = Number(argv[++i]);
    else if (a === '--settle-ms') opts.settleMs = Number(argv[++i]);
    else if (a === '--poll-ms') opts.pollMs = Number(argv[++i]);
    else if (a === '--timeout-ms') opts.timeoutMs = Number(argv[++i]);
    else throw new Error(`unknown option ${a}`);
}
const N = opts.n;
if (!opts.url || !opts.pid || !(N > 0 && N <= 100_000) || !(opts.stepMs >= 0 && opts.stepMs <= 60_000) ||
    !(opts.pollMs >= 10) || !(opts.timeoutMs > 0 && opts.timeoutMs <= 3_600_000)) {
    throw new Error('usage: tasks.mjs --url URL --pid PID --n N [--step-ms S] [--settle-ms MS] [--poll-ms MS] [--timeout-ms MS]');
}
const CONCURRENCY = 32;
const EXPECTED = 'Exported 2 notes: shopping, welcome';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const result = { kind: 'tasks', n: N, step_ms: opts.stepMs, ok: 0, failures: 0, first_failure: '', created: 0, completed: 0 };
function fail(what) {
    result.failures++;
    if (!result.first_failure) result.first_failure = String(what).slice(0, 400);
}

let h = {}; // the session's headers
let rpcId = 0;
async function call(method, params, what) {
    const id = `${method}:${++rpcId}`;
    const r = await request(opts.url, agent, 'POST', JSON.stringify({ jsonrpc: '2.0', id, method, params }), h, { timeoutMs: 60_000 });
    return rpcResult(r, id, what);
}

// The server's VmRSS and threads, and the most of each seen since the start.
const peak = { rss_kb: 0, threads: 0 };
function status() {
    const s = procStatus(opts.pid);
    peak.rss_kb = Math.max(peak.rss_kb, s.rss_kb);
    peak.threads = Math.max(peak.threads, s.threads);
    return s;
}

const tasks = new Map(); // task id -> { status, updated (ms since the epoch) }
async function create(i) {
    const r = await call('tools/call', { name: 'export_notes', arguments: { step_ms: opts.stepMs }, task: {} }, `create ${i}`);
    const t = r?.task;
    if (typeof t?.taskId !== 'string' || !t.taskId) throw new Error(`create ${i}: no task in ${JSON.stringify(r).slice(0, 300)}`);
    if (t.status !== 'working') throw new Error(`create ${i}: status ${t.status}`);
    if (tasks.has(t.taskId)) throw new Error(`create ${i}: task id ${t.taskId} given twice`);
    tasks.set(t.taskId, { status: t.status, updated: Date.parse(t.lastUpdatedAt) });
    result.created++;
}

// Every page of tasks/list; updates what is known of this driver's tasks. Returns the page count.
async function listAll() {
    let cursor;
    let pages = 0;
    do {
        if (++pages > N + 10) throw new Error('tasks/list: more pages than tasks');
        const r = await call('tasks/list', cursor ? { cursor } : {}, `tasks/list page ${pages}`);
        if (!Array.isArray(r?.tasks)) throw new Error(`tasks/list: no tasks array in ${JSON.stringify(r).slice(0, 300)}`);
        for (const t of r.tasks) {
            const mine = tasks.get(t.taskId);
            if (mine) Object.assign(mine, { status: t.status, updated: Date.parse(t.lastUpdatedAt), seen: true });
        }
        cursor = r.nextCursor;
    } while (cursor);
    return pages;
}
const count = (pred) => [...tasks.values()].filter(pred).length;

const sampler = setInterval(() => {
    try {
        status();
    } catch {
        // the server is gone: the next reading says so
    }
}, 50);
try {
    await sleep(opts.settleMs);
    h = await openSession(opts.url, agent, {});
    const before = status();
    const t0 = Date.now();
    await eachAtOnce(fail, N, CONCURRENCY, create);
    result.create_ms = Date.now() - t0;
    await sleep(opts.settleMs);
    const open = status();
    // Wait for the end: every page of tasks/list, every pollMs, bounded.
    const deadline = t0 + opts.timeoutMs;
    let polls = 0;
    for (;;) {
        for (const t of tasks.values()) t.seen = false;
        result.pages_per_listing = await listAll();
        if (++polls === 1) result.working_at_reading = count((t) => t.status === 'working');
        if (count((t) => TERMINAL.has(t.status)) === tasks.size || Date.now() > deadline) break;
        await sleep(opts.pollMs);
    }
    result.observed_drain_ms = Date.now() - t0;
    result.polls = polls;
    result.completed = count((t) => t.status === 'completed');
    const unseen = count((t) => !t.seen);
    const bad = [...tasks.entries()].filter(([, t]) => t.status !== 'completed');
    if (unseen) fail(`${unseen} tasks missing from tasks/list`);
    for (const [id, t] of bad) fail(`task ${id}: ${t.status}${TERMINAL.has(t.status) ? '' : ` after ${opts.timeoutMs} ms`}`);
    const ends = [...tasks.values()].filter((t) => t.status === 'completed').map((t) => t.updated);
    result.drain_ms = ends.length ? Math.max(...ends) - t0 : null;
    await sleep(opts.settleMs);
    const after = status();
    Object.assign(result, {
        rss_before_kb: before.rss_kb, rss_open_kb: open.rss_kb, rss_closed_kb: after.rss_kb,
        threads_before: before.threads, threads_open: open.threads, threads_closed: after.threads,
        rss_peak_kb: peak.rss_kb, threads_peak: peak.threads,
    });
    // Each completed task's result, checked.
    const done = [...tasks.entries()].filter(([, t]) => t.status === 'completed').map(([id]) => id);
    await eachAtOnce(fail, done.length, CONCURRENCY, async (i) => {
        const r = await call('tasks/result', { taskId: done[i] }, `tasks/result ${done[i]}`);
        const text = r?.content?.[0]?.text;
        if (r?.isError || text !== EXPECTED) throw new Error(`tasks/result ${done[i]}: ${JSON.stringify(r).slice(0, 300)}`);
        result.ok++;
    });
    const del = await request(opts.url, agent, 'DELETE', undefined, h);
    if (del.status < 200 || del.status > 299) fail(`DELETE: ${del.status} ${del.body.slice(0, 300)}`);
} catch (e) {
    fail(e.message ?? e);
}
clearInterval(sampler);
agent.destroy();
console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
process.exit(result.failures ? 1 : 0);
