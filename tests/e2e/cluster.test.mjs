// End-to-end: several mcp-cpp-demo nodes share one session through Redis (--store redis://…)
// and one key ring (MCP_SECRET), with no sticky routing: the 2025-11-25 client below sends every
// HTTP request to another node than the one before (round robin over A, B, C). Each behaviour of
// the cluster issue is its own test: a session created on A served by B; an elicitation and a
// sampling request from a handler on A answered through B and C; notifications/cancelled on B
// stopping a call on A; logging/setLevel on B filtering A's log messages; DELETE on B closing
// A's GET stream and ending the session everywhere; a cut SSE stream of A resumed on B with
// Last-Event-ID (the missed events once, then the rest live), for a POST and a GET stream; a
// subscription made on B told of a change made on A; changes to one session made back to back,
// or at once, on different nodes all kept; A killed with SIGKILL mid-session; and a 2026-07-28
// multi-round-trip call started on A and finished on B with no Redis at all.
// Needs Debian's redis-server (scripts/install-deps.sh --test); the suite fails without it.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/cluster.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
    modernCall,
    newSecret,
    nodeStats,
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


const isResponse = (id) => (m) => !('method' in m) && m.id === id;
const progressOf = (messages) => messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress);
const logMessages = (messages) => messages.filter((m) => m.method === 'notifications/message');
const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

// add_note run statelessly (2026-07-28) on one node: no session involved in the change itself.
async function addNoteOn(node, slug, body = `body of ${slug}`) {
    const r = await modernCall(node.url, `add-${slug}-${Date.now()}`, 'tools/call', { name: 'add_note', arguments: { slug, body } });
    assert.equal(r.status, 200, `add_note on ${node.name}: ${r.text}`);
    assert.equal(r.message?.result?.content?.[0]?.uri, `demo://notes/${slug}`, r.text);
}

// Reads a note statelessly from one node (notes live in each demo process).
async function readNoteOn(node, slug) {
    const r = await modernCall(node.url, `read-${slug}`, 'resources/read', { uri: `demo://notes/${slug}` });
    assert.equal(r.status, 200, `reading demo://notes/${slug} on ${node.name}: ${r.text}`);
    return r.message.result.contents[0].text;
}

describe('several nodes sharing Redis: one 2025-11-25 session, the client switching node on every request', { timeout: 170_000 }, () => {
    let redis;
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
        redis = await RedisServer.start();
        cluster = await startNodes(3, { store: redis.url, secret: newSecret() });
        [A, B, C] = cluster.nodes;
    });
    after(async () => {
        for (const s of sessions) s.close();
        await cluster?.close();
        await redis?.close();
    });

    // Adds the nodes' stderr to a failure: most cluster bugs are explained there.
    const withLogs = withNodeLogs(() => cluster.nodes);

    test('a session created (initialize) on A is served by B and C: tools/list, tools/call echo, ping', TEST, withLogs(async () => {
        const s = open();
        const init = await s.initialize({ node: A });
        assert.equal(init.node, A);
        assert.equal(init.message.result.protocolVersion, '2025-11-25');
        assert.equal(init.message.result.serverInfo.name, 'mcp-cpp-demo');
        const before = { A: await nodeStats(A), B: await nodeStats(B), C: await nodeStats(C) };

        const list = await s.request('tools/list', {});  // C (initialized went to B)
        assert.equal(list.node, C);
        assert.equal(list.status, 200, list.text);
        const names = list.message.result.tools.map((t) => t.name);
        for (const name of ['echo', 'slow_count', 'add_note', 'draft_note', 'delete_note']) {
            assert.ok(names.includes(name), `tools/list on C lists ${name}: ${names}`);
        }
        const texts = {};
        for (let i = 0; i < 6; ++i) {
            const text = `echo ${i} ${Math.random().toString(36).slice(2)}`;
            const r = await s.request('tools/call', { name: 'echo', arguments: { text } });
            assert.equal(r.status, 200, `echo on ${r.node.name}: ${r.text}`);
            assert.equal(toolText(r.message, `echo on ${r.node.name}`), text);
            texts[r.node.name] = (texts[r.node.name] ?? 0) + 1;
        }
        assert.deepEqual(texts, { A: 2, B: 2, C: 2 }, 'every node served two calls');
        // Each handler ran on the node the request reached.
        for (const node of [A, B, C]) {
            assert.equal((await nodeStats(node)).tool_calls - before[node.name].tool_calls, 2, `tool calls run on ${node.name}`);
        }
        for (let i = 0; i < 3; ++i) {
            const ping = await s.request('ping');
            assert.deepEqual(ping.message?.result, {}, `ping on ${ping.node.name}: ${ping.text}`);
        }
        s.assertSwitchedEveryTime();
    }));

    test('draft_note on A asks for a form and a sampling: the answers POSTed to B and C complete the call on A', TEST, withLogs(async () => {
        const s = open({ elicitation: { form: {} }, sampling: {} });
        await s.initialize({ node: B });  // initialize on B, initialized on C
        const statsBefore = await nodeStats(A);
        const slug = freshSlug('drafted');
        const modelText = `# Cats\n\nWritten by the model for ${slug}.`;
        const call = await s.stream('tools/call', { name: 'draft_note', arguments: { topic: 'cats' } }, { node: A });
        assert.equal(call.status, 200);
        assert.match(call.res.headers.get('content-type'), /^text\/event-stream/, 'the call streams its requests to the client');

        const asked = {};
        const answers = [];
        let result;
        while (!result) {
            const { message } = await call.reader.next(() => true, 10_000, 'the server\'s requests and then the result of draft_note');
            if (message.method === 'elicitation/create') {
                asked.elicit = message;
                answers.push(await s.send({ jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: { slug } } }));
            } else if (message.method === 'sampling/createMessage') {
                asked.sample = message;
                answers.push(await s.send({
                    jsonrpc: '2.0', id: message.id,
                    result: { role: 'assistant', content: { type: 'text', text: modelText }, model: 'e2e-model', stopReason: 'endTurn' },
                }));
            } else if (isResponse(call.id)(message)) {
                result = message;
            }
        }
        assert.ok(asked.elicit, 'an elicitation/create came on A\'s stream');
        assert.equal(asked.elicit.params.message, 'Name the note about cats');
        assert.ok(asked.sample, 'a sampling/createMessage came on A\'s stream');
        assert.equal(asked.sample.params.systemPrompt, 'You write concise notes.');
        assert.deepEqual(answers.map((a) => [a.node.name, a.status]), [['B', 202], ['C', 202]], 'the answers went to B and C');

        assert.equal(result.error, undefined, JSON.stringify(result));
        assert.deepEqual(result.result.content.map((b) => [b.type, b.uri]), [['resource_link', `demo://notes/${slug}`]], JSON.stringify(result));
        assert.notEqual(result.result.isError, true);
        // The handler on A got both answers: the note holds the model's text, on A.
        assert.equal(await readNoteOn(A, slug), modelText);
        assert.equal((await nodeStats(A)).tool_calls - statsBefore.tool_calls, 1, 'the handler ran once, on A');
        s.assertSwitchedEveryTime();
    }));

    test('notifications/cancelled POSTed to B stops slow_count running on A; no response is sent for it', TEST, withLogs(async () => {
        const s = open();
        await s.initialize({ node: B });
        const statsBefore = await nodeStats(A);
        const call = await s.stream('tools/call',
            { name: 'slow_count', arguments: { to: 200, step_ms: 50 }, _meta: { progressToken: 'cancel-me' } }, { node: A });
        assert.equal(call.status, 200);
        await call.reader.next((m) => m.method === 'notifications/progress', 5000, 'the first progress of slow_count on A');
        const cancelled = await s.notify('notifications/cancelled', { requestId: call.id, reason: 'the user changed their mind' });
        assert.equal(cancelled.node, B);
        assert.equal(cancelled.status, 202, cancelled.text);
        const sentAt = Date.now();

        // Without the cancellation, the count would run for 10 s.
        await call.reader.rest(5000).catch((e) => {
            throw new Error(`A's POST stream did not end within 5 s of the cancellation on B: ${e.message}`);
        });
        const ended = Date.now() - sentAt;
        const messages = call.reader.events.filter((e) => e.data).map((e) => JSON.parse(e.data));
        assert.deepEqual(messages.filter(isResponse(call.id)), [], 'no response to a cancelled request');
        const steps = progressOf(messages);
        assert.ok(steps.length < 100, `the count stopped early (${steps.length} steps of 200)`);
        const after = await waitUntil(async () => {
            const stats = await nodeStats(A);
            return stats.cancellations_observed > statsBefore.cancellations_observed && stats;
        }, 5000, 'A to count the cancellation');
        assert.equal(after.cancellations_observed, statsBefore.cancellations_observed + 1, 'the handler on A saw the cancellation');
        console.log(`cancel on B → A's stream ended after ${ended} ms, ${steps.length} steps`);
        s.assertSwitchedEveryTime();
    }));

    test('logging/setLevel on B or C filters the log messages of calls running on A', TEST, withLogs(async () => {
        const s = open();
        await s.initialize({ node: B });  // initialize on B, initialized on C
        const run = async () => {
            const r = await s.request('tools/call', { name: 'slow_count', arguments: { to: 2, step_ms: 10 }, _meta: { progressToken: `p-${Date.now()}` } }, { node: A });
            assert.equal(r.status, 200, r.text);
            assert.equal(toolText(r.message, 'slow_count on A'), 'Counted to 2');
            assert.deepEqual(progressOf(r.messages), [1, 2]);
            return logMessages(r.messages);
        };
        const setLevel = async (level, node) => {
            const r = await s.request('logging/setLevel', { level }, { node });
            assert.equal(r.status, 200, `setLevel ${level} on ${r.node.name}: ${r.text}`);
            assert.deepEqual(r.message?.result, {}, r.text);
            return r.node.name;
        };

        // The default (--client-log-level info) lets the info message through.
        assert.deepEqual((await run()).map((m) => [m.params.level, m.params.data]), [['info', 'slow_count finished']], 'default level: info passes');
        const on1 = await setLevel('error', B);
        assert.deepEqual(await run(), [], `after setLevel error on ${on1}, A sends no info message`);
        const on2 = await setLevel('debug', C);
        assert.deepEqual((await run()).map((m) => [m.params.level, m.params.data]), [['info', 'slow_count finished']],
            `after setLevel debug on ${on2}, A sends the info message again`);
        const on3 = await setLevel('warning', B);
        assert.deepEqual(await run(), [], `after setLevel warning on ${on3}, A filters info again (no stale level)`);
        s.assertSwitchedEveryTime();
    }));

    test('DELETE on B closes A\'s GET stream and cancels a call on C; the session id is then 404 on every node', TEST, withLogs(async () => {
        const s = open();
        await s.initialize({ node: C });  // initialize on C, initialized on A
        const get = await s.get();         // B
        assert.equal(get.node, B);
        // Move the GET to A: the stream on A is the one DELETE on B must close.
        get.abort();
        const getA = await s.get({ node: A });
        assert.equal(getA.status, 200, getA.text);
        const statsBefore = await nodeStats(C);
        const call = await s.stream('tools/call', { name: 'slow_count', arguments: { to: 200, step_ms: 50 }, _meta: { progressToken: 'doomed' } }, { node: C });
        await call.reader.next((m) => m.method === 'notifications/progress', 5000, 'the first progress on C');

        const del = await s.delete({ node: B });
        assert.ok(del.status >= 200 && del.status < 300, `DELETE on B: ${del.status} ${del.text}`);
        const deletedAt = Date.now();
        await getA.reader.rest(5000).catch((e) => {
            throw new Error(`A's GET stream did not end within 5 s of DELETE on B: ${e.message}`);
        });
        console.log(`DELETE on B → A's GET stream ended after ${Date.now() - deletedAt} ms`);
        await call.reader.rest(5000).catch((e) => {
            throw new Error(`the call on C did not end within 5 s of DELETE on B: ${e.message}`);
        });
        const steps = progressOf(call.reader.events.filter((e) => e.data).map((e) => JSON.parse(e.data)));
        assert.ok(steps.length < 100, `the call on C stopped early (${steps.length} steps of 200)`);
        await waitUntil(async () => (await nodeStats(C)).cancellations_observed > statsBefore.cancellations_observed, 5000,
            'the handler on C to observe its cancellation');

        for (const node of [A, B, C]) {
            const post = await s.request('tools/list', {}, { node });
            assert.equal(post.status, 404, `POST with the deleted session on ${node.name}: ${post.status} ${post.text}`);
            const again = await s.get({ node });
            again.abort();
            assert.equal(again.status, 404, `GET with the deleted session on ${node.name}: ${again.status}`);
            const del2 = await s.delete({ node });
            assert.equal(del2.status, 404, `DELETE again on ${node.name}: ${del2.status} ${del2.text}`);
        }
    }));

    test('a POST stream cut on A is resumed on B with Last-Event-ID: the missed events once, then the rest live', TEST, withLogs(async () => {
        const s = open();
        await s.initialize({ node: B });  // initialize on B, initialized on C
        const statsBefore = await nodeStats(A);
        const call = await s.stream('tools/call',
            { name: 'slow_count', arguments: { to: 10, step_ms: 150 }, _meta: { progressToken: 'resume-post' } }, { node: A });
        assert.equal(call.status, 200);
        await call.reader.next((m) => m.method === 'notifications/progress' && m.params.progress === 2, 5000, 'progress 2 on A');
        const seen = call.reader.events.slice(0, call.reader.consumed);
        const lastId = seen.filter((e) => e.id).at(-1).id;
        call.abort();
        const beforeCut = progressOf(seen.filter((e) => e.data).map((e) => JSON.parse(e.data)));
        assert.deepEqual(beforeCut, [1, 2]);
        await sleep(450);  // about three steps happen while the client is away

        const resumed = await s.get({ node: B, lastEventId: lastId });
        assert.equal(resumed.status, 200, `GET with Last-Event-ID on B: ${resumed.status} ${resumed.text}`);
        const openedAt = Date.now();
        const arrivals = [];
        let result;
        while (!result) {
            const { event, message } = await resumed.reader.next(() => true, 10_000, 'the rest of slow_count on B');
            arrivals.push({ at: Date.now() - openedAt, id: event.id, message });
            if (isResponse(call.id)(message)) result = message;
        }
        assert.equal(toolText(result, 'the resumed call'), 'Counted to 10');
        const steps = progressOf(arrivals.map((a) => a.message));
        assert.deepEqual([...beforeCut, ...steps], range(1, 10), `steps before the cut ${beforeCut} + after ${steps}: none lost, none twice`);
        const ids = [...seen.filter((e) => e.id).map((e) => e.id), ...arrivals.map((a) => a.id)];
        assert.equal(new Set(ids).size, ids.length, 'no event id delivered twice');
        assert.ok(arrivals.every((a) => a.id), 'every resumed event has an id');
        // Missed events come at once; the later ones as they happen (the count was not over).
        const firstGap = arrivals.findIndex((a, i) => i > 0 && a.at - arrivals[i - 1].at > 80);
        assert.ok(firstGap > 0, `the replay came in one go, then live events: ${JSON.stringify(arrivals.map((a) => [a.at, a.message.params?.progress ?? 'result']))}`);
        assert.ok(arrivals.at(-1).at - arrivals[0].at >= 300, 'the rest came live, step by step');
        const stats = await nodeStats(A);
        assert.equal(stats.cancellations_observed, statsBefore.cancellations_observed, 'a dropped connection is not a cancellation');
        s.assertSwitchedEveryTime();
    }));

    test('a GET stream cut on A is resumed on B with Last-Event-ID: missed notifications once, then live ones', TEST, withLogs(async () => {
        const s = open();
        await s.initialize({ node: C });  // initialize on C, initialized on A
        const slugs = [1, 2, 3, 4, 5].map((i) => freshSlug(`resume-get${i}`));
        const uris = slugs.map((slug) => `demo://notes/${slug}`);
        for (const uri of uris) {
            const r = await s.request('resources/subscribe', { uri });
            assert.deepEqual(r.message?.result, {}, `subscribe ${uri} on ${r.node.name}: ${r.text}`);
        }
        const get = await s.get({ node: A });
        assert.equal(get.status, 200, get.text);
        const updated = (uri) => (m) => m.method === 'notifications/resources/updated' && m.params.uri === uri;
        await addNoteOn(B, slugs[0]);
        const first = await get.reader.next(updated(uris[0]), 5000, `the update of ${uris[0]} on A's GET stream`);
        get.abort();
        await addNoteOn(C, slugs[1]);
        await addNoteOn(A, slugs[2]);
        await sleep(200);

        const resumed = await s.get({ node: B, lastEventId: first.event.id });
        assert.equal(resumed.status, 200, `GET with Last-Event-ID on B: ${resumed.status} ${resumed.text}`);
        const got = [];
        const take = async (uri) => {
            const { event, message } = await resumed.reader.next((m) => m.method === 'notifications/resources/updated', 5000, `the update of ${uri}`);
            got.push({ id: event.id, uri: message.params.uri });
        };
        await take(uris[1]);
        await take(uris[2]);
        await addNoteOn(C, slugs[3]);  // live, while the resumed stream is open on B
        await take(uris[3]);
        // A fence: the last update proves everything before it arrived, and nothing twice.
        await addNoteOn(A, slugs[4]);
        await take(uris[4]);
        assert.deepEqual(got.map((g) => g.uri), uris.slice(1), 'the missed updates once, in order, then the live ones');
        const ids = [first.event.id, ...got.map((g) => g.id)];
        assert.equal(new Set(ids).size, ids.length, 'no event id twice');
        resumed.abort();
        s.assertSwitchedEveryTime();
    }));

    test('a subscription made on B is told (on the GET stream, wherever it is) of add_note run on A', TEST, withLogs(async () => {
        const s = open();
        await s.initialize({ node: A });  // initialize on A, initialized on B
        const get = await s.get();         // C
        assert.equal(get.node, C);
        assert.equal(get.status, 200, get.text);
        const slug = freshSlug('watched');
        const marker = freshSlug('marker');
        const uri = `demo://notes/${slug}`;
        const markerUri = `demo://notes/${marker}`;
        const sub = await s.request('resources/subscribe', { uri }, { node: B });
        assert.equal(sub.node, B);
        assert.deepEqual(sub.message?.result, {}, sub.text);
        const subMarker = await s.request('resources/subscribe', { uri: markerUri });  // C
        assert.deepEqual(subMarker.message?.result, {}, subMarker.text);

        const updates = [];
        const next = async (what) => {
            const { message } = await get.reader.next((m) => m.method === 'notifications/resources/updated', 5000, what);
            updates.push(message.params.uri);
            return message.params.uri;
        };
        // A change made on A by another client (a stateless 2026 call).
        await addNoteOn(A, slug, 'first');
        assert.equal(await next(`the update of ${uri} made on A`), uri);
        // A change made on A by this very session's call.
        const call = await s.request('tools/call', { name: 'add_note', arguments: { slug, body: 'second' } }, { node: A });
        assert.equal(call.message?.result?.content?.[0]?.uri, uri, call.text);
        assert.equal(await next(`the update of ${uri} made by the session on A`), uri);
        // Unsubscribed on B: the next change is not told; the marker proves the stream still flows.
        const unsub = await s.request('resources/unsubscribe', { uri }, { node: B });
        assert.deepEqual(unsub.message?.result, {}, unsub.text);
        await addNoteOn(A, slug, 'third');
        await addNoteOn(A, marker);
        assert.equal(await next('the marker update'), markerUri);
        assert.deepEqual(updates, [uri, uri, markerUri], 'each update once; none after unsubscribe');
        get.abort();
        s.assertSwitchedEveryTime();
    }));

    test('session state changed by back-to-back requests on different nodes is all kept (12 subscriptions, then setLevel)', TEST, withLogs(async () => {
        // Each change is acknowledged before the next is sent: none may be lost, whatever node
        // made it (no lost update between a node's copy of the session and the stored record).
        const s = open();
        await s.initialize({ node: A });
        const slugs = Array.from({ length: 12 }, (_, i) => freshSlug(`kept${i}`));
        for (const slug of slugs) {
            const r = await s.request('resources/subscribe', { uri: `demo://notes/${slug}` });
            assert.deepEqual(r.message?.result, {}, `subscribe on ${r.node.name}: ${r.text}`);
        }
        const level = await s.request('logging/setLevel', { level: 'error' });
        assert.deepEqual(level.message?.result, {}, level.text);
        const get = await s.get();
        assert.equal(get.status, 200, get.text);
        const told = [];
        for (const [i, slug] of slugs.entries()) {
            await addNoteOn(cluster.nodes[i % 3], slug);
        }
        // A fence: one more subscription and change, told last.
        const fence = freshSlug('fence');
        assert.deepEqual((await s.request('resources/subscribe', { uri: `demo://notes/${fence}` })).message?.result, {});
        await addNoteOn(B, fence);
        for (;;) {
            const { message } = await get.reader.next((m) => m.method === 'notifications/resources/updated', 5000, 'the fence update');
            if (message.params.uri === `demo://notes/${fence}`) break;
            told.push(message.params.uri.replace('demo://notes/', ''));
        }
        const missing = slugs.filter((slug) => !told.includes(slug));
        assert.deepEqual(missing, [], `subscriptions lost (of ${slugs.length}, each made on the next node)`);
        assert.deepEqual(told, slugs, 'each update once, in order');
        get.abort();
        for (const node of [A, B, C]) {
            const r = await s.request('tools/call', { name: 'slow_count', arguments: { to: 1, step_ms: 1 }, _meta: { progressToken: 'lvl' } }, { node });
            assert.equal(toolText(r.message, `slow_count on ${node.name}`), 'Counted to 1');
            assert.deepEqual(logMessages(r.messages), [], `the level error set after the subscriptions holds on ${node.name}`);
        }
    }));

    test('concurrent changes to one session on different nodes are all kept (8 subscriptions and a setLevel at once)', TEST, withLogs(async () => {
        // A client may send requests without waiting for the previous answers (an SDK subscribing
        // to several resources with Promise.all): every acknowledged change must survive.
        const s = open();
        await s.initialize({ node: A });
        const slugs = Array.from({ length: 8 }, (_, i) => freshSlug(`together${i}`));
        const answers = await Promise.all([
            ...slugs.map((slug) => s.request('resources/subscribe', { uri: `demo://notes/${slug}` })),
            s.request('logging/setLevel', { level: 'error' }),
        ]);
        for (const r of answers) assert.deepEqual(r.message?.result, {}, `${r.node.name}: ${r.text}`);
        assert.deepEqual([...new Set(answers.map((r) => r.node.name))].sort(), ['A', 'B', 'C'], 'the changes were spread over the nodes');
        const get = await s.get();
        assert.equal(get.status, 200, get.text);
        for (const [i, slug] of slugs.entries()) await addNoteOn(cluster.nodes[i % 3], slug);
        const fence = freshSlug('fence');
        assert.deepEqual((await s.request('resources/subscribe', { uri: `demo://notes/${fence}` })).message?.result, {});
        await addNoteOn(C, fence);
        const told = [];
        for (;;) {
            const { message } = await get.reader.next((m) => m.method === 'notifications/resources/updated', 5000, 'the fence update');
            if (message.params.uri === `demo://notes/${fence}`) break;
            told.push(message.params.uri.replace('demo://notes/', ''));
        }
        get.abort();
        const levels = [];
        for (const node of [A, B, C]) {
            const r = await s.request('tools/call', { name: 'slow_count', arguments: { to: 1, step_ms: 1 }, _meta: { progressToken: 'lvl' } }, { node });
            assert.equal(toolText(r.message, `slow_count on ${node.name}`), 'Counted to 1');
            levels.push([node.name, logMessages(r.messages).length === 0 ? 'error' : 'not error']);
        }
        const missing = slugs.filter((slug) => !told.includes(slug));
        const lostLevel = levels.filter(([, level]) => level !== 'error').map(([name]) => name);
        assert.ok(missing.length === 0 && lostLevel.length === 0,
            `acknowledged changes lost: subscriptions ${JSON.stringify(missing)} (of ${slugs.length}); `
            + `level error not in force on ${JSON.stringify(lostLevel)}`);
        assert.deepEqual([...told].sort(), [...slugs].sort(), 'each update once');
    }));
});

describe('a node killed with SIGKILL mid-session', { timeout: 60_000 }, () => {
    let redis;
    let cluster;
    const sessions = [];
    before(async () => {
        redis = await RedisServer.start();
        cluster = await startNodes(3, { store: redis.url });
    });
    after(async () => {
        for (const s of sessions) s.close();
        await cluster?.close({ force: true });
        await redis?.close();
    });

    test('A dies with a GET stream and a call open on it; B and C serve the session\'s next requests', TEST, async () => {
        const [A, B, C] = cluster.nodes;
        try {
            const s = new RoundRobinSession([A, B, C]);
            sessions.push(s);
            await s.initialize({ node: A });  // initialize on A, initialized on B
            const slug = freshSlug('after-kill');
            const uri = `demo://notes/${slug}`;
            const sub = await s.request('resources/subscribe', { uri }, { node: C });
            assert.deepEqual(sub.message?.result, {}, sub.text);
            const getA = await s.get({ node: A });
            assert.equal(getA.status, 200, getA.text);
            const setLevel = await s.request('logging/setLevel', { level: 'error' }, { node: B });
            assert.deepEqual(setLevel.message?.result, {}, setLevel.text);
            const onA = await s.stream('tools/call',
                { name: 'slow_count', arguments: { to: 100, step_ms: 50 }, _meta: { progressToken: 'dies-with-a' } }, { node: A });
            s.assertSwitchedEveryTime();
            await onA.reader.next((m) => m.method === 'notifications/progress', 5000, 'the call on A under way');

            const killed = await A.kill();
            assert.equal(killed.signal, 'SIGKILL');
            // The client sees A's streams break.
            await withTimeout(getA.reader.rest(5000).catch(() => {}), 6000, 'A\'s GET stream to break');
            await withTimeout(onA.reader.rest(5000).catch(() => {}), 6000, 'A\'s POST stream to break');

            // From now on the load balancer only knows B and C.
            const survivor = new RoundRobinSession([B, C]);
            survivor.sessionId = s.sessionId;
            sessions.push(survivor);
            const list = await survivor.request('tools/list', {});
            assert.equal(list.status, 200, `tools/list on ${list.node.name} after A died: ${list.text}`);
            assert.ok(list.message.result.tools.some((t) => t.name === 'echo'));
            for (let i = 0; i < 4; ++i) {
                const text = `after the kill ${i}`;
                const r = await survivor.request('tools/call', { name: 'echo', arguments: { text } });
                assert.equal(toolText(r.message, `echo on ${r.node.name}`), text);
            }
            // The level set on A before it died still holds.
            const count = await survivor.request('tools/call', { name: 'slow_count', arguments: { to: 2, step_ms: 10 }, _meta: { progressToken: 'p' } });
            assert.equal(toolText(count.message, 'slow_count'), 'Counted to 2');
            assert.deepEqual(logMessages(count.messages), [], 'level error (set on A) still filters the info message');
            // A new GET stream on B (or C) receives the update of a subscription made before the kill.
            const get2 = await survivor.get();
            assert.equal(get2.status, 200, `a new GET stream after A died: ${get2.status} ${get2.text}`);
            await addNoteOn(get2.node === B ? C : B, slug);
            const { message } = await get2.reader.next((m) => m.method === 'notifications/resources/updated', 5000,
                `the update of ${uri} on the new GET stream`);
            assert.equal(message.params.uri, uri);
            get2.abort();
            const ping = await survivor.request('ping');
            assert.deepEqual(ping.message?.result, {}, ping.text);
            survivor.assertSwitchedEveryTime();
        } catch (e) {
            e.message += `\n${tails(cluster.nodes)}`;
            throw e;
        }
    });
});

describe('2026-07-28: a multi-round-trip call started on A finishes on B with only MCP_SECRET shared (no --store)', { timeout: 60_000 }, () => {
    let pair;
    let stranger;
    before(async () => {
        pair = await startNodes(2, { secret: newSecret() });  // no --store: memory, no Redis anywhere
        stranger = await startNodes(1, { secret: newSecret() });
    });
    after(async () => {
        await pair?.close();
        await stranger?.close();
    });

    test('draft_note: input_required on A (form + sampling in one round), the retry with the answers completes on B', TEST, async () => {
        const [A, B] = pair.nodes;
        for (const node of pair.nodes) assert.ok(!node.args.includes('--store'), 'the nodes have no shared store');
        const caps = { elicitation: { form: {} }, sampling: {} };
        const params = { name: 'draft_note', arguments: { topic: 'owls' } };
        const statsBefore = { A: await nodeStats(A), B: await nodeStats(B) };
        const round1 = await modernCall(A.url, 'draft-1', 'tools/call', params, { caps });
        assert.equal(round1.status, 200, round1.text);
        assert.equal(round1.message?.result?.resultType, 'input_required', round1.text);
        const { inputRequests, requestState } = round1.message.result;
        assert.deepEqual(Object.keys(inputRequests).sort(), ['body', 'name']);
        assert.equal(inputRequests.name.method, 'elicitation/create');
        assert.equal(inputRequests.name.params.message, 'Name the note about owls');
        assert.equal(inputRequests.body.method, 'sampling/createMessage');
        assert.equal(typeof requestState, 'string');

        const slug = freshSlug('owls');
        const modelText = `# Owls\n\nWritten by the model for ${slug}.`;
        const inputResponses = {
            name: { action: 'accept', content: { slug } },
            body: { role: 'assistant', content: { type: 'text', text: modelText }, model: 'e2e-model', stopReason: 'endTurn' },
        };
        // The same retry on a node with another key ring is refused: the state is sealed, not trusted.
        const foreign = await modernCall(stranger.nodes[0].url, 'draft-x', 'tools/call', { ...params, inputResponses, requestState }, { caps });
        assert.equal(foreign.message?.error?.code, -32602, `a node with another secret refuses the state: ${foreign.text}`);
        assert.equal(foreign.status, 400);

        const round2 = await modernCall(B.url, 'draft-2', 'tools/call', { ...params, inputResponses, requestState }, { caps });
        assert.equal(round2.status, 200, round2.text);
        assert.equal(round2.message?.result?.resultType, 'complete', round2.text);
        assert.deepEqual(round2.message.result.content.map((b) => [b.type, b.uri]), [['resource_link', `demo://notes/${slug}`]]);
        assert.equal(await readNoteOn(B, slug), modelText, 'the handler on B used both answers');
        assert.equal((await nodeStats(A)).tool_calls - statsBefore.A.tool_calls, 1, 'round 1 ran on A');
        assert.equal((await nodeStats(B)).tool_calls - statsBefore.B.tool_calls, 1, 'round 2 ran on B');
        // And back: a round started on B finishes on A.
        const back1 = await modernCall(B.url, 'back-1', 'tools/call', { name: 'delete_note', arguments: { slug: 'welcome' } }, { caps });
        assert.equal(back1.message?.result?.resultType, 'input_required', back1.text);
        const back2 = await modernCall(A.url, 'back-2', 'tools/call', {
            name: 'delete_note', arguments: { slug: 'welcome' },
            inputResponses: { confirm_delete: { action: 'accept', content: { confirm: true } } },
            requestState: back1.message.result.requestState,
        }, { caps });
        assert.equal(back2.message?.result?.content?.[0]?.text, 'Deleted welcome', back2.text);
    });
});
