// End-to-end: Redis faults under two mcp-cpp-demo nodes sharing it (--store redis://…).
//   - Redis killed (SIGKILL): 2025-11-25 requests that need the store get HTTP 503 with a
//     JSON-RPC error body, the nodes do not crash, 2026-07-28 calls are served throughout; Redis
//     back on the same port (empty): the nodes reconnect by themselves (commands and pub/sub),
//     new sessions work, the lost ones are 404 everywhere.
//   - A planned restart (SHUTDOWN SAVE, the data set reloaded): sessions survive, and what was
//     refused with 503 during the outage did not happen (nothing acknowledged that was not stored).
//   - A hung Redis (SIGSTOP): requests fail within a bounded time instead of hanging; after
//     SIGCONT, late replies to timed-out commands are not taken for the answers of later ones.
//   - Every key has a time to live; 10 000 sessions left idle expire and the key count comes
//     back to its baseline.
// Needs Debian's redis-server (scripts/install-deps.sh --test); the suite fails without it.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/cluster_faults.test.mjs
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
    LEGACY,
    mapLimit,
    modernCall,
    newSecret,
    readBody,
    RedisServer,
    freshSlug,
    RoundRobinSession,
    startNodes,
    tails,
    withNodeLogs,
    toolText,
} from './cluster.mjs';
import { demoBinary, sleep, waitUntil, withTimeout } from './helpers.mjs';

demoBinary();  // fails at once, with the reason, when MCP_CPP_DEMO is not set
const TEST = { timeout: 30_000 };

const logMessages = (messages) => messages.filter((m) => m.method === 'notifications/message');

// Asserts an HTTP 503 whose body is a JSON-RPC error. Whether it answers the request's `id` is
// recorded in `wrongIds` and asserted at the end of each test, after the behaviours that matter more.
const wrongIds = [];
function assertUnavailable(r, id, what) {
    assert.equal(r.status, 503, `${what}: HTTP 503 while Redis is down, got ${r.status} ${r.text}`);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/, `${what}: a JSON body`);
    let body;
    try {
        body = JSON.parse(r.text);
    } catch {
        assert.fail(`${what}: the 503 body is not JSON: ${r.text}`);
    }
    assert.equal(body.jsonrpc, '2.0', `${what}: ${r.text}`);
    if (JSON.stringify(body.id) !== JSON.stringify(id)) wrongIds.push(`${what}: id ${JSON.stringify(body.id)} instead of ${JSON.stringify(id)}`);
    assert.equal(body.result, undefined, `${what}: ${r.text}`);
    assert.ok(Number.isInteger(body.error?.code), `${what}: error.code is an integer: ${r.text}`);
    assert.equal(typeof body.error.message, 'string', `${what}: ${r.text}`);
    assert.ok(body.error.message.length > 0, `${what}: an error message`);
    return body.error;
}

// An initialize by hand on one node (no session kept): {status, headers, text, id, sessionId}.
async function initializeOn(node, timeoutMs = 10_000) {
    const id = `init-${Math.random().toString(36).slice(2)}`;
    const res = await fetch(node.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
            jsonrpc: '2.0', id, method: 'initialize',
            params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'mcp-cpp-e2e-faults', version: '1.0.0' } },
        }),
        signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await readBody(res, timeoutMs, `the answer to initialize from ${node.name}`);
    return { ...body, id, sessionId: res.headers.get('mcp-session-id') };
}

// 2026-07-28 echo calls, alternating between the nodes every 50 ms until stop() (which after()
// calls too, so a failed test leaves no loop behind).
const trafficLoops = new Set();
function modernTraffic(nodes) {
    const results = [];
    let stopped = false;
    let i = 0;
    const loop = (async () => {
        while (!stopped) {
            const node = nodes[i % nodes.length];
            const text = `modern ${++i}`;
            const at = Date.now();
            try {
                const r = await modernCall(node.url, `m-${i}`, 'tools/call', { name: 'echo', arguments: { text } }, { timeoutMs: 5000 });
                const ok = r.status === 200 && r.message?.result?.content?.[0]?.text === text;
                results.push({ node: node.name, at, ok, status: r.status, text: ok ? undefined : r.text });
            } catch (e) {
                results.push({ node: node.name, at, ok: false, error: String(e.cause ?? e) });
            }
            await sleep(50);
        }
    })();
    const traffic = {
        results,
        async stop() {
            stopped = true;
            trafficLoops.delete(traffic);
            await withTimeout(loop, 10_000, 'the 2026 traffic loop to stop');
            return results;
        },
    };
    trafficLoops.add(traffic);
    return traffic;
}

// A call of slow_count on one node; returns its log messages (asserting the result).
async function logsOfCall(s, node) {
    const r = await s.request('tools/call', { name: 'slow_count', arguments: { to: 2, step_ms: 10 }, _meta: { progressToken: `p-${Math.random()}` } }, { node });
    assert.equal(r.status, 200, `slow_count on ${node.name}: ${r.text}`);
    assert.equal(toolText(r.message, `slow_count on ${node.name}`), 'Counted to 2');
    return logMessages(r.messages);
}

describe('Redis stopped, hung and restarted under two nodes', { timeout: 120_000 }, () => {
    let redis;
    let cluster;
    let A;
    let B;
    const sessions = [];
    const open = () => {
        const s = new RoundRobinSession(cluster.nodes);
        sessions.push(s);
        return s;
    };

    before(async () => {
        redis = await RedisServer.start();
        cluster = await startNodes(2, { store: redis.url, secret: newSecret() });
        [A, B] = cluster.nodes;
    });
    after(async () => {
        await Promise.all([...trafficLoops].map((t) => t.stop().catch(() => {})));
        for (const s of sessions) s.close();
        await cluster?.close();
        await redis?.close();
    });

    // Each test starts with Redis up and both nodes serving sessions, whatever the test before did.
    beforeEach(async () => {
        wrongIds.length = 0;
        if (!redis.running) await redis.restart();
        redis.resume();
        for (const node of cluster.nodes) {
            await waitUntil(async () => (await initializeOn(node)).status === 200, 15_000, `${node.name} to serve sessions`);
        }
    });

    const withLogs = withNodeLogs(() => cluster.nodes, { more: () => `\n--- redis log:\n${redis.log.slice(-1000)}` });

    // JSON-RPC 2.0: the error's id is the request's whenever the request could be read.
    const assertIdsAnswered = () => {
        const problems = wrongIds.splice(0);
        assert.deepEqual(problems.slice(0, 3), [],
            `each 503 body answers the id of the request it refuses (${problems.length} do not; the first 3 are shown)`);
    };

    const assertAlive = () => {
        for (const node of cluster.nodes) assert.ok(node.alive, `${node.name} is still running (exit: ${JSON.stringify(node.exitInfo)})`);
    };

    test('Redis killed: 503 + JSON-RPC error for 2025 requests, 2026 served throughout, automatic reconnection', TEST, withLogs(async () => {
        const s1 = open();
        await s1.initialize({ node: A });
        assert.equal(toolText((await s1.request('tools/call', { name: 'echo', arguments: { text: 'before' } })).message), 'before');
        const traffic = modernTraffic(cluster.nodes);
        await sleep(200);

        await redis.stop('SIGKILL');
        const downAt = Date.now();
        const codes = new Set();
        for (let round = 0; round < 3; ++round) {
            for (const node of [A, B]) {
                const init = await initializeOn(node);
                codes.add(assertUnavailable(init, init.id, `initialize on ${node.name}`).code);
                assert.equal(init.sessionId, null, `no Mcp-Session-Id for a session that was not stored (${node.name})`);
                const call = await s1.request('tools/call', { name: 'echo', arguments: { text: 'down' } }, { node });
                codes.add(assertUnavailable(call, call.id, `tools/call of an existing session on ${node.name}`).code);
                const level = await s1.request('logging/setLevel', { level: 'debug' }, { node });
                assertUnavailable(level, level.id, `logging/setLevel on ${node.name}`);
            }
            await sleep(250);
        }
        const get = await s1.get({ node: B });
        get.abort();
        assert.equal(get.status, 503, `GET of an existing session's stream while Redis is down: ${get.status}`);
        assertAlive();

        await redis.restart();  // same port, empty: nothing persisted
        const upAt = Date.now();
        // The nodes reconnect by themselves: new sessions work again on both.
        for (const node of [A, B]) {
            const init = await waitUntil(async () => {
                const r = await initializeOn(node);
                return r.status === 200 && r;
            }, 15_000, `initialize on ${node.name} to work again after Redis came back`);
            assert.ok(init.sessionId, 'a session id');
        }
        console.log(`Redis down for ${upAt - downAt} ms; nodes serving sessions again ${Date.now() - upAt} ms after its restart; error codes ${[...codes]}`);

        // A new session across both nodes, including the pub/sub side (a notification routed
        // from the node that made the change to the node holding the GET stream).
        const s2 = open();
        await s2.initialize({ node: B });  // initialize on B, initialized on A
        const echo = await s2.request('tools/call', { name: 'echo', arguments: { text: 'after' } });  // B
        assert.equal(toolText(echo.message, 'echo after the restart'), 'after');
        const slug = freshSlug('back');
        const sub = await s2.request('resources/subscribe', { uri: `demo://notes/${slug}` });  // A
        assert.deepEqual(sub.message?.result, {}, sub.text);
        const stream = await s2.get();  // B
        assert.equal(stream.status, 200, stream.text);
        const add = await modernCall(A.url, 'add-back', 'tools/call', { name: 'add_note', arguments: { slug, body: 'back' } });
        assert.equal(add.status, 200, add.text);
        const { message } = await stream.reader.next((m) => m.method === 'notifications/resources/updated', 5000,
            'an update made on A to reach the GET stream on B after the reconnection');
        assert.equal(message.params.uri, `demo://notes/${slug}`);
        stream.abort();

        // The session made before the crash was lost with Redis's memory: 404 on every node,
        // none of them keeps serving it from a local copy.
        for (const node of [A, B]) {
            const r = await s1.request('tools/list', {}, { node });
            assert.equal(r.status, 404, `the lost session on ${node.name}: ${r.status} ${r.text}`);
        }

        const results = await traffic.stop();
        const failed = results.filter((r) => !r.ok);
        assert.deepEqual(failed, [], '2026-07-28 calls never failed');
        const duringOutage = results.filter((r) => r.at >= downAt && r.at < upAt);
        assert.ok(duringOutage.length >= 5, `2026 calls ran while Redis was down (${duringOutage.length})`);
        assert.deepEqual([...new Set(duringOutage.map((r) => r.node))].sort(), ['A', 'B'], 'on both nodes');
        assertAlive();
        assertIdsAnswered();
    }));

    test('planned restart (SHUTDOWN SAVE): sessions survive; a setLevel refused with 503 meanwhile did not happen', TEST, withLogs(async () => {
        const s = open();
        await s.initialize({ node: A });
        const level = await s.request('logging/setLevel', { level: 'error' });  // A
        assert.deepEqual(level.message?.result, {}, level.text);
        assert.deepEqual(await logsOfCall(s, B), [], 'level error is in force');

        await redis.shutdownSave();
        const acknowledged = [];
        for (const node of [A, B]) {
            const r = await s.request('logging/setLevel', { level: 'debug' }, { node });
            if (r.status === 200) acknowledged.push(`setLevel debug on ${node.name}`);
            else assertUnavailable(r, r.id, `setLevel on ${node.name} while Redis is down`);
            const init = await initializeOn(node);
            if (init.status === 200) acknowledged.push(`initialize on ${node.name} (${init.sessionId})`);
            else assertUnavailable(init, init.id, `initialize on ${node.name} while Redis is down`);
        }
        assert.deepEqual(acknowledged, [], 'nothing is acknowledged while Redis, where it would be stored, is down');
        assertAlive();

        await redis.restart();  // reloads dump.rdb
        for (const node of [A, B]) {
            await waitUntil(async () => (await s.request('ping', undefined, { node })).status === 200, 15_000,
                `the session to be served by ${node.name} again`);
        }
        // The level is still error on both nodes: the refused setLevel debug changed nothing.
        for (const node of [A, B, A, B]) {
            assert.deepEqual(await logsOfCall(s, node), [], `no info message from ${node.name}: the 503'd setLevel did not apply`);
        }
        const [record] = (await redis.keysWithTtl()).filter((k) => k.key === `mcp:s:{${s.sessionId}}`);
        assert.ok(record, `the session's record is in Redis: ${JSON.stringify(await redis.keys())}`);
        assert.ok(record.pttl > 0, `the session's record still expires (PTTL ${record.pttl})`);
        assertIdsAnswered();
    }));

    test('Redis hung (SIGSTOP): 503 within a bounded time; after SIGCONT late replies are not mixed up with new requests', TEST, withLogs(async () => {
        // Two sessions that differ in what Redis holds for them: their log levels.
        const quiet = open();
        await quiet.initialize({ node: A });
        assert.deepEqual((await quiet.request('logging/setLevel', { level: 'error' })).message?.result, {});
        const chatty = open();
        await chatty.initialize({ node: B });
        assert.deepEqual((await chatty.request('logging/setLevel', { level: 'debug' })).message?.result, {});

        const traffic = modernTraffic(cluster.nodes);
        redis.pause();
        const pausedAt = Date.now();
        try {
            // Several commands left unanswered on each node's connection.
            const pending = [];
            for (const node of [A, B]) {
                pending.push(quiet.request('tools/list', {}, { node, timeoutMs: 8000 }).then((r) => ({ r, what: `quiet tools/list on ${node.name}` })));
                pending.push(chatty.request('tools/list', {}, { node, timeoutMs: 8000 }).then((r) => ({ r, what: `chatty tools/list on ${node.name}` })));
                pending.push(initializeOn(node, 8000).then((r) => ({ r, what: `initialize on ${node.name}` })));
            }
            const answered = await withTimeout(Promise.all(pending), 8000, 'every node to answer while Redis is hung');
            const elapsed = Date.now() - pausedAt;
            for (const { r, what } of answered) assertUnavailable(r, r.id, `${what} while Redis is hung`);
            assert.ok(elapsed < 6000, `answered within the store's timeout, not hanging (${elapsed} ms)`);
            console.log(`Redis hung: 503s after ${elapsed} ms`);
            assertAlive();
        } finally {
            redis.resume();
        }
        await waitUntil(async () => (await quiet.request('ping', undefined, { node: A })).status === 200
            && (await chatty.request('ping', undefined, { node: B })).status === 200, 15_000, 'the nodes to serve sessions again after SIGCONT');
        // Each session still gets its own record on both nodes, again and again.
        for (let i = 0; i < 3; ++i) {
            for (const node of [A, B]) {
                assert.deepEqual(await logsOfCall(quiet, node), [], `quiet (level error) on ${node.name}, round ${i}`);
                assert.deepEqual((await logsOfCall(chatty, node)).map((m) => m.params.data), ['slow_count finished'],
                    `chatty (level debug) on ${node.name}, round ${i}`);
            }
        }
        const results = await traffic.stop();
        assert.deepEqual(results.filter((r) => !r.ok), [], '2026-07-28 calls never failed while Redis was hung');
        assert.ok(results.length >= 5, `2026 calls ran meanwhile (${results.length})`);
        assertIdsAnswered();
    }));

    test('wake-ups lost while the subscriptions were cut: a POST stream resumed on B catches up once B listens again', TEST, withLogs(async () => {
        const s = open();
        await s.initialize({ node: A });
        const call = await s.stream('tools/call',
            { name: 'slow_count', arguments: { to: 4, step_ms: 150 }, _meta: { progressToken: 'cut-wakes' } }, { node: A });
        assert.equal(call.status, 200);
        await call.reader.next((m) => m.method === 'notifications/progress' && m.params.progress === 1, 5000, 'progress 1 on A');
        const lastId = call.reader.events.slice(0, call.reader.consumed).filter((e) => e.id).at(-1).id;
        call.abort();
        const resumed = await s.get({ node: B, lastEventId: lastId });
        assert.equal(resumed.status, 200, `GET with Last-Event-ID on B: ${resumed.status} ${resumed.text}`);

        // The rest of the count and its result happen while every pub/sub connection is cut again
        // and again: A journals them and publishes wake-ups that B does not hear. Only B's catch-up
        // when its subscription is back can deliver them; no later wake-up will come.
        let cuts = 0;
        for (const until = Date.now() + 2000; Date.now() < until; ++cuts) await redis.command('CLIENT', 'KILL', 'TYPE', 'pubsub');
        const messages = [];
        let result;
        while (!result) {
            const { message } = await resumed.reader.next(() => true, 10_000, 'the rest of slow_count on B once it listens again');
            messages.push(message);
            if (!('method' in message) && message.id === call.id) result = message;
        }
        assert.equal(toolText(result, 'the resumed call'), 'Counted to 4');
        const progress = messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress);
        assert.deepEqual(progress, [2, 3, 4], 'the steps after the cut, once each');
        console.log(`subscriptions cut ${cuts} times`);
        resumed.abort();
    }));

    test('every key the nodes write has a time to live: sessions, subscriptions, journals, waiting client requests', TEST, withLogs(async () => {
        const s = open();
        s.capabilities = { elicitation: { form: {} }, sampling: {} };
        await s.initialize({ node: A });
        const slug = freshSlug('ttl');
        assert.deepEqual((await s.request('resources/subscribe', { uri: `demo://notes/${slug}` })).message?.result, {});  // A
        const get = await s.get();  // B
        assert.equal(get.status, 200, get.text);
        await modernCall(A.url, 'add-ttl', 'tools/call', { name: 'add_note', arguments: { slug, body: 'ttl' } });
        await get.reader.next((m) => m.method === 'notifications/resources/updated', 5000, 'the update on the GET stream');
        const counted = await s.request('tools/call', { name: 'slow_count', arguments: { to: 3, step_ms: 10 }, _meta: { progressToken: 'ttl' } });  // A
        assert.equal(toolText(counted.message), 'Counted to 3');
        // A handler waiting for the client's answers (mailbox) while the keys are looked at.
        const draft = await s.stream('tools/call', { name: 'draft_note', arguments: { topic: 'ttl' } }, { node: B });
        const requests = [];
        while (requests.length < 2) {
            const { message } = await draft.reader.next((m) => m.method === 'elicitation/create' || m.method === 'sampling/createMessage', 5000,
                'the requests of draft_note');
            requests.push(message);
        }

        const check = async (when) => {
            const keys = await redis.keysWithTtl();
            const forever = keys.filter((k) => k.pttl === -1);
            assert.deepEqual(forever, [], `${when}: keys without a time to live`);
            const foreign = keys.filter((k) => !k.key.startsWith('mcp:'));
            assert.deepEqual(foreign, [], `${when}: every key is under the mcp: prefix`);
            return keys;
        };
        const keys = await check('while a handler waits');
        assert.ok(keys.some((k) => k.key.includes(s.sessionId)), `the session's keys are there: ${keys.map((k) => k.key)}`);
        assert.ok(keys.some((k) => k.key.includes(slug)), `the subscription's key is there: ${keys.map((k) => k.key)}`);
        const shape = [...new Set(keys.map((k) => `${k.key.replace(/[A-Za-z0-9_-]{20,}/g, '<id>').replace(/\/[A-Za-z0-9_-]{8,}$/, '/<stream>')
            .replace(/demo:\/\/notes\/.*/, 'demo://notes/<slug>')} (${k.type})`))].sort();
        console.log(`key shapes: ${shape.join(', ')}`);

        for (const q of requests) {
            const result = q.method === 'elicitation/create'
                ? { action: 'accept', content: { slug: freshSlug('ttl-draft') } }
                : { role: 'assistant', content: { type: 'text', text: 'ttl' }, model: 'm', stopReason: 'endTurn' };
            assert.equal((await s.send({ jsonrpc: '2.0', id: q.id, result })).status, 202);
        }
        const done = await draft.reader.next((m) => m.id === draft.id && !('method' in m), 5000, 'the result of draft_note');
        assert.equal(done.message.result?.content?.[0]?.type, 'resource_link', JSON.stringify(done.message));
        get.abort();
        assert.ok((await s.delete()).status < 300);
        await check('after the call and DELETE');
    }));
});

describe('10 000 sessions left idle expire: the key count comes back to its baseline', { timeout: 120_000 }, () => {
    const SESSIONS = 10_000;
    const IDLE_MS = 6000;
    let redis;
    let cluster;
    let keeper;
    before(async () => {
        redis = await RedisServer.start();
        cluster = await startNodes(2, {
            store: redis.url,
            // The driver is one client standing for many: its quota of sessions is the node's.
            args: ['--session-timeout', `${IDLE_MS}ms`, '--max-sessions', String(2 * SESSIONS),
                '--max-sessions-per-client', String(2 * SESSIONS)],
        });
    });
    after(async () => {
        keeper?.close();
        await cluster?.close();
        await redis?.close();
    });

    test(`${SESSIONS} initialize (32 at a time, both nodes), --session-timeout ${IDLE_MS}ms: DBSIZE back to baseline`, { timeout: 90_000 }, async () => {
        const [A, B] = cluster.nodes;
        let keeping = true;
        try {
            // One session kept busy on both nodes, which must outlive the others.
            keeper = new RoundRobinSession(cluster.nodes);
            await keeper.initialize();
            await sleep(300);
            const baseline = await redis.dbsize();
            assert.ok(baseline >= 1, 'the busy session is stored');
            const keeperFailures = [];
            const keepAlive = (async () => {
                while (keeping) {
                    const r = await keeper.request('ping').catch((e) => ({ status: String(e), text: '', node: {} }));
                    if (r.status !== 200) keeperFailures.push(`${r.node.name}: ${r.status} ${r.text}`);
                    await sleep(1000);
                }
            })();

            const started = Date.now();
            let peak = 0;
            let sampling = true;
            const sampler = (async () => {
                while (sampling) {
                    peak = Math.max(peak, await redis.dbsize());
                    await sleep(100);
                }
            })();
            const failures = [];
            const ids = await mapLimit(Array.from({ length: SESSIONS }, (_, i) => i), 32, async (i) => {
                const r = await initializeOn(i % 2 ? B : A);
                if (r.status !== 200 || !r.sessionId) failures.push(`${r.status} ${r.text.slice(0, 200)}`);
                return r.sessionId;
            });
            sampling = false;
            await sampler;
            const createdIn = Date.now() - started;
            assert.deepEqual(failures.slice(0, 5), [], `${failures.length} initialize requests failed`);
            assert.equal(new Set(ids).size, SESSIONS, 'distinct session ids');
            // Sessions created within the last IDLE_MS are alive at the end of the burst.
            const expectedAlive = SESSIONS * Math.min(1, IDLE_MS / createdIn);
            console.log(`${SESSIONS} sessions in ${createdIn} ms; DBSIZE baseline ${baseline}, peak ${peak} (≈${Math.round(expectedAlive)} expected alive at once)`);
            assert.ok(peak - baseline >= 0.6 * expectedAlive, `the sessions were stored in Redis: peak ${peak}, baseline ${baseline}`);

            const idle = Date.now();
            const after = await waitUntil(async () => {
                const n = await redis.dbsize();
                return n <= baseline && { n };
            }, IDLE_MS + 15_000, `DBSIZE to come back to ${baseline} (it is ${await redis.dbsize()})`);
            console.log(`DBSIZE back to ${after.n} ${Date.now() - idle} ms after the burst (redis-cli says ${redis.dbsizeViaCli()})`);
            assert.equal(after.n, baseline);
            // The busy session's keys, and its client's count of sessions, which holds it alone once
            // the busy session refreshes its place there (at most once per quarter of the idle
            // timeout on each node).
            const clientCount = 'mcp:cs:{a:127.0.0.1}';
            const leftovers = (await redis.keysWithTtl()).filter((k) => !k.key.includes(keeper.sessionId) && k.key !== clientCount);
            assert.deepEqual(leftovers, [], 'only the busy session\'s keys are left');
            await waitUntil(async () => {
                assert.equal((await keeper.request('ping')).status, 200);
                const counted = await redis.command('ZRANGE', clientCount, 0, -1);
                return counted.length === 1 && counted[0] === keeper.sessionId;
            }, IDLE_MS, 'the client\'s count to hold the busy session alone');
            // Expired on every node, not only in Redis; the busy one is alive.
            for (const node of [A, B]) {
                for (const sid of [ids[0], ids[SESSIONS - 1]]) {
                    const s = new RoundRobinSession([node]);
                    s.sessionId = sid;
                    const r = await s.request('ping');
                    assert.equal(r.status, 404, `an expired session on ${node.name}: ${r.status} ${r.text}`);
                }
            }
            keeping = false;
            await withTimeout(keepAlive, 15_000, 'the keep-alive loop');
            assert.deepEqual(keeperFailures, [], 'the busy session was served all along');
            assert.equal((await keeper.request('ping')).status, 200, 'the busy session outlived the idle timeout');
        } catch (e) {
            e.message += `\n${tails(cluster.nodes)}`;
            throw e;
        } finally {
            keeping = false;
        }
    });
});
