// End-to-end: three mcp-cpp-demo nodes on one Redis Cluster (--store redis-cluster://…): six
// Debian redis-servers, three masters with a replica each (redis-cli --cluster create), a 1 s
// cluster-node-timeout, a password. Every 2025 request goes to the next node in turn.
//   - sessions, their log level and subscriptions are seen on every node; a POST stream cut on A
//     resumes on B; elicitations parked on A are answered through B; a task created through C is
//     read on A and its result fetched through B; an update on C reaches a GET stream on B;
//   - slots moved with `redis-cli --cluster reshard` under load: no request sees an error;
//   - a master killed under load (its replica takes over): 2025 requests get only 200 or 503 with
//     Retry-After meanwhile, 2026 requests never fail; afterwards every session is served on every
//     node with its level, parked elicitations are answered through another node, a stream left
//     open through it received every event.
//   - over TLS (rediss-cluster://, three masters speaking TLS only, cluster bus included): a
//     session, its level and a parked elicitation across the nodes.
// Needs Debian's redis-server and redis-tools (scripts/install-deps.sh --test).
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/redis_cluster.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { freshSlug, modernCall, newSecret, RoundRobinSession, startNodes, tails, toolText, withNodeLogs } from './cluster.mjs';
import { answer, drain, ELICITING, load, logsOfCall, park, progressOf } from './failover.mjs';
import { demoBinary, sleep, waitUntil } from './helpers.mjs';
import { RedisClusterGroup, TlsRedisCluster } from './redis_cluster.mjs';
import { CAPS, EXPORTED, RELATED_TASK } from './tasks_fixtures.mjs';

demoBinary();  // fails at once, with the reason, when MCP_CPP_DEMO is not set

const FAILOVER_BOUND_MS = 40_000;

describe('three nodes on a Redis Cluster of three masters and three replicas', { timeout: 175_000 }, () => {
    let group;
    let cluster;
    let A;
    let B;
    let C;
    const sessions = [];
    const open = (capabilities = {}) => {
        const s = new RoundRobinSession(cluster.nodes, { capabilities });
        sessions.push(s);
        return s;
    };

    before(async () => {
        group = await RedisClusterGroup.start();
        cluster = await startNodes(3, { store: group.url(), secret: newSecret(), args: ['--log-level', 'info'] });
        [A, B, C] = cluster.nodes;
    });
    after(async () => {
        for (const s of sessions) s.close();
        await cluster?.close();
        await group?.close();
    });

    const withLogs = withNodeLogs(() => cluster.nodes, { chars: 2500, more: () => `\n${group.logs()}` });

    async function loadedSessions(n) {
        const out = [];
        for (let i = 0; i < n; ++i) {
            const s = open();
            await s.initialize();
            out.push(s);
        }
        return out;
    }

    test('sessions, levels, resumed streams, parked elicitations, tasks and subscriptions across the nodes', { timeout: 60_000 }, withLogs(async () => {
        const many = await loadedSessions(30);
        for (const s of many) {
            for (const node of [A, B, C]) assert.equal((await s.request('ping', undefined, { node })).status, 200);
        }
        const quiet = open();
        await quiet.initialize({ node: A });
        assert.deepEqual((await quiet.request('logging/setLevel', { level: 'error' }, { node: B })).message?.result, {});
        for (const node of [A, B, C]) assert.deepEqual(await logsOfCall(quiet, node), [], `level error in force on ${node.name}`);

        const cutter = open();
        await cutter.initialize({ node: A });
        const cut = await cutter.stream('tools/call',
            { name: 'slow_count', arguments: { to: 10, step_ms: 50 }, _meta: { progressToken: 'cut' } }, { node: A });
        await cut.reader.next((m) => m.method === 'notifications/progress' && m.params.progress === 2, 5000, 'progress 2 on A');
        const lastId = cut.reader.events.slice(0, cut.reader.consumed).filter((e) => e.id).at(-1).id;
        cut.abort();
        const resumed = await cutter.get({ node: B, lastEventId: lastId });
        assert.equal(resumed.status, 200, resumed.text);
        const rest = await drain(resumed.reader, 10_000).done;
        assert.equal(toolText(rest.at(-1), 'the resumed call'), 'Counted to 10');
        assert.deepEqual(progressOf(rest), [3, 4, 5, 6, 7, 8, 9, 10], 'the steps after the cut, resumed on B');

        const asker = open(ELICITING);
        await asker.initialize({ node: C });
        await answer(asker, await park(asker, A), B);

        const tasker = open(CAPS);
        await tasker.initialize({ node: A });
        const created = await tasker.request('tools/call', { name: 'export_notes', arguments: { step_ms: 200 }, task: { ttl: 60_000 } }, { node: C });
        const task = created.message?.result?.task;
        assert.equal(task?.status, 'working', created.text);
        assert.equal((await tasker.request('tasks/get', { taskId: task.taskId }, { node: A })).message?.result?.status, 'working');
        const result = await tasker.request('tasks/result', { taskId: task.taskId }, { node: B, timeoutMs: 15_000 });
        assert.deepEqual(result.message?.result?.content, [{ type: 'text', text: EXPORTED }], result.text);
        assert.deepEqual(result.message.result._meta?.[RELATED_TASK], { taskId: task.taskId });
        const listed = await tasker.request('tasks/list', {}, { node: C });
        assert.equal(listed.message?.result?.tasks?.find((t) => t.taskId === task.taskId)?.status, 'completed', listed.text);

        const listener = open();
        await listener.initialize({ node: A });
        const slug = freshSlug('cluster');
        assert.deepEqual((await listener.request('resources/subscribe', { uri: `demo://notes/${slug}` }, { node: A })).message?.result, {});
        const get = await listener.get({ node: B });
        assert.equal(get.status, 200, get.text);
        await sleep(200);
        const added = await modernCall(C.url, 'add-1', 'tools/call', { name: 'add_note', arguments: { slug, body: 'x' } });
        assert.equal(added.status, 200, added.text);
        const { message: updated } = await get.reader.next((m) => m.method === 'notifications/resources/updated', 10_000,
            'the update made on C to reach the GET stream on B');
        assert.equal(updated.params.uri, `demo://notes/${slug}`);
        get.abort();

        const gone = open();
        await gone.initialize({ node: A });
        assert.equal((await gone.delete({ node: B })).status, 200);
        for (const node of [A, C]) assert.equal((await gone.request('ping', undefined, { node })).status, 404, `deleted, on ${node.name}`);
    }));

    test('slots moved under load (redis-cli --cluster reshard): no request sees an error', { timeout: 120_000 }, withLogs(async () => {
        // Sessions enough that some live on the slots that move (each has two keys of its slot).
        const traffic = load(cluster.nodes, await loadedSessions(60));
        await sleep(500);
        const started = Date.now();
        await group.reshard(4000);
        console.log(`4000 slots moved in ${Date.now() - started} ms`);
        await sleep(500);
        const results = await traffic.stop();
        const wrong = results.filter((r) => !r.ok);
        assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of ${results.length} replies were wrong during the reshard`);
        console.log(`load: ${results.filter((r) => r.era === 2025).length} 2025 calls, ${results.filter((r) => r.era === 2026).length} 2026 calls, all right`);
    }));

    test('a master killed under load: only 200s and 503s meanwhile; sessions, parked elicitations and an open stream carry on', { timeout: 90_000 }, withLogs(async () => {
        const quiet = open();
        await quiet.initialize({ node: A });
        assert.deepEqual((await quiet.request('logging/setLevel', { level: 'error' })).message?.result, {});
        const asker = open(ELICITING);
        await asker.initialize({ node: B });
        const parked = await park(asker, A);
        const keeper = open();
        await keeper.initialize({ node: A });
        const live = await keeper.stream('tools/call',
            { name: 'slow_count', arguments: { to: 30, step_ms: 250 }, _meta: { progressToken: 'live' } }, { node: B });
        const liveRest = drain(live.reader, FAILOVER_BOUND_MS + 15_000);
        const loaded = await loadedSessions(20);
        const traffic = load(cluster.nodes, loaded.slice(0, 6));
        await sleep(500);

        const killedAt = Date.now();
        const killed = await group.killMaster();
        console.log(`master on port ${killed.port} killed; its replica took over after ${Date.now() - killedAt} ms`);
        await waitUntil(() => traffic.results.find((r) => r.era === 2025 && r.ok && r.at > killedAt), FAILOVER_BOUND_MS,
            '2025 calls to be served again after the failover');

        for (const s of [quiet, asker, keeper, ...loaded]) {
            for (const node of [A, B, C]) {
                const r = await s.request('ping', undefined, { node });
                assert.equal(r.status, 200, `session ${s.sessionId} on ${node.name} after the failover: ${r.status} ${r.text}`);
            }
        }
        for (const node of [A, B, C]) assert.deepEqual(await logsOfCall(quiet, node), [], `level error still in force on ${node.name}`);
        await answer(asker, parked, C);
        const liveMessages = await liveRest.done;
        assert.equal(toolText(liveMessages.at(-1), 'the call whose stream stayed open'), 'Counted to 30');
        assert.deepEqual(progressOf(liveMessages), Array.from({ length: 30 }, (_, i) => i + 1), 'every step on the open stream');

        const results = await traffic.stop();
        const wrong = results.filter((r) => !r.ok && !r.refused);
        assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} replies were neither right nor a 503`);
        assert.ok(!results.some((r) => r.era === 2026 && !r.ok), '2026 calls never fail');
        const lastRefused = results.filter((r) => r.refused).at(-1);
        if (lastRefused) console.log(`the last 503 was for a call sent ${lastRefused.at - killedAt} ms after the kill`);
        console.log(`load: ${results.filter((r) => r.era === 2025).length} 2025 calls (${results.filter((r) => r.refused).length} answered 503), `
            + `${results.filter((r) => r.era === 2026).length} 2026 calls`);
        for (const node of cluster.nodes) assert.ok(node.alive, `${node.name} is still running`);
    }));
});

describe('three nodes on a Redis Cluster over TLS (rediss-cluster://)', { timeout: 90_000 }, () => {
    let group;
    let cluster;
    const sessions = [];
    const open = (capabilities = {}) => {
        const s = new RoundRobinSession(cluster.nodes, { capabilities });
        sessions.push(s);
        return s;
    };

    before(async () => {
        group = await TlsRedisCluster.start();
        cluster = await startNodes(3, { store: group.url(), secret: newSecret() });
    });
    after(async () => {
        for (const s of sessions) s.close();
        await cluster?.close();
        await group?.close();
    });

    test('sessions, levels and parked elicitations across the nodes', { timeout: 60_000 }, async () => {
        const [A, B, C] = cluster.nodes;
        try {
            for (let i = 0; i < 10; ++i) {
                const s = open();
                await s.initialize();
                for (const node of [A, B, C]) assert.equal((await s.request('ping', undefined, { node })).status, 200);
            }
            const quiet = open();
            await quiet.initialize({ node: A });
            assert.deepEqual((await quiet.request('logging/setLevel', { level: 'error' }, { node: B })).message?.result, {});
            for (const node of [A, B, C]) assert.deepEqual(await logsOfCall(quiet, node), [], `level error in force on ${node.name}`);
            const asker = open(ELICITING);
            await asker.initialize({ node: C });
            await answer(asker, await park(asker, A), B);
        } catch (e) {
            e.message += `\n${tails(cluster.nodes, 2500)}\n${group.log.slice(-3000)}`;
            throw e;
        }
    });
});
