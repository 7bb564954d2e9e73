// The soak run (bench/run.sh --soak MINUTES): two setups side by side for MINUTES each, under the
// mixed load of scenarios.mjs, every reply checked:
//   one   one mcp-cpp-demo node, sessions in memory
//   two   two mcp-cpp-demo nodes sharing a redis-server (--store redis://…), the 2025 client
//         switching node on every request
// Every 10 s it samples each node's RSS, threads and open descriptors, and Redis's key count and
// memory. After warm-up (a sixth of the run, at least 1 and at most 10 minutes) no series may
// trend upward (trend.mjs); no reply may be wrong and no process may die. Writes
// <out>/<name>.{csv,json,md,png} and exits 1 when any of that fails.
//   node bench/soak/soak.mjs --minutes M --demo PATH --out DIR --name NAME --work DIR
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { newSecret, RedisServer, startNodes } from '../../tests/e2e/cluster.mjs';
import { Driver } from './driver.mjs';
import { writeReport } from './report.mjs';
import { processSample, redisSample } from './sampler.mjs';
import { judge } from './trend.mjs';

const SAMPLE_EVERY_S = 10;
const WORKERS_PER_SETUP = 8;
// Scenarios started per second on each setup: well within what this 2-core machine serves while
// others use it too (about 70 per second per setup, unpaced, side by side).
const SCENARIOS_PER_SECOND = 30;
// Short enough that what the load abandons (sessions, unanswered elicitations) is let go well
// within the run, so that it reaches a steady state.
const SERVER_ARGS = ['--session-timeout', '30s', '--elicitation-timeout', '5s'];

const opts = { minutes: 0, demo: '', out: '', name: '', work: '' };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in opts) || i + 1 >= argv.length) throw new Error(`unknown or incomplete option ${argv[i]}`);
    opts[key] = key === 'minutes' ? Number(argv[++i]) : argv[++i];
}
if (!(opts.minutes >= 3 && opts.minutes <= 24 * 60) || !opts.demo || !opts.out || !opts.name || !opts.work) {
    throw new Error('usage: soak.mjs --minutes M (3 to 1440) --demo PATH --out DIR --name NAME --work DIR');
}
const durationS = Math.round(opts.minutes * 60);
const warmupS = Math.min(600, Math.max(60, Math.round(durationS / 6)));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function startSetups() {
    const one = await startNodes(1, { binary: opts.demo, args: SERVER_ARGS });
    one.nodes[0].name = 'one';
    const redis = await RedisServer.start();
    let two;
    try {
        two = await startNodes(2, { binary: opts.demo, store: redis.url, secret: newSecret(), args: SERVER_ARGS });
    } catch (e) {
        await one.close();
        await redis.close();
        throw e;
    }
    return {
        setups: [
            { name: 'one', nodes: one.nodes, cluster: one },
            { name: 'two', nodes: two.nodes, cluster: two, redis },
        ],
        async close() {
            await one.close();
            await two.close();
            await redis.close();
        },
    };
}

// One row per process (and one for Redis) at each sample.
async function sample(setups, t, drivers) {
    const rows = [];
    for (const setup of setups) {
        const driver = drivers.get(setup.name);
        for (const node of setup.nodes) {
            const s = processSample(node.child.pid);
            rows.push({ t, setup: setup.name, process: node.name, alive: s !== undefined && node.alive, ...s,
                scenarios: driver.completed, failed: driver.failed });
        }
        if (setup.redis) {
            try {
                rows.push({ t, setup: setup.name, process: 'redis', alive: true, ...(await redisSample(setup.redis)) });
            } catch (e) {
                rows.push({ t, setup: setup.name, process: 'redis', alive: false, error: String(e) });
            }
        }
    }
    return rows;
}

function analyse(rows) {
    const verdicts = [];
    const series = new Map();
    for (const r of rows) {
        const key = `${r.setup}/${r.process}`;
        if (!series.has(key)) series.set(key, []);
        series.get(key).push(r);
    }
    for (const [key, list] of series) {
        const after = list.filter((r) => r.t >= warmupS && r.alive);
        const metrics = list[0].process === 'redis' ? ['redis_keys', 'redis_memory_kb'] : ['rss_kb', 'threads', 'fds'];
        for (const metric of metrics) {
            verdicts.push({ series: key, ...judge(metric, after.map((r) => ({ t: r.t, v: r[metric] }))) });
        }
    }
    return verdicts;
}

async function main() {
    mkdirSync(opts.out, { recursive: true });
    const started = new Date();
    const world = await startSetups();
    // Interrupted: stop the servers this run started before going.
    for (const signal of ['SIGINT', 'SIGTERM']) {
        process.once(signal, () => {
            console.error(`soak: ${signal}; stopping the servers`);
            world.close().finally(() => process.exit(130));
        });
    }
    const drivers = new Map(world.setups.map((s) => [s.name, new Driver(s.name, s.nodes, { workers: WORKERS_PER_SETUP, perSecond: SCENARIOS_PER_SECOND })]));
    console.log(`soak: ${opts.minutes} min on ${world.setups.map((s) => `${s.name} (${s.nodes.map((n) => n.url).join(', ')})`).join(' and ')}; `
        + `warm-up ${warmupS} s, a sample every ${SAMPLE_EVERY_S} s; work directory ${opts.work}`);
    const rows = [];
    const deaths = [];
    const t0 = Date.now();
    try {
        rows.push(...await sample(world.setups, 0, drivers));
        for (const d of drivers.values()) d.start();
        for (let next = SAMPLE_EVERY_S; next <= durationS; next += SAMPLE_EVERY_S) {
            await sleep(Math.max(0, t0 + next * 1000 - Date.now()));
            const t = Math.round((Date.now() - t0) / 1000);
            const now = await sample(world.setups, t, drivers);
            rows.push(...now);
            for (const r of now.filter((x) => !x.alive)) deaths.push(`${r.setup}/${r.process} at ${t} s`);
            const line = world.setups.map((s) => {
                const d = drivers.get(s.name);
                return `${s.name}: ${d.completed} scenarios, ${d.failed} failed`;
            }).join('; ');
            if (t % 60 < SAMPLE_EVERY_S || deaths.length) console.log(`soak: ${t} s / ${durationS} s; ${line}`);
            if (deaths.length) break;
        }
    } finally {
        await Promise.all([...drivers.values()].map((d) => d.stop()));
        for (const setup of world.setups) {
            for (const node of setup.nodes) writeFileSync(join(opts.work, `${setup.name}-${node.name}.stderr.log`), node.stderr);
        }
        await world.close();
    }
    const verdicts = analyse(rows);
    const result = {
        name: opts.name,
        started: started.toISOString(),
        minutes: opts.minutes,
        elapsed_s: Math.round((Date.now() - t0) / 1000),
        warmup_s: warmupS,
        sample_every_s: SAMPLE_EVERY_S,
        workers_per_setup: WORKERS_PER_SETUP,
        scenarios_per_second: SCENARIOS_PER_SECOND,
        server_args: SERVER_ARGS,
        setups: world.setups.map((s) => ({ name: s.name, nodes: s.nodes.map((n) => n.name), redis: Boolean(s.redis) })),
        scenarios: Object.fromEntries([...drivers].map(([name, d]) => [name, { completed: d.completed, failed: d.failed, by_scenario: d.counts }])),
        failures: Object.fromEntries([...drivers].map(([name, d]) => [name, d.failures])),
        deaths,
        verdicts,
    };
    result.passed = deaths.length === 0 && [...drivers.values()].every((d) => d.failed === 0)
        && verdicts.every((v) => v.judged && !v.upward);
    writeReport(join(opts.out, opts.name), result, rows);
    console.log(`soak: ${result.passed ? 'passed' : 'FAILED'}; ${join(opts.out, opts.name)}.{md,json,csv,png}`);
    process.exit(result.passed ? 0 : 1);
}

main().catch((e) => {
    console.error(`soak: ${e.stack ?? e}`);
    process.exit(1);
});
