// The stdio suite's driver: starts a server on a pipe, opens a 2025-11-25 session (initialize +
// notifications/initialized), then streams tools/call of `echo` with at most --window requests
// outstanding, checking every reply. After --warmup seconds, --reps measured phases of --seconds
// each; one BENCH_RESULT line per phase on stdout:
//   {"phase":0 (warm-up) | 1..reps, "calls", "ok", "failures", "duration_us", "server_cpu_s",
//    "driver_cpu_s", "cores":{server:[...], load:[...]} (/proc/stat before and after), "first_failure"}
//   node stdio.mjs [--raw] --seconds S --warmup S --reps N --window W --server-cpu C --load-cpu C -- CMD ARGS...
// --raw: CMD is `cat`: no handshake, and each "reply" is the request echoed back, checked the same
// way (id outstanding, text equal): what this driver can do at most.
// Environment: BENCH_TEXT, the echo text.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const opts = { raw: false, seconds: 2, warmup: 1, reps: 1, window: 256, serverCpu: 0, loadCpu: 1 };
const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
if (dash < 0 || dash === argv.length - 1) throw new Error('usage: stdio.mjs [options] -- CMD ARGS...');
for (let i = 0; i < dash; i++) {
    const a = argv[i];
    if (a === '--raw') opts.raw = true;
    else if (a === '--seconds') opts.seconds = Number(argv[++i]);
    else if (a === '--warmup') opts.warmup = Number(argv[++i]);
    else if (a === '--reps') opts.reps = Number(argv[++i]);
    else if (a === '--window') opts.window = Number(argv[++i]);
    else if (a === '--server-cpu') opts.serverCpu = Number(argv[++i]);
    else if (a === '--load-cpu') opts.loadCpu = Number(argv[++i]);
    else throw new Error(`unknown option ${a}`);
}
const TEXT = process.env.BENCH_TEXT;
if (!TEXT || /["\\\u0000-\u001f]/.test(TEXT)) throw new Error('BENCH_TEXT must be set and need no JSON escaping');
const STALL_MS = 30_000; // no reply for this long: the server is stuck

const [cmd, ...args] = argv.slice(dash + 1);
const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
let exited = null;
child.on('exit', (code, signal) => {
    exited = `the server exited (${signal ?? code})`;
    wake();
});
child.stdin.on('error', () => {}); // EPIPE when the server dies: reported through `exited`

// /proc readings: the server's utime+stime (all its threads), and one CPU's line of /proc/stat.
const CLK_TCK = 100; // USER_HZ: /proc reports ticks of 1/100 s on Linux
function serverCpuS() {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
}
function coreTicks(cpu) { // [tasks (user+nice+system), irq+softirq, steal, total], like bench/run.sh
    const line = readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith(`cpu${cpu} `));
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const tasks = v[0] + v[1] + v[2], irq = v[5] + v[6], steal = v[7];
    return [tasks, irq, steal, tasks + irq + steal + v[3] + v[4]].map((t) => t / CLK_TCK);
}

// Replies, split into lines; each goes to `onLine`.
let onLine = () => {};
let waiter = null;
function wake() {
    const w = waiter;
    waiter = null;
    w?.();
}
let pending = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
    pending += chunk;
    let start = 0, nl;
    while ((nl = pending.indexOf('\n', start)) >= 0) {
        onLine(pending.slice(start, nl));
        start = nl + 1;
    }
    pending = pending.slice(start);
    wake();
});
// Resolves on the next reply chunk or exit; rejects when nothing arrives for STALL_MS.
function nextEvent() {
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no reply for ${STALL_MS / 1000} s`)), STALL_MS);
        waiter = () => {
            clearTimeout(timer);
            resolve();
        };
    });
}

async function handshake() {
    let reply;
    onLine = (line) => {
        reply ??= line;
    };
    child.stdin.write('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",' +
        '"capabilities":{},"clientInfo":{"name":"mcp-cpp-bench","version":"1.0.0"}}}\n');
    while (reply === undefined && !exited) await nextEvent();
    if (exited) throw new Error(exited);
    const m = JSON.parse(reply);
    if (m.id !== 0 || m.result?.protocolVersion !== '2025-11-25') throw new Error(`initialize: ${reply.slice(0, 300)}`);
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
}

const REQ_HEAD = '{"jsonrpc":"2.0","id":';
const REQ_TAIL = `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${TEXT}"}}}\n`;
let nextId = 1;

// One phase: requests go out while `seconds` last, then the outstanding ones are awaited.
async function phase(n, seconds) {
    const outstanding = new Set();
    const r = { phase: n, calls: 0, ok: 0, failures: 0, first_failure: '' };
    const fail = (what) => {
        r.failures++;
        if (!r.first_failure) r.first_failure = what.slice(0, 400);
    };
    onLine = (line) => {
        let m;
        try {
            m = JSON.parse(line);
        } catch {
            return fail(`not JSON: ${line}`);
        }
        if (!outstanding.delete(m.id)) return fail(`not an outstanding id: ${line}`);
        r.calls++;
        const good = opts.raw
            ? m.method === 'tools/call' && m.params?.arguments?.text === TEXT
            : m.jsonrpc === '2.0' && m.result?.content?.length === 1 && m.result.content[0].type === 'text' &&
              m.result.content[0].text === TEXT && !m.result.isError;
        if (good) r.ok++;
        else fail(`wrong reply: ${line}`);
    };
    const cpu0 = serverCpuS(), own0 = process.cpuUsage(), s0 = coreTicks(opts.serverCpu), l0 = coreTicks(opts.loadCpu);
    const t0 = process.hrtime.bigint();
    const end = t0 + BigInt(Math.round(seconds * 1e9));
    for (;;) {
        if (exited) throw new Error(exited);
        if (process.hrtime.bigint() < end) {
            let batch = '';
            while (outstanding.size < opts.window) {
                const id = nextId++;
                outstanding.add(id);
                batch += REQ_HEAD + id + REQ_TAIL;
            }
            if (batch) child.stdin.write(batch);
        } else if (outstanding.size === 0) {
            break;
        }
        await nextEvent();
    }
    const t1 = process.hrtime.bigint();
    const own = process.cpuUsage(own0);
    const cpu1 = serverCpuS(), s1 = coreTicks(opts.serverCpu), l1 = coreTicks(opts.loadCpu);
    const diff = (a, b) => b.map((x, i) => x - a[i]);
    Object.assign(r, {
        duration_us: Number(t1 - t0) / 1e3,
        server_cpu_s: cpu1 - cpu0,
        driver_cpu_s: (own.user + own.system) / 1e6,
        cores: { server: diff(s0, s1), load: diff(l0, l1) },
    });
    console.log(`BENCH_RESULT ${JSON.stringify(r)}`);
    return r;
}

let rc = 0;
try {
    if (!opts.raw) await handshake();
    for (let i = 0; i <= opts.reps; i++) {
        if ((await phase(i, i ? opts.seconds : opts.warmup)).failures) rc = 1;
    }
} catch (e) {
    console.log(`BENCH_RESULT ${JSON.stringify({ error: String(e.message ?? e).slice(0, 400) })}`);
    rc = 1;
}
// Close stdin: a stdio server exits at its end. Bounded: then SIGTERM, then SIGKILL.
child.stdin.end();
const gone = (ms) => new Promise((resolve) => {
    if (exited) return resolve(true);
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
        clearTimeout(t);
        resolve(true);
    });
});
if (!(await gone(5000))) {
    child.kill('SIGTERM');
    if (!(await gone(5000))) child.kill('SIGKILL');
}
process.exit(rc);
