// What the store costs a reused 2025 session's tools/call (issue 25, item 6): one demo node with
// the memory store, with --store redis:// (one redis-server) and with --store redis-cluster://
// (three masters and three replicas), each driven by the same echo calls, `concurrency` sessions
// calling at once, every reply checked. Per target: calls/s, the node's CPU per call (utime and
// stime from /proc), Redis commands per call (total_commands_processed of every server: a script
// counts once) and round trips per call (the node's mcp_store_command_duration_seconds count: a
// pipeline counts once, on a cluster too, where its commands go to their masters in parallel).
// The figures include the background work of the run: the cluster's slot map read once a second.
// Prints a Markdown table.
//   node bench/drivers/store_cost.mjs --demo build/examples/demo/mcp-cpp-demo [--calls 5000] [--concurrency 16]
// Needs Debian's redis-server and redis-tools. Not a test: no time is asserted.
import { readFileSync } from 'node:fs';

import { newSecret, RedisServer, RoundRobinSession, startNodes } from '../../tests/e2e/cluster.mjs';
import { freePort } from '../../tests/e2e/helpers.mjs';
import { RedisClusterGroup } from '../../tests/e2e/redis_cluster.mjs';

const opts = { demo: '', calls: 5000, concurrency: 16, sessions: 1000, parked: 200, tasks: 200 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in opts) || i + 1 >= argv.length) throw new Error(`unknown or incomplete option ${argv[i]}`);
    opts[key] = key === 'demo' ? argv[++i] : Number(argv[++i]);
}
if (!opts.demo || !(opts.calls >= 100 && opts.calls <= 1_000_000) || !(opts.concurrency >= 1 && opts.concurrency <= 256)
    || !(opts.sessions >= opts.concurrency && opts.sessions <= 100_000) || !(opts.parked >= 1 && opts.parked <= 10_000)
    || !(opts.tasks >= 1 && opts.tasks <= 10_000)) {
    throw new Error('usage: store_cost.mjs --demo PATH [--calls 100..1000000] [--concurrency 1..256] [--sessions N] '
        + '[--parked N] [--tasks N]');
}

const TICKS_PER_SECOND = 100;  // USER_HZ on Linux

function cpuSeconds(pid) {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;  // utime, stime
}

// Over the masters: commands run (those a script calls count too), Redis CPU seconds and memory.
async function redisState(servers) {
    const out = { commands: 0, cpu: 0, memory: 0 };
    for (const s of servers) {
        const info = await s.command('INFO', 'all');
        if (!/role:master/.test(info)) continue;
        out.commands += Number(/total_commands_processed:(\d+)/.exec(info)[1]);
        out.cpu += Number(/used_cpu_sys:([\d.]+)/.exec(info)[1]) + Number(/used_cpu_user:([\d.]+)/.exec(info)[1]);
        out.memory += Number(/used_memory:(\d+)/.exec(info)[1]);
    }
    return out;
}

async function roundTrips(metricsUrl) {
    const text = await (await fetch(metricsUrl)).text();
    return Number(/^mcp_store_command_duration_seconds_count(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 0);
}

// `n` echo calls spread over `sessions`, each session calling one after the other.
async function calls(sessions, n) {
    let next = 0;
    await Promise.all(sessions.map(async (s) => {
        while (next < n) {
            const i = next++;
            const text = `cost ${i}`;
            const r = await s.request('tools/call', { name: 'echo', arguments: { text } });
            if (r.status !== 200 || r.message?.result?.content?.[0]?.text !== text) throw new Error(`call ${i}: ${r.status} ${r.text.slice(0, 200)}`);
        }
    }));
}

// Runs `work` and returns what it cost per unit: node CPU, Redis commands, round trips, Redis CPU
// and memory (bytes still held afterwards).
async function cost(node, metricsUrl, servers, units, work) {
    const snapshot = async () => ({ cpu: cpuSeconds(node.child.pid), redis: await redisState(servers),
        trips: servers.length ? await roundTrips(metricsUrl) : 0 });
    const before = await snapshot();
    const started = performance.now();
    await work();
    const seconds = (performance.now() - started) / 1000;
    const after = await snapshot();
    return {
        perSecond: units / seconds,
        cpuMicros: ((after.cpu - before.cpu) * 1e6) / units,
        commands: (after.redis.commands - before.redis.commands) / units,
        trips: (after.trips - before.trips) / units,
        redisMicros: ((after.redis.cpu - before.redis.cpu) * 1e6) / units,
        bytes: (after.redis.memory - before.redis.memory) / units,
    };
}

async function measure(name, store, servers) {
    const metricsPort = await freePort();
    const cluster = await startNodes(1, { store, secret: newSecret(), binary: opts.demo,
        args: ['--metrics', `127.0.0.1:${metricsPort}`, '--max-sessions', '100000', '--max-sessions-per-client', '100000'] });
    const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
    const open = [];
    try {
        const [node] = cluster.nodes;
        const session = (capabilities = {}) => {
            const s = new RoundRobinSession([node], { clientName: 'store-cost', capabilities });
            open.push(s);
            return s;
        };
        const out = { name };
        // Sessions: initialize and the initialized notification.
        const made = [];
        out.session = await cost(node, metrics, servers, opts.sessions, async () => {
            for (let i = 0; i < opts.sessions; ++i) {
                const s = session();
                await s.initialize();
                made.push(s);
            }
        });
        const callers = made.slice(0, opts.concurrency);
        await calls(callers, Math.min(1000, opts.calls));  // warm-up
        out.call = await cost(node, metrics, servers, opts.calls, () => calls(callers, opts.calls));
        // Parked calls: delete_note waiting for its elicitation, the question received.
        const asker = session({ elicitation: { form: {} } });
        await asker.initialize();
        const parked = [];
        out.parked = await cost(node, metrics, servers, opts.parked, async () => {
            for (let i = 0; i < opts.parked; ++i) {
                const call = await asker.stream('tools/call', { name: 'delete_note', arguments: { slug: 'welcome' } });
                await call.reader.next((m) => m.method === 'elicitation/create', 5000, 'the elicitation');
                parked.push(call);
            }
        });
        for (const call of parked) call.abort();
        // Tasks: export_notes run as a task, created and finished (its record kept for its time to live).
        const tasker = session({ extensions: { 'io.modelcontextprotocol/tasks': {} } });
        await tasker.initialize();
        out.task = await cost(node, metrics, servers, opts.tasks, async () => {
            const ids = [];
            for (let i = 0; i < opts.tasks; ++i) {
                const r = await tasker.request('tools/call', { name: 'export_notes', arguments: { step_ms: 1 }, task: { ttl: 600_000 } });
                const id = r.message?.result?.task?.taskId;
                if (!id) throw new Error(`task ${i}: ${r.status} ${r.text.slice(0, 200)}`);
                ids.push(id);
            }
            for (const id of ids) {
                for (let tries = 0; ; ++tries) {
                    const got = await tasker.request('tasks/get', { taskId: id });
                    if (got.message?.result?.status === 'completed') break;
                    if (tries > 200) throw new Error(`task ${id} did not complete: ${got.text.slice(0, 200)}`);
                    await new Promise((resolve) => setTimeout(resolve, 10));
                }
            }
        });
        return out;
    } finally {
        for (const s of open) s.close();
        await cluster.close();
    }
}

const rows = [];
rows.push(await measure('memory', undefined, []));
const redis = await RedisServer.start();
try {
    rows.push(await measure('redis', redis.url, [redis]));
} finally {
    await redis.close();
}
const group = await RedisClusterGroup.start();
try {
    rows.push(await measure('redis-cluster', group.url(), group.servers));
} finally {
    await group.close();
}

const fmt = (x, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
console.log('| store | what | per second | node CPU µs | Redis commands | round trips | Redis CPU µs | Redis bytes held |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
    for (const [what, c] of [['a session (initialize)', r.session], ['a call (reused session)', r.call],
        ['a parked call', r.parked], ['a task', r.task]]) {
        console.log(`| ${r.name} | ${what} | ${fmt(c.perSecond)} | ${fmt(c.cpuMicros)} | ${fmt(c.commands, 2)} | ${fmt(c.trips, 2)} `
            + `| ${fmt(c.redisMicros)} | ${fmt(c.bytes)} |`);
    }
}
console.log(`(one node over HTTP; ${opts.sessions} sessions, ${opts.calls} echo calls by ${opts.concurrency} of them at once, `
    + `${opts.parked} parked elicitations, ${opts.tasks} tasks; Redis figures over the masters, a script's own commands `
    + 'counted; round trips are the node\'s, a pipeline once)');
