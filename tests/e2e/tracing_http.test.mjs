// The spans the Streamable HTTP transport records itself (docs/adr/0030-tracing.md, decisions 11
// and 12), exported over OTLP/HTTP to the receiver of the tracing suites and decoded with
// @opentelemetry/otlp-transformer's protobuf root. Checked: a bearer token verified under the
// request's traceparent (the core's SERVER span its child), a new trace when there is none, a refused
// token's ERROR span, the JWKS fetch an unknown key causes as a CLIENT child, an opaque token's
// introspection as a CLIENT child, an unsampled caller leaving nothing; a 2025 GET stream's SERVER span with an event per notification, its next span
// (linked) after --otel-stream-span-events events, and a resumption's span linked to the stream's.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/tracing_http.test.mjs
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

import { AuthorizationServer, INTROSPECTION_CLIENT } from './authorization_server.mjs';
import { modernCall } from './cluster.mjs';
import { freePort, HttpDemo, SseReader, waitUntil } from './helpers.mjs';
import { Receiver, SPAN_KIND, STATUS_ERROR } from './otlp_receiver.mjs';

const TEST = { timeout: 60_000 };
const { SERVER, INTERNAL, CLIENT } = SPAN_KIND;

const cleanups = [];
after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
});

async function startReceiver() {
    const receiver = await Receiver.start();
    cleanups.push(() => receiver.close());
    return receiver;
}

async function startDemo(args, port) {
    const metricsPort = await freePort();
    const demo = await HttpDemo.start(['--metrics', `127.0.0.1:${metricsPort}`, ...args], { port });
    demo.ops = `http://127.0.0.1:${metricsPort}`;
    cleanups.push(() => demo.close());
    return demo;
}

// A trace id and a caller's span id of their own for each test.
let traces = 0;
function newTrace() {
    traces += 1;
    const n = traces.toString(16);
    return { traceId: `${'c'.repeat(32 - n.length)}${n}`, parent: `${'d'.repeat(16 - n.length)}${n}` };
}

describe('bearer token verification', () => {
    let receiver;
    let as;
    let demo;
    const call = (id, token, headers = {}) => modernCall(demo.url, id, 'tools/call',
        { name: 'word_stats', arguments: { text: 'one two' } },
        { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

    test('start the receiver, the authorization server and the demo', TEST, async () => {
        receiver = await startReceiver();
        as = await AuthorizationServer.start();
        cleanups.push(() => as.close());
        demo = await startDemo(['--auth-issuer', as.issuer, '--otlp-endpoint', receiver.url]);
        // The keys are loaded: the first check makes no fetch of its own.
        await waitUntil(async () => (await fetch(`${demo.ops}/readyz`)).status === 200, 10_000, 'the demo ready');
    });

    test('a token taken: `verify token` under the traceparent header, the SERVER span its child', TEST, async () => {
        const { traceId, parent } = newTrace();
        const r = await call('auth-1', await as.forge({ aud: demo.url }), { traceparent: `00-${traceId}-${parent}-01`, tracestate: 'vendor=3' });
        assert.equal(r.status, 200, r.text);

        const verify = await receiver.span((s) => s.traceId === traceId && s.name === 'verify token', 'the verify span');
        assert.equal(verify.kind, INTERNAL);
        assert.equal(verify.parentSpanId, parent);
        assert.equal(verify.traceState, 'vendor=3');
        assert.equal(verify.flags, 0x301, 'sampled, and the parent is remote');
        assert.equal(verify.status.code ?? 0, 0);
        assert.equal(verify.attributes['error.type'], undefined);
        const server = await receiver.span((s) => s.traceId === traceId && s.kind === SERVER, 'the server span');
        assert.equal(server.name, 'tools/call word_stats');
        assert.equal(server.parentSpanId, verify.spanId, 'the SERVER span is the child of the verification');
        assert.equal(server.flags, 0x101, 'sampled, and its parent is in this process: not remote');
        assert.equal(server.attributes['network.transport'], 'tcp');
        assert.equal(server.attributes['client.address'], '127.0.0.1');
        assert.match(server.attributes['client.port'], /^[1-9][0-9]*$/);
        assert.equal(server.traceState, 'vendor=3');
        assert.ok(server.startTimeUnixNano >= verify.endTimeUnixNano);
        assert.equal(receiver.spans.filter((s) => s.traceId === traceId && s.kind === CLIENT).length, 0, 'no fetch: the keys were loaded');
    });

    test('without a traceparent the verification starts the trace the SERVER span continues', TEST, async () => {
        const r = await call('auth-2', await as.forge({ aud: demo.url }));
        assert.equal(r.status, 200, r.text);
        const server = await receiver.span((s) => s.attributes['jsonrpc.request.id'] === 'auth-2', 'the server span');
        const verify = await receiver.span((s) => s.spanId === server.parentSpanId, 'its parent');
        assert.equal(verify.name, 'verify token');
        assert.equal(verify.parentSpanId, '', 'a root');
        assert.equal(verify.traceId, server.traceId);
        assert.equal(server.flags, 0x101, 'its parent is in this process');
    });

    test('a refused token leaves its span, status ERROR with error.type', TEST, async () => {
        const wrongAudience = newTrace();
        const r = await call('auth-3', await as.forge({ aud: 'https://elsewhere.example/mcp' }),
            { traceparent: `00-${wrongAudience.traceId}-${wrongAudience.parent}-01` });
        assert.equal(r.status, 401);
        const refused = await receiver.span((s) => s.traceId === wrongAudience.traceId, 'the refused span');
        assert.equal(refused.name, 'verify token');
        assert.equal(refused.parentSpanId, wrongAudience.parent);
        assert.equal(refused.status.code, STATUS_ERROR);
        assert.equal(refused.attributes['error.type'], 'invalid_token');
        assert.ok(refused.status.message.length > 0);

        const none = newTrace();
        assert.equal((await call('auth-4', undefined, { traceparent: `00-${none.traceId}-${none.parent}-01` })).status, 401);
        const missing = await receiver.span((s) => s.traceId === none.traceId, 'the span of a request without a token');
        assert.equal(missing.status.code, STATUS_ERROR);
        assert.equal(missing.attributes['error.type'], 'missing_token');
        assert.equal(receiver.spans.filter((s) => s.traceId === wrongAudience.traceId || s.traceId === none.traceId).length, 2,
            'no SERVER span: the core never saw them');
    });

    test('a key the server does not know yet: the JWKS fetch is a CLIENT child of the verification', TEST, async () => {
        const jwksUri = (await (await fetch(`${as.issuer}/.well-known/openid-configuration`)).json()).jwks_uri;
        await as.rotate();
        const { traceId, parent } = newTrace();
        const r = await call('auth-5', await as.forge({ aud: demo.url }), { traceparent: `00-${traceId}-${parent}-01` });
        assert.equal(r.status, 200, r.text);
        const verify = await receiver.span((s) => s.traceId === traceId && s.name === 'verify token', 'the verify span');
        const jwks = await receiver.span((s) => s.traceId === traceId && s.kind === CLIENT, 'the JWKS fetch');
        assert.equal(jwks.parentSpanId, verify.spanId);
        assert.equal(jwks.name, 'GET');
        assert.equal(jwks.attributes['http.request.method'], 'GET');
        assert.equal(jwks.attributes['url.full'], jwksUri);
        assert.equal(jwks.attributes['http.response.status_code'], '200');
        assert.equal(jwks.attributes['mcp.auth.document'], 'jwks');
        assert.equal(jwks.status.code ?? 0, 0);
        assert.ok(jwks.startTimeUnixNano >= verify.startTimeUnixNano && jwks.endTimeUnixNano <= verify.endTimeUnixNano);
    });

    test('a caller that did not sample its trace: no span at all', TEST, async () => {
        const unsampled = newTrace();
        assert.equal((await call('auth-6', await as.forge({ aud: demo.url }), { traceparent: `00-${unsampled.traceId}-${unsampled.parent}-00` })).status, 200);
        assert.equal((await call('auth-7', undefined, { traceparent: `00-${unsampled.traceId}-${unsampled.parent}-00` })).status, 401);
        const sampled = newTrace();
        assert.equal((await call('auth-8', await as.forge({ aud: demo.url }), { traceparent: `00-${sampled.traceId}-${sampled.parent}-01` })).status, 200);
        await receiver.span((s) => s.traceId === sampled.traceId && s.kind === SERVER, 'the later sampled call');
        assert.deepEqual(receiver.spans.filter((s) => s.traceId === unsampled.traceId), []);
    });
});

describe('an opaque token, by introspection', () => {
    test('each introspection is a CLIENT child of the verification, taken or refused', TEST, async () => {
        const receiver = await startReceiver();
        const port = await freePort();
        const as = await AuthorizationServer.start({ opaqueResources: [`http://127.0.0.1:${port}/mcp`] });
        cleanups.push(() => as.close());
        const dir = mkdtempSync(join(tmpdir(), 'mcp-tracing-http-'));
        cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
        const credentials = join(dir, 'client');
        writeFileSync(credentials, `${INTROSPECTION_CLIENT.id}:${INTROSPECTION_CLIENT.secret}\n`);
        const demo = await startDemo(['--auth-issuer', as.issuer, '--auth-client-credentials-file', credentials,
            '--otlp-endpoint', receiver.url], port);
        await waitUntil(async () => (await fetch(`${demo.ops}/readyz`)).status === 200, 10_000, 'the demo ready');
        const endpoint = (await (await fetch(`${as.issuer}/.well-known/openid-configuration`)).json()).introspection_endpoint;

        const list = (id, token, trace) => modernCall(demo.url, id, 'tools/list', {},
            { headers: { authorization: `Bearer ${token}`, traceparent: `00-${trace.traceId}-${trace.parent}-01` } });
        const taken = newTrace();
        const token = await as.serviceToken(demo.url, 'notes:read');
        assert.equal(token.split('.').length, 1, 'an opaque token');
        assert.equal((await list('opaque-1', token, taken)).status, 200);
        const refused = newTrace();
        assert.equal((await list('opaque-2', 'A'.repeat(43), refused)).status, 401);

        for (const [trace, outcome] of [[taken, undefined], [refused, 'invalid_token']]) {
            const verify = await receiver.span((s) => s.traceId === trace.traceId && s.name === 'verify token', 'the verify span');
            assert.equal(verify.attributes['error.type'], outcome);
            const introspection = await receiver.span((s) => s.traceId === trace.traceId && s.kind === CLIENT, 'the introspection');
            assert.equal(introspection.parentSpanId, verify.spanId);
            assert.equal(introspection.name, 'POST');
            assert.equal(introspection.attributes['http.request.method'], 'POST');
            assert.equal(introspection.attributes['url.full'], endpoint);
            assert.equal(introspection.attributes['http.response.status_code'], '200');
            assert.equal(introspection.attributes['mcp.auth.document'], 'introspection');
        }
    });
});

describe('a 2025 GET stream', () => {
    const VERSION = '2025-11-25';
    let receiver;
    let demo;
    let session;
    const post = async (body, headers = {}) => {
        const res = await fetch(demo.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers,
                ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': VERSION } : {}) },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(10_000),
        });
        return { res, text: await res.text() };
    };
    const controllers = [];
    const get = async (headers) => {
        const controller = new AbortController();
        controllers.push(controller);
        const res = await fetch(demo.url, {
            headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': VERSION, ...headers },
            signal: controller.signal,
        });
        assert.equal(res.status, 200);
        return new SseReader(res);
    };
    const addNote = async (slug, id) => {
        const { res, text } = await post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add_note', arguments: { slug, body: `note ${id}` } } });
        assert.equal(res.status, 200, text);
    };
    after(() => controllers.forEach((c) => c.abort()));

    test('start the receiver and the demo, open a session subscribed to a note', TEST, async () => {
        receiver = await startReceiver();
        demo = await startDemo(['--otlp-endpoint', receiver.url, '--otel-stream-span-events', '2']);
        const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize',
            params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'tracing-http-e2e', version: '1' } } });
        session = init.res.headers.get('mcp-session-id');
        assert.ok(session);
        assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).res.status, 202);
        const subscribed = await post({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'demo://notes/traced' } });
        assert.equal(subscribed.res.status, 200, subscribed.text);
    });

    let parts;
    let lastEventId;
    test('a span per connection with an event per notification, the next one linked after 2 events', TEST, async () => {
        const { traceId, parent } = newTrace();
        const stream = await get({ traceparent: `00-${traceId}-${parent}-01` });
        const ids = [];
        for (let i = 0; i < 3; ++i) {
            await addNote('traced', 10 + i);
            const { event } = await stream.next((m) => m.method === 'notifications/resources/updated', 5000, `update ${i}`);
            ids.push(event.id);
        }
        lastEventId = ids.at(-1);
        const first = await receiver.span((s) => s.traceId === traceId && s.attributes['mcp.stream.part'] === '1', 'the first span');
        assert.equal(first.name, 'GET stream');
        assert.equal(first.kind, SERVER);
        assert.equal(first.parentSpanId, parent);
        assert.equal(first.attributes['mcp.session.id'], session);
        assert.equal(first.attributes['mcp.protocol.version'], VERSION);
        assert.equal(first.attributes['mcp.stream.resumed'], undefined);
        assert.deepEqual(first.events.map((e) => [e.name, e.attributes['mcp.sse.event_id']]),
            [['notifications/resources/updated', ids[0]], ['notifications/resources/updated', ids[1]]]);
        assert.deepEqual(first.links, []);
        parts = { first, traceId };
    });

    test('a resumption with Last-Event-ID: its span is linked to the last span of the stream it resumes', TEST, async () => {
        const { traceId, parent } = newTrace();
        // Taking the stream over ends the first connection, and with it the stream's second span.
        const resumed = await get({ traceparent: `00-${traceId}-${parent}-01`, 'last-event-id': lastEventId });
        const second = await receiver.span((s) => s.traceId === parts.traceId && s.attributes['mcp.stream.part'] === '2', 'the second span');
        assert.equal(second.parentSpanId, parts.first.parentSpanId);
        assert.deepEqual(second.links.map((l) => [l.traceId, l.spanId]), [[parts.traceId, parts.first.spanId]]);
        assert.equal(second.events.length, 1);

        await addNote('traced', 20);
        const { event } = await resumed.next((m) => m.method === 'notifications/resources/updated', 5000, 'the update after resuming');
        const removed = await fetch(demo.url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': VERSION } });
        assert.equal(removed.status, 200);
        const resumption = await receiver.span((s) => s.traceId === traceId && s.name === 'GET stream', 'the resumption span');
        assert.equal(resumption.parentSpanId, parent);
        assert.equal(resumption.attributes['mcp.stream.resumed'], true);
        assert.deepEqual(resumption.links.map((l) => [l.traceId, l.spanId]), [[parts.traceId, second.spanId]]);
        assert.deepEqual(resumption.events.map((e) => [e.name, e.attributes['mcp.sse.event_id']]),
            [['notifications/resources/updated', event.id]]);
    });
});
