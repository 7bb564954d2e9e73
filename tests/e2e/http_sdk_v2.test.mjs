// End-to-end: the MCP TypeScript SDK v2 client (@modelcontextprotocol/client 2.4.0) drives
// mcp-cpp-demo over Streamable HTTP: pinned to 2026-07-28 (stateless), in auto mode (probes
// server/discover) and in legacy mode (2025-11-25 with a session).
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/http_sdk_v2.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import {
    decodePng,
    HttpDemo,
    HttpRecorder,
    META_CLIENT_CAPABILITIES,
    META_PROTOCOL_VERSION,
    META_SUBSCRIPTION_ID,
    MODERN,
    modernHeaders,
    modernRequest,
    parseSse,
    PNG_SIGNATURE,
    schemaProblems,
    sseMessages,
    tapTransport,
    waitUntil,
} from './helpers.mjs';

const REQUEST = { timeout: 15_000 };
const TEST = { timeout: 30_000 };
// The demo's tools, sorted.
const TOOL_NAMES = ['add_note', 'color_swatch', 'connect_account', 'delete_note', 'draft_note', 'echo', 'export_notes', 'project_roots',
    'slow_count', 'word_stats'];
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
// The demo's resources, sorted: its stats, the files of its skill, its app's view.
const DEMO_RESOURCES = ['demo://server/stats', 'skill://notes-style/SKILL.md', 'skill://notes-style/examples/good-note.md', 'ui://mcp-cpp-demo/word-stats'];
const CACHEABLE = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);

async function connect(url, mode) {
    const recorder = new HttpRecorder();
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recorder.fetch });
    const wire = tapTransport(transport);
    const client = new Client({ name: 'mcp-cpp-e2e-v2', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode } });
    const errors = [];
    client.onerror = (e) => errors.push(e);
    await client.connect(transport, REQUEST);
    return { client, transport, wire, recorder, errors };
}

async function closeAll(...connections) {
    await Promise.all(connections.map(async (c) => {
        try {
            await c?.client.close();
        } catch {
            // best effort
        }
    }));
}

async function rejectsWithCode(promise, code) {
    let error;
    try {
        await promise;
    } catch (e) {
        error = e;
    }
    assert.ok(error, `expected a JSON-RPC error ${code}, the request succeeded`);
    assert.ok(error instanceof ProtocolError, `expected a ProtocolError, got ${error}`);
    assert.equal(error.code, code, `error code (message: ${error.message})`);
    return error;
}

const textOf = (result) => {
    assert.equal(result.content?.[0]?.type, 'text', `first content block is text: ${JSON.stringify(result)}`);
    return result.content[0].text;
};

async function readStats(client) {
    const r = await client.readResource({ uri: 'demo://server/stats' }, { ...REQUEST, cacheMode: 'bypass' });
    return JSON.parse(r.contents[0].text);
}

// The POST exchange that carried the request with this JSON-RPC id.
function exchangeOf(recorder, id) {
    const [x] = recorder.find((m) => 'method' in m && m.id === id);
    assert.ok(x, `the POST of request ${JSON.stringify(id)} was recorded`);
    return x;
}

// The JSON-RPC messages of one response body (JSON or SSE).
function messagesOf(x) {
    const type = (x.responseHeaders?.['content-type'] ?? '').split(';')[0];
    if (type === 'text/event-stream') return sseMessages(parseSse(x.body, { complete: x.ended }));
    return x.body ? [JSON.parse(x.body)] : [];
}

describe('SDK v2 client pinned to 2026-07-28 over Streamable HTTP', { timeout: 170_000 }, () => {
    let srv;
    let s;
    before(async () => {
        srv = await HttpDemo.start();
        s = await connect(srv.url, { pin: MODERN });
    });
    after(async () => {
        await closeAll(s);
        await srv?.close();
    });

    test('negotiates 2026-07-28 through server/discover; no session, no GET stream', TEST, async () => {
        assert.equal(s.client.getNegotiatedProtocolVersion(), MODERN);
        assert.equal(s.client.getProtocolEra(), 'modern');
        const [discover] = s.recorder.posted('server/discover');
        assert.ok(discover, 'server/discover was POSTed');
        assert.equal(discover.status, 200);
        const result = messagesOf(discover)[0].result;
        assert.deepEqual(result.supportedVersions, [MODERN]);
        assert.equal(result.resultType, 'complete');
        assert.deepEqual(result._meta?.['io.modelcontextprotocol/serverInfo'], { name: 'mcp-cpp-demo', version: '0.1.0' });
        assert.ok(result.capabilities.tools && result.capabilities.resources && result.capabilities.prompts);
        assert.equal(s.client.getServerVersion()?.name, 'mcp-cpp-demo');
        assert.match(s.client.getInstructions() ?? '', /demo:\/\/notes\/\{slug\}/);
        await s.client.listTools({}, REQUEST);
        assert.deepEqual(s.recorder.exchanges.filter((x) => x.method !== 'POST').map((x) => x.method), [], 'only POSTs on the 2026 wire');
        assert.deepEqual(s.recorder.posted('initialize'), [], 'no initialize');
    });

    test('tools: list and call every one (structured output, image, resource link)', TEST, async () => {
        const { tools } = await s.client.listTools({}, { ...REQUEST, cacheMode: 'refresh' });
        assert.deepEqual(tools.map((t) => t.name), [...TOOL_NAMES].sort(), 'tools/list in a deterministic (sorted) order');
        const byName = Object.fromEntries(tools.map((t) => [t.name, t]));

        const text = 'modern ✓ "wire"';
        assert.deepEqual((await s.client.callTool({ name: 'echo', arguments: { text } }, REQUEST)).content, [{ type: 'text', text }]);

        const stats = await s.client.callTool({ name: 'word_stats', arguments: { text: 'a b a', top: 1 } }, REQUEST);
        assert.deepEqual(stats.structuredContent, { words: 3, characters: 5, lines: 1, top_words: [{ word: 'a', count: 2 }] });
        assert.deepEqual(schemaProblems(byName.word_stats.outputSchema, stats.structuredContent), []);

        const swatch = await s.client.callTool({ name: 'color_swatch', arguments: { color: 'green', size: 3 } }, REQUEST);
        assert.equal(swatch.content[0].type, 'image');
        assert.equal(swatch.content[0].mimeType, 'image/png');
        const bytes = Buffer.from(swatch.content[0].data, 'base64');
        assert.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE));
        const png = decodePng(bytes);
        assert.equal(png.width, 3);
        assert.deepEqual(png.pixel(1, 1).slice(0, 3), [40, 170, 70]);

        const note = await s.client.callTool({ name: 'add_note', arguments: { slug: 'modern', body: '# 2026' } }, REQUEST);
        assert.deepEqual(note.content.map((c) => [c.type, c.uri]), [['resource_link', 'demo://notes/modern']]);
        assert.equal(textOf(await s.client.callTool({ name: 'slow_count', arguments: { to: 2, step_ms: 1 } }, REQUEST)), 'Counted to 2');

        const bad = await s.client.callTool({ name: 'echo', arguments: {} }, REQUEST);
        assert.equal(bad.isError, true);
        await rejectsWithCode(s.client.callTool({ name: 'no_such_tool', arguments: {} }, REQUEST), -32602);

        // Each call carried the 2026 headers, Mcp-Name included.
        for (const x of s.recorder.posted('tools/call')) {
            assert.equal(x.requestHeaders['mcp-method'], 'tools/call');
            assert.equal(x.requestHeaders['mcp-name'], x.message.params.name);
            assert.equal(x.requestHeaders['mcp-protocol-version'], MODERN);
        }
    });

    test('resources: list, read, templates, a note through the template; unknown → -32602', TEST, async () => {
        const { resources } = await s.client.listResources({}, REQUEST);
        assert.deepEqual(resources.map((r) => r.uri), DEMO_RESOURCES);
        const stats = await readStats(s.client);
        assert.deepEqual(Object.keys(stats).sort(), ['cancellations_observed', 'notes', 'tool_calls']);
        const { resourceTemplates } = await s.client.listResourceTemplates({}, REQUEST);
        assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['demo://notes/{slug}']);
        const note = await s.client.readResource({ uri: 'demo://notes/shopping' }, { ...REQUEST, cacheMode: 'bypass' });
        assert.equal(note.contents[0].uri, 'demo://notes/shopping');
        assert.equal(note.contents[0].mimeType, 'text/markdown');
        assert.match(note.contents[0].text, /- coffee/);
        // 2026-07-28: a missing resource is -32602 (no more -32002).
        const error = await rejectsWithCode(s.client.readResource({ uri: 'demo://notes/nope' }, { ...REQUEST, cacheMode: 'bypass' }), -32602);
        assert.equal(error.data?.uri, 'demo://notes/nope');
        const [read] = s.recorder.posted('resources/read', (p) => p.uri === 'demo://notes/nope');
        assert.equal(read.requestHeaders['mcp-name'], 'demo://notes/nope');
    });

    test('prompts: list and get; completion', TEST, async () => {
        const { prompts } = await s.client.listPrompts({}, REQUEST);
        assert.deepEqual(prompts.map((p) => p.name).sort(), ['review_note', 'summarize']);
        const detailed = await s.client.getPrompt({ name: 'summarize', arguments: { text: 'x', style: 'detailed' } }, REQUEST);
        assert.deepEqual(detailed.messages, [{ role: 'user', content: { type: 'text', text: 'Summarize the following text in detail:\n\nx' } }]);
        const review = await s.client.getPrompt({ name: 'review_note', arguments: { slug: 'welcome' } }, REQUEST);
        assert.equal(review.messages[1].content.resource.uri, 'demo://notes/welcome');
        await rejectsWithCode(s.client.getPrompt({ name: 'review_note', arguments: { slug: 'nope' } }, REQUEST), -32602);

        const style = await s.client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'style', value: 'd' } }, REQUEST);
        assert.deepEqual(style.completion.values, ['detailed']);
        const slug = await s.client.complete(
            { ref: { type: 'ref/resource', uri: 'demo://notes/{slug}' }, argument: { name: 'slug', value: 'sh' } }, REQUEST);
        assert.deepEqual(slug.completion.values, ['shopping']);
    });

    test('progress rides the call\'s own response stream, before the response', TEST, async () => {
        const progress = [];
        const result = await s.client.callTool({ name: 'slow_count', arguments: { to: 4, step_ms: 20 } },
            { ...REQUEST, onprogress: (p) => progress.push(p.progress) });
        assert.equal(textOf(result), 'Counted to 4');
        // The SDK dispatches notifications a microtask late and may drop the last one when the
        // response follows in the same read (as v1 does, typescript-sdk #2580): the exact sequence
        // is checked on the wire below.
        assert.ok(progress.length >= 3, `onprogress saw the steps: ${JSON.stringify(progress)}`);
        assert.deepEqual(progress, [1, 2, 3, 4].slice(0, progress.length));
        const request = s.wire.sent.findLast((m) => m.method === 'tools/call' && m.params.name === 'slow_count');
        const x = exchangeOf(s.recorder, request.id);
        assert.match(x.responseHeaders['content-type'], /^text\/event-stream/);
        await waitUntil(() => x.ended, 5000, 'the response stream to end');
        const messages = messagesOf(x);
        assert.deepEqual(messages.filter((m) => m.method === 'notifications/progress').map((m) => [m.params.progressToken, m.params.progress]),
            [1, 2, 3, 4].map((p) => [request.params._meta.progressToken, p]));
        assert.equal(messages.at(-1).id, request.id, 'the response comes last');
        assert.equal(messages.at(-1).result.resultType, 'complete');
    });

    test('logging: notifications/message only when the request asks with _meta logLevel', TEST, async () => {
        const logs = [];
        s.client.setNotificationHandler('notifications/message', (n) => logs.push(n.params));
        try {
            const call = async (meta) => {
                await s.client.callTool({ name: 'slow_count', arguments: { to: 1, step_ms: 1 }, ...(meta ? { _meta: meta } : {}) }, REQUEST);
                const request = s.wire.sent.findLast((m) => m.method === 'tools/call');
                const x = exchangeOf(s.recorder, request.id);
                await waitUntil(() => x.ended, 5000, 'the response to end');
                return messagesOf(x).filter((m) => m.method === 'notifications/message');
            };
            assert.deepEqual(await call(undefined), [], 'no log message without logLevel');
            const info = await call({ [LOG_LEVEL]: 'debug' });
            assert.deepEqual(info.map((m) => m.params), [{ level: 'info', data: 'slow_count finished' }]);
            await waitUntil(() => logs.length === 1, 5000, 'the client to dispatch the log message');
            assert.deepEqual(await call({ [LOG_LEVEL]: 'error' }), [], 'an info message is not sent at level error');
        } finally {
            s.client.removeNotificationHandler('notifications/message');
        }
    });

    test('cancellation: aborting closes the response stream; the handler sees it', TEST, async () => {
        const before = await readStats(s.client);
        const controller = new AbortController();
        let seen = 0;
        const call = s.client.callTool({ name: 'slow_count', arguments: { to: 200, step_ms: 50 } },
            { ...REQUEST, signal: controller.signal, onprogress: () => { if (++seen === 3) controller.abort('enough'); } });
        await assert.rejects(call);
        const request = s.wire.sent.findLast((m) => m.method === 'tools/call' && m.params.arguments?.to === 200);
        const x = exchangeOf(s.recorder, request.id);
        assert.ok(x.cancelled || x.error, 'the client closed the response stream');
        assert.deepEqual(s.recorder.posted('notifications/cancelled'), [], 'no notifications/cancelled over HTTP on the 2026 wire');

        const after = await waitUntil(async () => {
            const stats = await readStats(s.client);
            return stats.cancellations_observed > before.cancellations_observed && stats;
        }, 5000, 'cancellations_observed to increase');
        assert.equal(after.cancellations_observed, before.cancellations_observed + 1);
        const steps = messagesOf(x).filter((m) => m.method === 'notifications/progress');
        assert.ok(steps.length < 40, `the count stopped early (${steps.length} steps seen)`);
    });

    test('subscriptions/listen: acknowledged, updates tagged with the subscription id, filter honoured', TEST, async () => {
        const updated = [];
        s.client.setNotificationHandler('notifications/resources/updated', (n) => updated.push(n.params.uri));
        const todo = 'demo://notes/todo';
        const marker = 'demo://notes/marker';
        const sub = await s.client.listen({ resourceSubscriptions: [todo, marker] }, REQUEST);
        const other = await s.client.listen({ resourceSubscriptions: ['demo://notes/elsewhere'] }, REQUEST);
        try {
            assert.deepEqual(sub.honoredFilter.resourceSubscriptions, [todo, marker]);
            let markers = 0;
            const addNote = (slug, body) => s.client.callTool({ name: 'add_note', arguments: { slug, body } }, REQUEST);
            const fence = async () => {
                await addNote('marker', `marker ${++markers}`);
                await waitUntil(() => updated.filter((u) => u === marker).length === markers, 5000, `marker notification #${markers}`);
            };
            await addNote('todo', '# Todo');
            await waitUntil(() => updated.includes(todo), 5000, 'notifications/resources/updated for todo');
            await addNote('unwatched', 'x');
            await fence();
            assert.deepEqual(updated.filter((u) => u !== marker), [todo], 'nothing for an unsubscribed note');

            // On the wire: the listen stream opened with the acknowledgement, then tagged updates.
            const listens = s.recorder.posted('subscriptions/listen');
            assert.equal(listens.length, 2);
            const [mine, theirs] = listens;
            assert.equal(mine.requestHeaders['mcp-method'], 'subscriptions/listen');
            assert.match(mine.responseHeaders['content-type'], /^text\/event-stream/);
            const messages = messagesOf(mine);
            assert.equal(messages[0]?.method, 'notifications/subscriptions/acknowledged', `first message: ${JSON.stringify(messages[0])}`);
            assert.deepEqual(messages[0].params.notifications?.resourceSubscriptions, [todo, marker]);
            for (const m of messages) {
                assert.equal(m.params?._meta?.[META_SUBSCRIPTION_ID], mine.message.id, `${m.method} is tagged with the listen request id`);
            }
            assert.deepEqual(messages.filter((m) => m.method === 'notifications/resources/updated').map((m) => m.params.uri), [todo, marker]);
            assert.ok(!messages.some((m) => 'id' in m), 'no response while the subscription is open');
            // The other stream asked for another note only: it got its acknowledgement and nothing else.
            const theirMessages = messagesOf(theirs);
            assert.deepEqual(theirMessages.map((m) => m.method), ['notifications/subscriptions/acknowledged']);
            // No add_note response carried the update (it belongs to the listen stream).
            for (const x of s.recorder.posted('tools/call', (p) => p.name === 'add_note')) {
                assert.deepEqual(messagesOf(x).filter((m) => m.method), [], 'add_note\'s own response stream has no notifications');
            }
        } finally {
            await sub.close();
            await other.close();
            s.client.removeNotificationHandler('notifications/resources/updated');
        }
        assert.equal(await sub.closed, 'local');
    });

    test('the wire: every result has resultType, cacheable ones ttlMs and cacheScope; no session id ever', TEST, () => {
        const results = s.recorder.received().filter(({ message }) => 'id' in message && 'result' in message);
        assert.ok(results.length >= 20, `many results were recorded (${results.length})`);
        for (const { exchange, message } of results) {
            const method = s.recorder.exchanges.includes(exchange) && exchange.message?.method;
            assert.ok(['complete', 'input_required'].includes(message.result.resultType),
                `${method} result has resultType: ${JSON.stringify(message).slice(0, 300)}`);
            if (CACHEABLE.has(method)) {
                assert.equal(typeof message.result.ttlMs, 'number', `${method} has ttlMs`);
                assert.ok(['public', 'private'].includes(message.result.cacheScope), `${method} has cacheScope`);
            }
        }
        for (const x of s.recorder.exchanges) {
            assert.equal(x.responseHeaders?.['mcp-session-id'], undefined, `no Mcp-Session-Id on the answer to ${x.message?.method}`);
            assert.equal(x.requestHeaders['mcp-session-id'], undefined, 'the client never sent one either');
            if (x.message && 'id' in x.message) {
                assert.equal(x.message.params?._meta?.[META_PROTOCOL_VERSION], MODERN, `${x.message.method} carries the envelope`);
                assert.ok(x.message.params._meta[META_CLIENT_CAPABILITIES], `${x.message.method} carries clientCapabilities`);
                assert.equal(x.requestHeaders['mcp-method'], x.message.method);
            }
        }
        const benign = /Received a progress notification for an unknown token/;
        assert.deepEqual(s.errors.map(String).filter((e) => !benign.test(e)), [], 'no errors reached the client');
    });
});

describe('the 2026-07-28 request headers, by hand', { timeout: 60_000 }, () => {
    let srv;
    before(async () => {
        srv = await HttpDemo.start();
    });
    after(async () => {
        await srv?.close();
    });

    const send = async (message, headers) => {
        const response = await fetch(srv.url, { method: 'POST', headers, body: JSON.stringify(message), signal: AbortSignal.timeout(5000) });
        const text = await response.text();
        return { status: response.status, headers: response.headers, text, message: text ? JSON.parse(text) : undefined };
    };

    test('headers that disagree with the body, or are missing, get 400 and -32020 with the request id', TEST, async () => {
        const call = modernRequest(11, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
        const cases = [
            ['Mcp-Name names another tool', { ...modernHeaders(call), 'mcp-name': 'add_note' }],
            ['Mcp-Method names another method', { ...modernHeaders(call), 'mcp-method': 'tools/list' }],
            ['no Mcp-Name', (({ 'mcp-name': _, ...rest }) => rest)(modernHeaders(call))],
            ['no Mcp-Method', (({ 'mcp-method': _, ...rest }) => rest)(modernHeaders(call))],
            ['MCP-Protocol-Version differs from _meta', { ...modernHeaders(call), 'mcp-protocol-version': '2025-11-25' }],
        ];
        for (const [what, headers] of cases) {
            const r = await send(call, headers);
            assert.equal(r.status, 400, `${what}: HTTP status (${r.text})`);
            assert.equal(r.message?.id, 11, `${what}: the error echoes the id`);
            assert.equal(r.message?.error?.code, -32020, `${what}: HeaderMismatch (${r.text})`);
        }
        // Header names are case-insensitive.
        const upper = Object.fromEntries(Object.entries(modernHeaders(call)).map(([k, v]) => [k.toUpperCase(), v]));
        const ok = await send(call, upper);
        assert.equal(ok.status, 200, ok.text);
        assert.deepEqual(ok.message.result.content, [{ type: 'text', text: 'x' }]);
    });

    test('a stray Mcp-Session-Id or Last-Event-ID on a 2026 request is ignored, and no session id is minted', TEST, async () => {
        const call = modernRequest(12, 'tools/call', { name: 'echo', arguments: { text: 'y' } });
        for (const extra of [{ 'mcp-session-id': 'not-a-session-0123456789abcdef' }, { 'last-event-id': 'not-an-event-id' }]) {
            const r = await send(call, { ...modernHeaders(call), ...extra });
            assert.equal(r.status, 200, `${JSON.stringify(extra)}: ${r.text}`);
            assert.equal(r.message.result.resultType, 'complete');
            assert.equal(r.headers.get('mcp-session-id'), null, 'no session id is minted or echoed');
        }
    });
});

describe('SDK v2 client in auto and legacy modes over Streamable HTTP', { timeout: 60_000 }, () => {
    let srv;
    const connections = [];
    before(async () => {
        srv = await HttpDemo.start();
    });
    after(async () => {
        await closeAll(...connections);
        await srv?.close();
    });

    test('auto probes server/discover first and settles on 2026-07-28', TEST, async () => {
        const c = await connect(srv.url, 'auto');
        connections.push(c);
        assert.equal(c.client.getNegotiatedProtocolVersion(), MODERN);
        const first = c.recorder.exchanges[0];
        assert.equal(first.message?.method, 'server/discover', 'the first request is the discover probe');
        assert.equal(first.requestHeaders['mcp-protocol-version'], MODERN);
        assert.equal(first.status, 200);
        assert.deepEqual(c.recorder.posted('initialize'), []);
        const result = await c.client.callTool({ name: 'echo', arguments: { text: 'auto' } }, REQUEST);
        assert.deepEqual(result.content, [{ type: 'text', text: 'auto' }]);
        const x = exchangeOf(c.recorder, c.wire.sent.findLast((m) => m.method === 'tools/call').id);
        assert.equal(messagesOf(x)[0].result.resultType, 'complete');
        assert.ok(c.recorder.exchanges.every((e) => e.responseHeaders?.['mcp-session-id'] === undefined), 'no session');
    });

    test('legacy settles on 2025-11-25 with a session', TEST, async () => {
        const c = await connect(srv.url, 'legacy');
        connections.push(c);
        assert.equal(c.client.getNegotiatedProtocolVersion(), '2025-11-25');
        assert.equal(c.client.getProtocolEra(), 'legacy');
        const [init] = c.recorder.posted('initialize');
        assert.ok(init, 'initialize was POSTed');
        assert.deepEqual(c.recorder.posted('server/discover'), [], 'no probe in legacy mode');
        const sessionId = init.responseHeaders['mcp-session-id'];
        assert.match(sessionId ?? '', /^[\x21-\x7e]{22,}$/);
        const result = await c.client.callTool({ name: 'slow_count', arguments: { to: 2, step_ms: 1 } }, { ...REQUEST, onprogress: () => {} });
        assert.equal(textOf(result), 'Counted to 2');
        const x = exchangeOf(c.recorder, c.wire.sent.findLast((m) => m.method === 'tools/call').id);
        assert.equal(x.requestHeaders['mcp-session-id'], sessionId);
        assert.equal(x.requestHeaders['mcp-protocol-version'], '2025-11-25');
        assert.equal(x.requestHeaders['mcp-method'], undefined, 'no 2026 headers on the legacy wire');
    });
});
