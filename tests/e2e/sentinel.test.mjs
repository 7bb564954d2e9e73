// End-to-end: Redis failover through Sentinel under two mcp-cpp-demo nodes
// (--store redis-sentinel://…). A master, a replica and three sentinels (Debian's redis-server and
// redis-sentinel, passwords on both) on loopback ports of their own; the master is killed while
// both nodes are under load. Then, on both nodes:
//   - 2025 requests got only HTTP 200 or 503 (with Retry-After) meanwhile, 2026 calls never failed;
//   - every session made before is served again, with its log level, once the replica is promoted;
//   - elicitations parked on A before the failover are answered through B and their calls finish;
//   - a POST stream cut before the failover resumes on B with Last-Event-ID, and one left open
//     through it receives every event; a GET stream on B hears of an update made on A;
//   - the old master, back, is made a replica by the sentinels, and nothing written meanwhile is
//     lost: the nodes never wrote to it.
// A second failover (the new master killed) is followed the same way.
// Needs Debian's redis-server and redis-sentinel (scripts/install-deps.sh --test).
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/sentinel.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
    freshSlug,
    modernCall,
    newSecret,
    RoundRobinSession,
    startNodes,
    tails,
    toolText,
} from './cluster.mjs';
import { answer, assertIncreasing, drain, ELICITING, load, logsOfCall, park, progressOf } from './failover.mjs';
import { demoBinary, sleep, waitUntil } from './helpers.mjs';
import { SentinelGroup } from './sentinel.mjs';

demoBinary();  // fails at once, with the reason, when MCP_CPP_DEMO is not set

const DOWN_AFTER_MS = 1000;
// A failover takes the sentinels' down-after-milliseconds plus an election; this only bounds the
// waits so that a failover that never ends fails the test instead of hanging it.
const FAILOVER_BOUND_MS = DOWN_AFTER_MS + 30_000;

describe('Redis failover through Sentinel under two nodes', { timeout: 170_000 }, () => {
    let group;
    let cluster;
    let A;
    let B;
    const sessions = [];
    const open = (capabilities = {}) => {
        const s = new RoundRobinSession(cluster.nodes, { capabilities });
        sessions.push(s);
        return s;
    };

    before(async () => {
        group = await SentinelGroup.start({ downAfterMs: DOWN_AFTER_MS });
        cluster = await startNodes(2, { store: group.url(), secret: newSecret(), args: ['--log-level', 'info'] });
        [A, B] = cluster.nodes;
    });
    after(async () => {
        for (const s of sessions) s.close();
        await cluster?.close();
        await group?.close();
    });

    const withLogs = (fn) => async () => {
        try {
            await fn();
        } catch (e) {
            e.message += `\n${tails(cluster.nodes, 2500)}\n${group.logs()}`;
            throw e;
        }
    };

    // Kills the master under load; returns {old, promoted, outage (ms until 2025 calls were served again)}.
    async function failover(traffic) {
        await group.waitReplicated();
        const old = await group.master();
        await sleep(300);
        const killedAt = Date.now();
        await old.stop('SIGKILL');
        const promoted = await group.waitPromoted(old, FAILOVER_BOUND_MS);
        const promotedAt = Date.now();
        const back = await waitUntil(() => traffic.results.find((r) => r.era === 2025 && r.ok && r.at > killedAt), FAILOVER_BOUND_MS,
            '2025 calls to be served again after the failover');
        const outage = back.at - killedAt;
        console.log(`master on port ${old.port} killed; sentinels promoted port ${promoted.port} after ${promotedAt - killedAt} ms; `
            + `2025 calls served again after ${outage} ms`);
        return { old, promoted, outage };
    }

    test('the master killed under load: sessions, parked elicitations, resumed and open streams carry on', { timeout: 120_000 }, withLogs(async () => {
        // State made before the failover.
        const quiet = open();
        await quiet.initialize({ node: A });
        assert.deepEqual((await quiet.request('logging/setLevel', { level: 'error' })).message?.result, {});
        const asker = open(ELICITING);
        await asker.initialize({ node: B });
        const parked = await park(asker, A);

        const listener = open();
        await listener.initialize({ node: A });
        const slug = freshSlug('failover');
        assert.deepEqual((await listener.request('resources/subscribe', { uri: `demo://notes/${slug}` }, { node: A })).message?.result, {});
        const get = await listener.get({ node: B });
        assert.equal(get.status, 200, get.text);

        const cutter = open();
        await cutter.initialize({ node: A });
        const cut = await cutter.stream('tools/call',
            { name: 'slow_count', arguments: { to: 40, step_ms: 250 }, _meta: { progressToken: 'cut' } }, { node: A });
        await cut.reader.next((m) => m.method === 'notifications/progress' && m.params.progress === 2, 5000, 'progress 2 on A');
        const lastId = cut.reader.events.slice(0, cut.reader.consumed).filter((e) => e.id).at(-1).id;
        cut.abort();

        const keeper = open();
        await keeper.initialize({ node: A });
        const live = await keeper.stream('tools/call',
            { name: 'slow_count', arguments: { to: 40, step_ms: 250 }, _meta: { progressToken: 'live' } }, { node: B });
        const liveRest = drain(live.reader, FAILOVER_BOUND_MS + 15_000);

        const loaded = [];
        for (let i = 0; i < 4; ++i) {
            const s = open();
            await s.initialize();
            loaded.push(s);
        }
        const traffic = load(cluster.nodes, loaded);

        const { old } = await failover(traffic);

        // Every session made before is served on both nodes, with what it set.
        for (const s of [quiet, asker, listener, cutter, keeper, ...loaded]) {
            for (const node of [A, B]) {
                const r = await s.request('ping', undefined, { node });
                assert.equal(r.status, 200, `session ${s.sessionId} on ${node.name} after the failover: ${r.status} ${r.text}`);
            }
        }
        for (const node of [A, B]) assert.deepEqual(await logsOfCall(quiet, node), [], `level error still in force on ${node.name}`);

        // Elicitations parked on A, answered through B.
        await answer(asker, parked, B);

        // The stream cut before the failover, resumed on B: the rest of the count and its result.
        const resumed = await cutter.get({ node: B, lastEventId: lastId });
        assert.equal(resumed.status, 200, `GET with Last-Event-ID on B: ${resumed.status} ${resumed.text}`);
        const rest = await drain(resumed.reader, 20_000).done;
        assert.equal(toolText(rest.at(-1), 'the resumed call'), 'Counted to 40');
        const resumedProgress = progressOf(rest);
        assertIncreasing(resumedProgress, 'progress on the resumed stream');
        assert.ok(resumedProgress[0] > 2 && resumedProgress.at(-1) === 40, `the steps after 2, up to 40: ${resumedProgress}`);
        console.log(`resumed stream: ${resumedProgress.length} of the 38 steps after the cut (steps while no master was known are not journaled)`);

        // The stream left open through the failover received every step.
        const liveMessages = await liveRest.done;
        assert.equal(toolText(liveMessages.at(-1), 'the call whose stream stayed open'), 'Counted to 40');
        assert.deepEqual(progressOf(liveMessages), Array.from({ length: 40 }, (_, i) => i + 1), 'every step on the open stream');

        // An update made on A reaches the GET stream held by B.
        const added = await modernCall(A.url, 'add-after', 'tools/call', { name: 'add_note', arguments: { slug, body: 'after' } });
        assert.equal(added.status, 200, added.text);
        const { message: updated } = await get.reader.next((m) => m.method === 'notifications/resources/updated', 10_000,
            'the update made on A to reach the GET stream on B');
        assert.equal(updated.params.uri, `demo://notes/${slug}`);
        get.abort();

        // The old master comes back and is made a replica; what is written meanwhile survives that.
        await old.restart();
        const during = [];
        await waitUntil(async () => {
            const s = open();
            await s.initialize();
            during.push(s);
            await sleep(250);
            return (await old.command('ROLE'))[0] === 'slave';
        }, FAILOVER_BOUND_MS, 'the sentinels to make the old master a replica');
        await group.waitReplicated();
        for (const s of during) {
            const r = await s.request('tools/call', { name: 'echo', arguments: { text: 'kept' } });
            assert.equal(toolText(r.message, `a session made while the old master came back (${r.status})`), 'kept');
        }
        console.log(`${during.length} sessions made while the old master came back, all kept`);

        const results = await traffic.stop();
        const wrong = results.filter((r) => !r.ok && !r.refused);
        assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} replies were neither right nor a 503`);
        const refused = results.filter((r) => r.refused).length;
        console.log(`load: ${results.filter((r) => r.era === 2025).length} 2025 calls (${refused} answered 503), `
            + `${results.filter((r) => r.era === 2026).length} 2026 calls`);
        for (const node of cluster.nodes) assert.ok(node.alive, `${node.name} is still running`);
    }));

    test('a second failover, back to the first server, is followed too', { timeout: 60_000 }, withLogs(async () => {
        const asker = open(ELICITING);
        await asker.initialize({ node: A });
        const parked = await park(asker, B);
        const loaded = [open(), open()];
        for (const s of loaded) await s.initialize();
        const traffic = load(cluster.nodes, loaded);

        await failover(traffic);

        await answer(asker, parked, A);
        const fresh = open();
        await fresh.initialize({ node: B });
        assert.equal(toolText((await fresh.request('tools/call', { name: 'echo', arguments: { text: 'again' } })).message), 'again');
        const results = await traffic.stop();
        const wrong = results.filter((r) => !r.ok && !r.refused);
        assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} replies were neither right nor a 503`);
    }));
});
