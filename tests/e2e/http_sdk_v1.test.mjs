// End-to-end: the official MCP TypeScript SDK v1 client (@modelcontextprotocol/sdk 1.32.2) drives
// mcp-cpp-demo over Streamable HTTP on the 2025-11-25 wire: sessions, SSE streams, resumption.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/http_sdk_v1.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
    LoggingMessageNotificationSchema,
    McpError,
    ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

import {
    decodePng,
    HttpDemo,
    HttpRecorder,
    parseSse,
    PNG_SIGNATURE,
    schemaProblems,
    sleep,
    sseMessages,
    tapTransport,
    waitUntil,
    withTimeout,
} from './helpers.mjs';

const REQUEST = { timeout: 15_000 };  // every SDK request fails after this instead of hanging
const TEST = { timeout: 30_000 };     // every test
// The demo's tools, sorted.
const TOOL_NAMES = ['add_note', 'color_swatch', 'connect_account', 'delete_note', 'draft_note', 'echo', 'export_notes', 'project_roots',
    'slow_count', 'word_stats'];
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

// A connected v1 client over Streamable HTTP. `recorder` sees every HTTP exchange (raw bodies),
// `wire` every JSON-RPC message the transport handed over or sent.
async function connect(url, { intercept } = {}) {
    const recorder = new HttpRecorder({ intercept });
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recorder.fetch });
    const wire = tapTransport(transport);
    const client = new Client({ name: 'mcp-cpp-e2e-http', version: '1.0.0' }, { capabilities: {} });
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
            // closing is best effort
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
    assert.ok(error instanceof McpError, `expected an McpError, got ${error}`);
    assert.equal(error.code, code, `error code (message: ${error.message})`);
    return error;
}

const textOf = (result) => {
    assert.equal(result.content?.[0]?.type, 'text', `first content block is text: ${JSON.stringify(result)}`);
    return result.content[0].text;
};

async function readStats(client) {
    const r = await client.readResource({ uri: 'demo://server/stats' }, REQUEST);
    return JSON.parse(r.contents[0].text);
}

// A raw POST of one JSON-RPC message on the 2025 wire, bounded; returns {status, headers, text}.
async function rawPost(url, message, headers = {}) {
    const response = await fetch(url, {
        method: 'POST',
        headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
            ...headers,
        },
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
}

// The exchange that POSTed the tools/call whose request id is `id`.
function callExchange(recorder, id) {
    const [x] = recorder.find((m) => m.method === 'tools/call' && m.id === id);
    assert.ok(x, `the POST of tools/call id ${id} was recorded`);
    return x;
}

describe('mcp-cpp-demo through the SDK v1 client over Streamable HTTP', { timeout: 170_000 }, () => {
    let srv;
    let s;  // the shared connection of most tests
    before(async () => {
        srv = await HttpDemo.start();
        s = await connect(srv.url);
    });
    after(async () => {
        await closeAll(s);
        await srv?.close();
    });

    test('initialize assigns a session id of visible ASCII; later requests carry it', TEST, async () => {
        const [init] = s.recorder.posted('initialize');
        assert.ok(init, 'initialize was POSTed');
        assert.equal(init.message.params.protocolVersion, '2025-11-25');
        assert.equal(init.status, 200);
        const sessionId = init.responseHeaders['mcp-session-id'];
        assert.ok(sessionId, `the initialize response has Mcp-Session-Id: ${JSON.stringify(init.responseHeaders)}`);
        assert.match(sessionId, VISIBLE_ASCII, 'session id is visible ASCII (0x21-0x7E)');
        assert.ok(sessionId.length >= 22, `session id ${sessionId} has at least 22 characters (~128 bits)`);
        assert.equal(s.transport.sessionId, sessionId);
        const initResult = s.wire.received.find((m) => m.id === init.message.id);
        assert.equal(initResult?.result?.protocolVersion, '2025-11-25');
        assert.equal(s.transport.protocolVersion, '2025-11-25');
        assert.deepEqual(s.client.getServerVersion(), {
            name: 'mcp-cpp-demo',
            version: '0.1.0',
            title: 'mcp-cpp demo: a notes assistant',
        });
        const caps = s.client.getServerCapabilities();
        assert.deepEqual(caps.resources, { subscribe: true, listChanged: true });
        assert.deepEqual(caps.logging, {});
        assert.deepEqual(caps.completions, {});
        assert.deepEqual(caps.extensions, { 'io.modelcontextprotocol/skills': { directoryRead: true },
            'io.modelcontextprotocol/tasks': {}, 'io.modelcontextprotocol/ui': {} });
        // export_notes runs as a task: the 2025 experimental tasks capability too.
        assert.deepEqual(caps.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });

        const [initialized] = s.recorder.posted('notifications/initialized');
        assert.equal(initialized?.status, 202, 'notifications/initialized is accepted with 202');
        await waitUntil(() => initialized.ended, 2000, 'the 202 body to end');
        assert.equal(initialized.body, '', '202 has no body');

        // The SDK opened the standalone GET stream right after initialized.
        const get = s.recorder.exchanges.find((x) => x.method === 'GET');
        assert.ok(get, 'the SDK opened a GET stream');
        await waitUntil(() => get.status !== undefined || get.error, 5000, 'the answer to the GET');
        assert.equal(get.status, 200);
        assert.match(get.responseHeaders['content-type'], /^text\/event-stream/);
        assert.equal(get.requestHeaders['mcp-session-id'], sessionId);

        await s.client.ping(REQUEST);
        const later = s.recorder.exchanges.slice(s.recorder.exchanges.indexOf(init) + 1);
        for (const x of later) {
            assert.equal(x.requestHeaders['mcp-session-id'], sessionId, `${x.method} ${x.requestBody ?? ''} carries the session id`);
            assert.equal(x.requestHeaders['mcp-protocol-version'], '2025-11-25');
        }

        // A second client gets a session of its own.
        const other = await connect(srv.url);
        try {
            assert.ok(other.transport.sessionId);
            assert.notEqual(other.transport.sessionId, sessionId);
        } finally {
            await closeAll(other);
        }
    });

    test('tools/list lists every tool; every tool is callable', TEST, async () => {
        const { tools, nextCursor } = await s.client.listTools({}, REQUEST);
        assert.equal(nextCursor, undefined);
        assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
        const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
        for (const tool of tools) assert.equal(tool.inputSchema.type, 'object', `${tool.name} inputSchema`);

        const text = 'héllo 🌍 "quoted" \\ back\nslash';
        const echo = await s.client.callTool({ name: 'echo', arguments: { text } }, undefined, REQUEST);
        assert.deepEqual(echo.content, [{ type: 'text', text }]);

        const stats = await s.client.callTool(
            { name: 'word_stats', arguments: { text: 'The cat and the hat\nthe end', top: 2 } }, undefined, REQUEST);
        assert.deepEqual(stats.structuredContent, {
            words: 7,
            characters: 27,
            lines: 2,
            top_words: [{ word: 'the', count: 3 }, { word: 'and', count: 1 }],
        });
        assert.deepEqual(JSON.parse(textOf(stats)), stats.structuredContent, 'text mirror == structuredContent');
        assert.deepEqual(schemaProblems(byName.word_stats.outputSchema, stats.structuredContent), []);

        const swatch = await s.client.callTool({ name: 'color_swatch', arguments: { color: 'purple', size: 5 } }, undefined, REQUEST);
        assert.equal(swatch.content.length, 1);
        assert.equal(swatch.content[0].type, 'image');
        assert.equal(swatch.content[0].mimeType, 'image/png');
        const bytes = Buffer.from(swatch.content[0].data, 'base64');
        assert.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE));
        const png = decodePng(bytes);
        assert.equal(png.width, 5);
        assert.equal(png.height, 5);
        assert.deepEqual(png.pixel(4, 4).slice(0, 3), [140, 60, 180]);

        const note = await s.client.callTool({ name: 'add_note', arguments: { slug: 'http-v1', body: '# Over HTTP' } }, undefined, REQUEST);
        assert.deepEqual(note.content.map((c) => [c.type, c.uri, c.name]), [['resource_link', 'demo://notes/http-v1', 'http-v1']]);

        const count = await s.client.callTool({ name: 'slow_count', arguments: { to: 2, step_ms: 1 } }, undefined, REQUEST);
        assert.equal(textOf(count), 'Counted to 2');

        const bad = await s.client.callTool({ name: 'color_swatch', arguments: { color: 'pink' } }, undefined, REQUEST);
        assert.equal(bad.isError, true);
        assert.match(textOf(bad), /color/);
        await rejectsWithCode(s.client.callTool({ name: 'no_such_tool', arguments: {} }, undefined, REQUEST), -32602);
    });

    test('resources: list, read, templates, a note through the template, unknown → -32002', TEST, async () => {
        const { resources } = await s.client.listResources({}, REQUEST);
        assert.deepEqual(resources.map((r) => [r.uri, r.name, r.mimeType]), [['demo://server/stats', 'stats', 'application/json'],
            ['skill://notes-style/SKILL.md', 'notes-style', 'text/markdown'],
            ['skill://notes-style/examples/good-note.md', 'good-note.md', 'text/markdown'],
            ['ui://mcp-cpp-demo/word-stats', 'Word statistics', 'text/html;profile=mcp-app']]);
        const stats = await readStats(s.client);
        assert.deepEqual(Object.keys(stats).sort(), ['cancellations_observed', 'notes', 'tool_calls']);

        const { resourceTemplates } = await s.client.listResourceTemplates({}, REQUEST);
        assert.deepEqual(resourceTemplates.map((t) => [t.uriTemplate, t.name, t.mimeType]), [['demo://notes/{slug}', 'note', 'text/markdown']]);
        const welcome = await s.client.readResource({ uri: 'demo://notes/welcome' }, REQUEST);
        assert.equal(welcome.contents[0].uri, 'demo://notes/welcome');
        assert.equal(welcome.contents[0].mimeType, 'text/markdown');
        assert.match(welcome.contents[0].text, /^# Welcome\n/);
        const error = await rejectsWithCode(s.client.readResource({ uri: 'demo://notes/nope' }, REQUEST), -32002);
        assert.deepEqual(error.data, { uri: 'demo://notes/nope' });
    });

    test('prompts: list and get', TEST, async () => {
        const { prompts } = await s.client.listPrompts({}, REQUEST);
        assert.deepEqual(prompts.map((p) => p.name).sort(), ['review_note', 'summarize']);
        const bullets = await s.client.getPrompt({ name: 'summarize', arguments: { text: 'Cats sleep.', style: 'bullets' } }, REQUEST);
        assert.deepEqual(bullets.messages, [
            { role: 'user', content: { type: 'text', text: 'Summarize the following text as bullet points:\n\nCats sleep.' } },
        ]);
        const review = await s.client.getPrompt({ name: 'review_note', arguments: { slug: 'shopping' } }, REQUEST);
        assert.equal(review.messages.length, 2);
        assert.equal(review.messages[1].content.type, 'resource');
        assert.equal(review.messages[1].content.resource.uri, 'demo://notes/shopping');
        await rejectsWithCode(s.client.getPrompt({ name: 'summarize', arguments: {} }, REQUEST), -32602);
    });

    test('completion/complete for a prompt argument and a template variable', TEST, async () => {
        const style = await s.client.complete(
            { ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'style', value: 'b' } }, REQUEST);
        assert.deepEqual(style.completion.values, ['brief', 'bullets']);
        const slug = await s.client.complete(
            { ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'slug', value: 'sh' } }, REQUEST);
        assert.deepEqual(slug.completion.values, ['shopping']);
        const variable = await s.client.complete(
            { ref: { type: 'ref/resource', uri: 'demo://notes/{slug}' }, argument: { name: 'slug', value: 'we' } }, REQUEST);
        assert.deepEqual(variable.completion.values, ['welcome']);
    });

    test('progress: onprogress sees increasing steps; the raw SSE stream is primed, ordered, ids unique', TEST, async () => {
        const progress = [];
        const result = await s.client.callTool(
            { name: 'slow_count', arguments: { to: 5, step_ms: 20 } }, undefined,
            { ...REQUEST, onprogress: (p) => progress.push(p) });
        assert.equal(textOf(result), 'Counted to 5');
        assert.ok(progress.length >= 3, `at least 3 progress callbacks, got ${progress.length}`);
        for (let i = 1; i < progress.length; ++i) assert.ok(progress[i].progress > progress[i - 1].progress);
        assert.ok(progress.every((p) => p.total === 5));

        const request = s.wire.sent.findLast((m) => m.method === 'tools/call' && m.params.name === 'slow_count');
        const token = request.params._meta.progressToken;
        const x = callExchange(s.recorder, request.id);
        assert.equal(x.status, 200);
        assert.match(x.responseHeaders['content-type'], /^text\/event-stream/, 'a call with progress is answered as SSE');
        await waitUntil(() => x.ended, 5000, 'the POST stream to end after the response');
        const events = parseSse(x.body, { complete: true });
        assert.ok(events[0]?.id, `the first event is a priming event with an id: ${JSON.stringify(events[0])}`);
        assert.ok(!events[0].data, 'the priming event has empty data');
        const withData = events.filter((e) => e.data);
        assert.ok(withData.every((e) => e.id), 'every message event has an id (resumable stream)');
        const ids = events.filter((e) => e.id).map((e) => e.id);
        assert.equal(new Set(ids).size, ids.length, 'event ids are unique');
        for (const id of ids) assert.match(id, VISIBLE_ASCII);
        const messages = sseMessages(events);
        const steps = messages.filter((m) => m.method === 'notifications/progress');
        assert.deepEqual(steps.map((m) => m.params.progress), [1, 2, 3, 4, 5]);
        assert.ok(steps.every((m) => m.params.progressToken === token), 'the token is echoed');
        assert.equal(messages.at(-1).id, request.id, 'the response is the last message');
        assert.deepEqual(messages.at(-1).result.content, [{ type: 'text', text: 'Counted to 5' }]);
        assert.equal(messages.filter((m) => 'id' in m).length, 1, 'one response on the stream');
    });

    test('logging: setLoggingLevel then slow_count\'s message arrives; at error it does not', TEST, async () => {
        const logs = [];
        s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
        try {
            assert.deepEqual(await s.client.setLoggingLevel('debug', REQUEST), {});
            await s.client.callTool({ name: 'slow_count', arguments: { to: 2, step_ms: 1 } }, undefined, REQUEST);
            await waitUntil(() => logs.length > 0, 5000, 'notifications/message');
            assert.deepEqual(logs, [{ level: 'info', data: 'slow_count finished' }]);
            let request = s.wire.sent.findLast((m) => m.method === 'tools/call');
            let messages = sseMessages(parseSse(callExchange(s.recorder, request.id).body, { complete: true }));
            const at = messages.findIndex((m) => m.method === 'notifications/message');
            assert.ok(at >= 0 && at < messages.findIndex((m) => m.id === request.id), 'the log message precedes the response on the call\'s stream');

            logs.length = 0;
            await s.client.setLoggingLevel('error', REQUEST);
            await s.client.callTool({ name: 'slow_count', arguments: { to: 1, step_ms: 1 } }, undefined, REQUEST);
            await sleep(100);
            assert.deepEqual(logs, [], 'an info message is not sent at level error');
            request = s.wire.sent.findLast((m) => m.method === 'tools/call');
            const x = callExchange(s.recorder, request.id);
            messages = x.responseHeaders['content-type'].startsWith('text/event-stream')
                ? sseMessages(parseSse(x.body, { complete: true })) : [JSON.parse(x.body)];
            assert.deepEqual(messages.filter((m) => m.method === 'notifications/message'), []);
        } finally {
            await s.client.setLoggingLevel('info', REQUEST);
            s.client.removeNotificationHandler('notifications/message');
        }
    });

    test('standalone GET stream: resources/updated for a subscribed note only', TEST, async () => {
        const updated = [];
        s.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updated.push(n.params.uri));
        const marker = 'demo://notes/marker';
        let markers = 0;
        const addNote = (slug, body) => s.client.callTool({ name: 'add_note', arguments: { slug, body } }, undefined, REQUEST);
        // add_note on the marker note, then wait for its notification: anything the server sent on
        // the GET stream before it has arrived by then.
        const fence = async () => {
            await addNote('marker', `marker ${++markers}`);
            await waitUntil(() => updated.filter((u) => u === marker).length === markers, 5000, `marker notification #${markers}`);
        };
        try {
            assert.deepEqual(await s.client.subscribeResource({ uri: 'demo://notes/todo' }, REQUEST), {});
            assert.deepEqual(await s.client.subscribeResource({ uri: marker }, REQUEST), {});
            await addNote('todo', '# Todo\n\n- test over HTTP');
            await waitUntil(() => updated.includes('demo://notes/todo'), 5000, 'notifications/resources/updated for todo');

            await addNote('unwatched', 'nobody subscribed');
            await fence();
            assert.deepEqual(updated.filter((u) => u !== marker), ['demo://notes/todo'], 'no notification for an unsubscribed note');

            assert.deepEqual(await s.client.unsubscribeResource({ uri: 'demo://notes/todo' }, REQUEST), {});
            await addNote('todo', 'changed');
            await fence();
            assert.deepEqual(updated.filter((u) => u !== marker), ['demo://notes/todo'], 'no notification after unsubscribe');

            // On the wire: each notification came exactly once, on the standalone GET stream.
            const deliveries = s.recorder.received().filter(({ message }) => message.method === 'notifications/resources/updated');
            assert.deepEqual(deliveries.map(({ message }) => message.params.uri),
                ['demo://notes/todo', marker, marker], 'each notification once, in order');
            for (const { exchange } of deliveries) {
                assert.equal(exchange.method, 'GET', 'resources/updated travels on the standalone GET stream');
            }
            const get = deliveries[0].exchange;
            const events = parseSse(get.body);
            assert.ok(events.filter((e) => e.data).every((e) => e.id), 'GET stream events have ids');
        } finally {
            await s.client.unsubscribeResource({ uri: marker }, REQUEST).catch(() => {});
            s.client.removeNotificationHandler('notifications/resources/updated');
        }
    });

    test('cancellation: AbortSignal → notifications/cancelled POSTed (202) → the handler stops', TEST, async () => {
        const before = await readStats(s.client);
        const controller = new AbortController();
        let seen = 0;
        const call = s.client.callTool(
            { name: 'slow_count', arguments: { to: 100, step_ms: 50 } }, undefined,
            { ...REQUEST, signal: controller.signal, onprogress: () => { if (++seen === 3) controller.abort('enough'); } });
        await assert.rejects(call, (e) => {
            assert.match(String(e?.message ?? e), /enough|abort/i);
            return true;
        });
        const request = s.wire.sent.findLast((m) => m.method === 'tools/call' && m.params.arguments?.to === 100);
        const [cancel] = s.recorder.posted('notifications/cancelled', (p) => p.requestId === request.id);
        assert.ok(cancel, 'notifications/cancelled was POSTed for the call');
        await waitUntil(() => cancel.status !== undefined, 5000, 'the answer to notifications/cancelled');
        assert.equal(cancel.status, 202);
        assert.equal(cancel.requestHeaders['mcp-session-id'], s.transport.sessionId);

        const after = await waitUntil(async () => {
            const stats = await readStats(s.client);
            return stats.cancellations_observed > before.cancellations_observed && stats;
        }, 5000, 'cancellations_observed to increase');
        assert.equal(after.cancellations_observed, before.cancellations_observed + 1);

        // No response for the cancelled request anywhere, and the count stopped early.
        await sleep(300);
        const x = callExchange(s.recorder, request.id);
        const onStream = sseMessages(parseSse(x.body, { complete: x.ended }));
        assert.deepEqual(s.recorder.received().filter(({ message }) => message.id === request.id && !('method' in message))
            .map(({ message }) => message), [], 'no response to a cancelled request');
        const steps = onStream.filter((m) => m.method === 'notifications/progress');
        assert.ok(steps.length < 20, `the count stopped early (${steps.length} steps)`);
    });

    test('10 concurrent calls are served in parallel, each on its own stream', TEST, async () => {
        const started = Date.now();
        const slow = Array.from({ length: 5 }, () => s.client.callTool(
            { name: 'slow_count', arguments: { to: 3, step_ms: 200 } }, undefined, { ...REQUEST, onprogress: () => {} }));
        const texts = Array.from({ length: 5 }, (_, i) => `echo #${i} ${Math.random().toString(36).slice(2)}`);
        const echoes = texts.map((text) => s.client.callTool({ name: 'echo', arguments: { text } }, undefined, REQUEST));
        const results = await Promise.all([...slow, ...echoes]);
        const elapsed = Date.now() - started;
        results.slice(0, 5).forEach((r) => assert.equal(textOf(r), 'Counted to 3'));
        results.slice(5).forEach((r, i) => assert.deepEqual(r.content, [{ type: 'text', text: texts[i] }]));
        // Five 600 ms counts one after the other would take 3 s.
        assert.ok(elapsed < 2500, `the slow calls overlapped (${elapsed} ms for five 600 ms counts)`);

        // Each POST stream carried only its own call's progress and response.
        const calls = s.wire.sent.filter((m) => m.method === 'tools/call' && m.params.name === 'slow_count' && m.params.arguments.step_ms === 200);
        assert.equal(calls.length, 5);
        for (const call of calls) {
            const x = callExchange(s.recorder, call.id);
            await waitUntil(() => x.ended, 5000, 'the stream to end');
            const messages = sseMessages(parseSse(x.body, { complete: true }));
            for (const m of messages) {
                if (m.method === 'notifications/progress') assert.equal(m.params.progressToken, call.params._meta.progressToken);
                else if (!m.method) assert.equal(m.id, call.id);
            }
            assert.equal(messages.filter((m) => m.method === 'notifications/progress').length, 3);
        }
    });

    test('no unexpected errors reached the client', TEST, () => {
        // Progress for an unknown token: the cancelled call's step under way when it stopped.
        const benign = /Received a progress notification for an unknown token/;
        assert.deepEqual(s.errors.map(String).filter((e) => !benign.test(e)), []);
    });
});

describe('resumption: a POST stream cut mid-call is resumed with GET + Last-Event-ID', { timeout: 60_000 }, () => {
    let srv;
    let c;
    before(async () => {
        srv = await HttpDemo.start();
    });
    after(async () => {
        await closeAll(c);
        await srv?.close();
    });

    test('the client receives the rest of the progress and the result through the replay', TEST, async () => {
        // Cut the connection of the slow_count POST once its priming event and one progress
        // event arrived. The SDK v1 then reconnects by itself (streamableHttp.js _handleSseStream:
        // a stream with a priming event id that breaks before its response is resumed with GET and
        // Last-Event-ID after the server's retry: delay).
        let cutAt;
        c = await connect(srv.url, {
            intercept: (x) => {
                if (x.method !== 'POST' || x.message?.method !== 'tools/call' || cutAt) return false;
                const events = parseSse(x.body);
                const progressed = sseMessages(events).some((m) => m.method === 'notifications/progress');
                if (events[0]?.id && progressed) {
                    cutAt = events.filter((e) => e.id).at(-1).id;
                    return true;
                }
                return false;
            },
        });
        const statsBefore = await readStats(c.client);
        const progress = [];
        const result = await withTimeout(c.client.callTool(
            { name: 'slow_count', arguments: { to: 10, step_ms: 100 } }, undefined,
            { ...REQUEST, onprogress: (p) => progress.push(p.progress) }), 15_000, 'the resumed call');
        assert.equal(textOf(result), 'Counted to 10');
        assert.ok(cutAt, 'the POST stream was cut');

        const request = c.wire.sent.find((m) => m.method === 'tools/call');
        const post = callExchange(c.recorder, request.id);
        assert.ok(post.cut, 'the POST stream was cut by the test');
        const resumed = c.recorder.exchanges.filter((x) => x.method === 'GET' && x.requestHeaders['last-event-id']);
        assert.equal(resumed.length, 1, 'one GET with Last-Event-ID');
        const [get] = resumed;
        assert.equal(get.requestHeaders['last-event-id'], cutAt, 'it resumes after the last event the client saw');
        assert.equal(get.requestHeaders['mcp-session-id'], c.transport.sessionId);
        assert.equal(get.status, 200);
        assert.match(get.responseHeaders['content-type'], /^text\/event-stream/);

        // The replay continues exactly where the cut left off: no step lost, none repeated.
        const beforeCut = sseMessages(parseSse(post.body)).filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress);
        const replayed = sseMessages(parseSse(get.body, { complete: get.ended }));
        const replayedSteps = replayed.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress);
        assert.deepEqual([...beforeCut, ...replayedSteps], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
            `steps before the cut ${JSON.stringify(beforeCut)} + replayed ${JSON.stringify(replayedSteps)}`);
        assert.ok(replayed.some((m) => m.id === request.id && m.result), 'the result was replayed on the GET');
        // Only that stream's events are replayed: this call's progress, its log message, its result.
        const token = request.params._meta.progressToken;
        for (const m of replayed) {
            const ours = (m.method === 'notifications/progress' && m.params.progressToken === token)
                || (m.method === 'notifications/message' && m.params.data === 'slow_count finished')
                || (!('method' in m) && m.id === request.id);
            assert.ok(ours, `the replay holds only the cut stream's messages: ${JSON.stringify(m)}`);
        }
        const replayIds = parseSse(get.body).filter((e) => e.id).map((e) => e.id);
        assert.ok(!replayIds.includes(cutAt), 'the Last-Event-ID event itself is not replayed');
        assert.ok(progress.length > 0, 'onprogress was called');

        // A dropped connection is no cancellation on the 2025 wire.
        const statsAfter = await readStats(c.client);
        assert.equal(statsAfter.cancellations_observed, statsBefore.cancellations_observed, 'the handler was not cancelled');
        assert.equal(statsAfter.tool_calls, statsBefore.tool_calls + 1);
    });
});

describe('session termination and unknown sessions', { timeout: 60_000 }, () => {
    let srv;
    let c;
    before(async () => {
        srv = await HttpDemo.start();
    });
    after(async () => {
        await closeAll(c);
        await srv?.close();
    });

    test('terminateSession() sends DELETE; the old session id then gets 404', TEST, async () => {
        c = await connect(srv.url);
        const sessionId = c.transport.sessionId;
        assert.ok(sessionId);
        await c.client.ping(REQUEST);
        await c.transport.terminateSession();
        const [del] = c.recorder.exchanges.filter((x) => x.method === 'DELETE');
        assert.ok(del, 'a DELETE was sent');
        assert.equal(del.requestHeaders['mcp-session-id'], sessionId);
        assert.ok(del.status >= 200 && del.status < 300, `DELETE answered 2xx, got ${del.status}`);
        assert.equal(c.transport.sessionId, undefined);

        const post = await rawPost(srv.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': sessionId });
        assert.equal(post.status, 404, `POST with a terminated session: ${post.status} ${post.text}`);
        const get = await fetch(srv.url, {
            headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
            signal: AbortSignal.timeout(5000),
        });
        await get.body?.cancel();
        assert.equal(get.status, 404, 'GET with a terminated session');
        // The standalone GET stream of the session ended with it.
        const stream = c.recorder.exchanges.find((x) => x.method === 'GET');
        await waitUntil(() => stream.ended, 5000, 'the terminated session\'s GET stream to end');
    });

    test('an unknown session id gets 404; no session id at all gets 400', TEST, async () => {
        const unknown = await rawPost(srv.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' },
            { 'mcp-session-id': 'no-such-session-0123456789abcdef' });
        assert.equal(unknown.status, 404, `unknown session: ${unknown.status} ${unknown.text}`);
        const none = await rawPost(srv.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
        assert.equal(none.status, 400, `no session: ${none.status} ${none.text}`);
        const del = await fetch(srv.url, {
            method: 'DELETE',
            headers: { 'mcp-session-id': 'no-such-session-0123456789abcdef', 'mcp-protocol-version': '2025-11-25' },
            signal: AbortSignal.timeout(5000),
        });
        await del.body?.cancel();
        assert.equal(del.status, 404, 'DELETE of an unknown session');
    });
});

describe('tools/list pagination with --page-size 2 over HTTP', { timeout: 60_000 }, () => {
    let srv;
    let c;
    before(async () => {
        srv = await HttpDemo.start(['--page-size', '2']);
        c = await connect(srv.url);
    });
    after(async () => {
        await closeAll(c);
        await srv?.close();
    });

    test('five pages of 2 tools; a forged cursor is -32602', TEST, async () => {
        const pages = [];
        let cursor;
        do {
            assert.ok(pages.length < 10, 'pagination terminates');
            const page = await c.client.listTools(cursor === undefined ? {} : { cursor }, REQUEST);
            pages.push(page.tools.map((t) => t.name));
            cursor = page.nextCursor;
        } while (cursor !== undefined);
        assert.deepEqual(pages.map((p) => p.length), [2, 2, 2, 2, 2]);
        assert.deepEqual(pages.flat().sort(), TOOL_NAMES);
        await rejectsWithCode(c.client.listTools({ cursor: 'Zm9yZ2VkIGN1cnNvcg' }, REQUEST), -32602);
    });
});
