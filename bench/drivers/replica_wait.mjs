// What waiting for a replica costs (ADR 0020, decision 5): one demo node through Sentinel, which
// pipelines WAIT 1 100 with the session insert and the mailbox writes, against one demo node on
// the same master by redis://, which does not wait. Both on loopback with one replica; each figure
// alternates between the two nodes, round after round, so that what else runs on the machine
// weighs on both alike. Every reply is checked. Prints a Markdown table.
//   node bench/drivers/replica_wait.mjs --demo build/examples/demo/mcp-cpp-demo [--rounds 3]
//        [--sessions 2000] [--concurrency 16] [--answers 200]
// Needs Debian's redis-server and redis-sentinel. Not a test: no time is asserted.
import { newSecret, readBody, RoundRobinSession, startNodes } from '../../tests/e2e/cluster.mjs';
import { SentinelGroup } from '../../tests/e2e/sentinel.mjs';

const opts = { demo: '', rounds: 3, sessions: 2000, concurrency: 16, answers: 200 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in opts) || i + 1 >= argv.length) throw new Error(`unknown or incomplete option ${argv[i]}`);
    opts[key] = key === 'demo' ? argv[++i] : Number(argv[++i]);
}
if (!opts.demo || !(opts.rounds >= 1 && opts.rounds <= 20) || !(opts.sessions >= 1 && opts.sessions <= 100_000)
    || !(opts.concurrency >= 1 && opts.concurrency <= 256) || !(opts.answers >= 1 && opts.answers <= 10_000)) {
    throw new Error('usage: replica_wait.mjs --demo PATH [--rounds 1..20] [--sessions N] [--concurrency N] [--answers N]');
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// `n` initialize requests, `concurrency` at a time: sessions per second and latencies (ms).
async function initializes(node, n, concurrency) {
    const latencies = [];
    let next = 0;
    const started = performance.now();
    const worker = async () => {
        while (next < n) {
            next++;
            const t = performance.now();
            const res = await fetch(node.url, {
                method: 'POST',
                headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
                body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
                    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'replica-wait', version: '1' } } }),
            });
            const body = await readBody(res);
            if (res.status !== 200 || !res.headers.get('mcp-session-id') || !body.messages[0]?.result) {
                throw new Error(`initialize on ${node.name}: ${res.status} ${body.text.slice(0, 200)}`);
            }
            latencies.push(performance.now() - t);
        }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return { perSecond: n / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

// `n` elicitations one after the other on one session: the time from POSTing the answer to its
// 202 (the mailbox delivery), and from the call to its question (which includes the marker).
async function answers(node, n) {
    const s = new RoundRobinSession([node], { capabilities: { elicitation: { form: {} } }, clientName: 'replica-wait' });
    await s.initialize();
    const deliver = [];
    const ask = [];
    try {
        for (let i = 0; i < n; ++i) {
            const t0 = performance.now();
            const call = await s.stream('tools/call', { name: 'delete_note', arguments: { slug: 'welcome' } });
            const { message: question } = await call.reader.next((m) => m.method === 'elicitation/create', 10_000, 'the question');
            const t1 = performance.now();
            const sent = await s.send({ jsonrpc: '2.0', id: question.id, result: { action: 'decline' } });
            const t2 = performance.now();
            if (sent.status !== 202) throw new Error(`the answer on ${node.name}: ${sent.status} ${sent.text}`);
            const { message } = await call.reader.next((m) => m.id === call.id && !('method' in m), 10_000, 'the result');
            if (message.result?.content?.[0]?.text !== 'Kept welcome') throw new Error(`delete_note on ${node.name}: ${JSON.stringify(message)}`);
            ask.push(t1 - t0);
            deliver.push(t2 - t1);
        }
    } finally {
        s.close();
    }
    return { ask: median(ask), deliver: median(deliver) };
}

const group = await SentinelGroup.start({ downAfterMs: 5000 });
let cluster;
try {
    const master = await group.master();
    // Room for every session the rounds open (they are never deleted).
    const args = ['--max-sessions', String(opts.rounds * opts.sessions + 100)];
    const sentinelNode = await startNodes(1, { binary: opts.demo, store: group.url(), secret: newSecret(), args });
    const plainNode = await startNodes(1, { binary: opts.demo, store: master.url, secret: newSecret(), args });
    cluster = { close: () => Promise.all([sentinelNode.close(), plainNode.close()]) };
    const nodes = { 'redis-sentinel:// (WAIT 1 100)': sentinelNode.nodes[0], 'redis:// (no WAIT)': plainNode.nodes[0] };
    const results = Object.fromEntries(Object.keys(nodes).map((k) => [k, []]));
    for (let round = 0; round < opts.rounds; ++round) {
        const order = round % 2 ? Object.keys(nodes).reverse() : Object.keys(nodes);
        for (const name of order) {
            const init = await initializes(nodes[name], opts.sessions, opts.concurrency);
            const ans = await answers(nodes[name], opts.answers);
            results[name].push({ ...init, ...ans });
        }
        await master.command('FLUSHDB');  // the next round starts from an empty store
    }
    const waits = Number(/cmdstat_wait:calls=(\d+)/.exec(await master.command('INFO', 'commandstats'))?.[1] ?? 0);
    const replicated = opts.rounds * (opts.sessions + 2 * opts.answers);
    const pauses = (sentinelNode.nodes[0].stderr.match(/no Redis replica acknowledged/g) ?? []).length;
    console.log(`${opts.rounds} rounds; each: ${opts.sessions} initialize, ${opts.concurrency} at a time; ${opts.answers} elicitations answered one by one. `
        + `Median over the rounds. ${replicated} writes waited for the replica, with ${waits} WAITs; `
        + `${pauses} times no replica acknowledged within 100 ms (then 10 s without waiting).\n`);
    console.log('| store | sessions/s | initialize p50 ms | initialize p99 ms | call → question ms (marker) | answer → 202 ms (delivery) |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const [name, rounds] of Object.entries(results)) {
        const m = (key) => median(rounds.map((r) => r[key]));
        console.log(`| ${name} | ${m('perSecond').toFixed(0)} | ${m('p50').toFixed(2)} | ${m('p99').toFixed(2)} | ${m('ask').toFixed(2)} | ${m('deliver').toFixed(2)} |`);
    }
} finally {
    await cluster?.close();
    await group.close();
}
