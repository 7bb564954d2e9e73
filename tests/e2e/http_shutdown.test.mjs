// End-to-end: graceful shutdown of mcp-cpp-demo over Streamable HTTP. SIGTERM while calls run on
// both protocol eras: the calls in flight finish and are answered within --shutdown-grace, new
// connections are refused, the process exits 0; with a short grace a long call cannot hold it up.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/http_shutdown.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { HttpDemo, modernHeaders, modernRequest, sleep, SseReader, tryConnect, withTimeout } from './helpers.mjs';

const TEST = { timeout: 30_000 };
const ACCEPT = 'application/json, text/event-stream';

// A 2025-11-25 session opened by hand: initialize, then notifications/initialized.
async function legacySession(url) {
    const init = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT },
        body: JSON.stringify({
            jsonrpc: '2.0', id: 'init', method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcp-cpp-e2e-shutdown', version: '1.0.0' } },
        }),
        signal: AbortSignal.timeout(5000),
    });
    assert.equal(init.status, 200, 'initialize');
    const sessionId = init.headers.get('mcp-session-id');
    await init.text();
    assert.ok(sessionId, 'a session id');
    const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    const initialized = await fetch(url, {
        method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), signal: AbortSignal.timeout(5000),
    });
    await initialized.text();
    assert.equal(initialized.status, 202);
    return headers;
}

// POSTs a request; the response is awaited by the caller (it may stream for a while).
function post(url, headers, message, abort) {
    return fetch(url, { method: 'POST', headers, body: JSON.stringify(message), signal: abort.signal });
}

const slowCount = (to, progressToken) => ({
    name: 'slow_count',
    arguments: { to, step_ms: 50 },
    ...(progressToken === undefined ? {} : { _meta: { progressToken } }),
});

// Settles with {value} or {error}, so that a test can inspect an outcome without an unhandled rejection.
const settle = (promise) => promise.then((value) => ({ value }), (error) => ({ error }));

describe('SIGTERM while calls run on both eras (default --shutdown-grace 10s)', { timeout: 60_000 }, () => {
    let srv;
    const abort = new AbortController();  // ends every request of this suite in after()
    const outcome = {};                     // filled by before(): what each call and the process did
    before(async () => {
        srv = await HttpDemo.start();
        // 2026-07-28: one stateless POST, answered as SSE because it asks for progress.
        const modern = modernRequest(1, 'tools/call', slowCount(20, 'modern'));
        const modernResponse = await post(srv.url, modernHeaders(modern), modern, abort);
        assert.equal(modernResponse.status, 200);
        const modernStream = new SseReader(modernResponse);
        // 2025-11-25: a call with progress (SSE) and one without (a plain JSON answer) in a session.
        const headers = await legacySession(srv.url);
        const legacyResponse = await post(srv.url, headers,
            { jsonrpc: '2.0', id: 2, method: 'tools/call', params: slowCount(20, 'legacy') }, abort);
        assert.equal(legacyResponse.status, 200);
        const legacyStream = new SseReader(legacyResponse);
        const legacyJson = settle(post(srv.url, headers, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: slowCount(20) }, abort)
            .then(async (r) => ({ status: r.status, type: r.headers.get('content-type'), text: await r.text() })));
        // A 2026 subscriptions/listen stream, open when the signal comes.
        const listen = modernRequest('listen-1', 'subscriptions/listen', { notifications: { resourceSubscriptions: ['demo://notes/todo'] } });
        const listenStream = new SseReader(await post(srv.url, modernHeaders(listen), listen, abort));
        await listenStream.next((m) => m.method === 'notifications/subscriptions/acknowledged', 5000, 'the listen acknowledgement');

        // All three are under way: both streams reported a first step.
        await modernStream.next((m) => m.method === 'notifications/progress', 5000, 'the first 2026 progress');
        await legacyStream.next((m) => m.method === 'notifications/progress', 5000, 'the first 2025 progress');
        outcome.signalledAt = Date.now();
        srv.signal('SIGTERM');
        await sleep(100);
        outcome.connectAfterSignal = await settle(tryConnect(srv.port, 3000));
        const untilResult = (stream, what) => settle(stream.next((m) => 'id' in m && !('method' in m), 8000, what)
            .then(({ message }) => ({ message, at: Date.now(), stream })));
        [outcome.modern, outcome.legacy, outcome.legacyJson, outcome.listen] = await Promise.all([
            untilResult(modernStream, 'the 2026 call\'s response'),
            untilResult(legacyStream, 'the 2025 call\'s response'),
            withTimeout(legacyJson, 8000, 'the 2025 JSON call\'s response').catch((error) => ({ error })),
            settle(listenStream.rest(8000).then(() => listenStream)),
        ]);
        outcome.exit = await settle(srv.exited(10_000));
        outcome.exitedAt = Date.now();
        outcome.streams = { modernStream, legacyStream };
    });
    after(async () => {
        abort.abort();
        await srv?.close();
    });

    test('the 2026-07-28 call in flight gets its result, after every step', TEST, () => {
        assert.ok(!outcome.modern.error, `${outcome.modern.error}`);
        const { message, stream } = outcome.modern.value;
        assert.equal(message.id, 1);
        assert.deepEqual(message.result?.content, [{ type: 'text', text: 'Counted to 20' }], JSON.stringify(message));
        assert.equal(message.result.resultType, 'complete');
        const steps = stream.events.filter((e) => e.data).map((e) => JSON.parse(e.data))
            .filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress);
        assert.deepEqual(steps, Array.from({ length: 20 }, (_, i) => i + 1));
    });

    test('the 2025-11-25 call in flight (SSE answer) gets its result', TEST, () => {
        assert.ok(!outcome.legacy.error, `${outcome.legacy.error?.message ?? outcome.legacy.error}`);
        const { message } = outcome.legacy.value;
        assert.equal(message.id, 2);
        assert.deepEqual(message.result?.content, [{ type: 'text', text: 'Counted to 20' }], JSON.stringify(message));
    });

    test('the 2025-11-25 call in flight (JSON answer) gets its result', TEST, () => {
        assert.ok(!outcome.legacyJson.error, `${outcome.legacyJson.error?.message ?? outcome.legacyJson.error}`);
        const { status, type, text } = outcome.legacyJson.value;
        assert.equal(status, 200);
        const message = type.startsWith('text/event-stream')
            ? text.split('\n').filter((l) => l.startsWith('data: ') && l.length > 6).map((l) => JSON.parse(l.slice(6))).find((m) => m.id === 3)
            : JSON.parse(text);
        assert.deepEqual(message?.result?.content, [{ type: 'text', text: 'Counted to 20' }], text.slice(0, 500));
    });

    test('the open subscriptions/listen stream ends gracefully with its result', TEST, () => {
        assert.ok(!outcome.listen.error, `the listen stream did not end cleanly: ${outcome.listen.error}`);
        const stream = outcome.listen.value;
        assert.equal(stream.error, undefined, `the listen stream broke: ${stream.error}`);
        const messages = stream.events.filter((e) => e.data).map((e) => JSON.parse(e.data));
        const end = messages.at(-1);
        assert.equal(end?.id, 'listen-1', `the last message is the listen response: ${stream.text.slice(-500)}`);
        assert.equal(end.result?.resultType, 'complete');
        assert.equal(end.result._meta?.['io.modelcontextprotocol/subscriptionId'], 'listen-1');
    });

    test('a new connection attempt after the signal is refused', TEST, () => {
        assert.ok(!outcome.connectAfterSignal.error, `${outcome.connectAfterSignal.error}`);
        const error = outcome.connectAfterSignal.value;
        assert.ok(error, 'the connection attempt failed');
        assert.equal(error.code, 'ECONNREFUSED', `${error}`);
    });

    test('the process exits 0 soon after the last call finished', TEST, () => {
        assert.ok(!outcome.exit.error, `${outcome.exit.error}\n${srv.stderrTail()}`);
        assert.deepEqual(outcome.exit.value, { code: 0, signal: null }, srv.stderrTail());
        // 20 steps of 50 ms: the calls end about a second after they started; the process follows.
        const elapsed = outcome.exitedAt - outcome.signalledAt;
        assert.ok(elapsed < 5000, `exited ${elapsed} ms after SIGTERM`);
        assert.match(srv.stderr, /shutting down/);
    });
});

describe('SIGTERM with --shutdown-grace 200ms and a call far from done', { timeout: 60_000 }, () => {
    let srv;
    const abort = new AbortController();
    after(async () => {
        abort.abort();
        await srv?.close();
    });

    test('the process still exits 0 promptly; the call\'s streams end', TEST, async () => {
        srv = await HttpDemo.start(['--shutdown-grace', '200ms']);
        const modern = modernRequest(1, 'tools/call', slowCount(1000, 'long'));  // 50 s of counting
        const modernStream = new SseReader(await post(srv.url, modernHeaders(modern), modern, abort));
        const headers = await legacySession(srv.url);
        const legacyStream = new SseReader(await post(srv.url, headers,
            { jsonrpc: '2.0', id: 2, method: 'tools/call', params: slowCount(1000, 'long-legacy') }, abort));
        await modernStream.next((m) => m.method === 'notifications/progress', 5000, 'the first 2026 progress');
        await legacyStream.next((m) => m.method === 'notifications/progress', 5000, 'the first 2025 progress');

        const signalledAt = Date.now();
        srv.signal('SIGTERM');
        const exit = await srv.exited(5000);
        const elapsed = Date.now() - signalledAt;
        assert.deepEqual(exit, { code: 0, signal: null }, srv.stderrTail());
        // 200 ms of grace, then the cancelled handler notices within a step (50 ms).
        assert.ok(elapsed < 3000, `exited ${elapsed} ms after SIGTERM (grace 200 ms)`);
        // Neither client is left hanging: both response streams are closed (cleanly or not).
        await settle(modernStream.rest(3000));
        await settle(legacyStream.rest(3000));
        assert.ok(modernStream.done, 'the 2026 response stream ended');
        assert.ok(legacyStream.done, 'the 2025 response stream ended');
    });
});
