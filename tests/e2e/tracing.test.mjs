// OpenTelemetry traces (docs/adr/0030-tracing.md): the demo exports its spans over OTLP/HTTP to a
// receiver on a loopback port. Protobuf bodies are decoded with @opentelemetry/otlp-transformer's
// protobuf root (the official .proto files, nothing of ours); JSON bodies are compared field by
// field with what that package's JSON serializer makes of an equivalent SDK span. Checked: a
// 2026-07-28 tools/call whose _meta carries a traceparent (server span under the client's span,
// handler span under it, the handler's own attribute and event), a 2025-11-25 call over HTTP with
// a traceparent header, a 2026-07-28 multi-round call (a span per round, its questions as events),
// a failed call and its code, a malformed traceparent, parent-based
// sampling at ratio 0, a receiver that is down (calls unharmed, drops counted in /metrics), the
// queue flushed on SIGTERM, an https:// receiver that asks for a client certificate, and the
// client.address of a request forwarded by a trusted proxy (IPv4 and IPv6, no port).
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/tracing.test.mjs
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';

import { certificateMaker } from './certificates.mjs';
import { modernCall } from './cluster.mjs';
import { freePort, HttpDemo, waitUntil } from './helpers.mjs';
import { Receiver, SPAN_KIND, STATUS_ERROR } from './otlp_receiver.mjs';

const TEST = { timeout: 60_000 };
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const { SERVER, INTERNAL } = SPAN_KIND;

const scratch = mkdtempSync(join(tmpdir(), 'mcp-cpp-tracing-'));
const cleanups = [];
after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    rmSync(scratch, { recursive: true, force: true });
});

async function startReceiver(tls) {
    const receiver = await Receiver.start(tls);
    cleanups.push(() => receiver.close());
    return receiver;
}

async function startDemo(args, env = {}) {
    const metricsPort = await freePort();
    const demo = await HttpDemo.start(['--metrics', `127.0.0.1:${metricsPort}`, ...args], { env });
    demo.ops = `http://127.0.0.1:${metricsPort}`;
    cleanups.push(() => demo.close());
    return demo;
}

// A sample's value in the demo's /metrics, 0 when the series is not there yet.
async function metric(demo, series) {
    const text = await (await fetch(`${demo.ops}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const traceMeta = (traceparent) => ({ _meta: { traceparent, tracestate: 'vendor=7' } });

describe('OTLP http/protobuf', () => {
    let receiver;
    let demo;

    test('start the receiver and the demo', TEST, async () => {
        receiver = await startReceiver();
        demo = await startDemo(['--otlp-endpoint', receiver.url, '--otel-service-name', 'tracing-e2e',
            '--otlp-headers', 'x-tenant=e2e%20one']);
    });

    test('a 2026-07-28 tools/call: the server span is the child of _meta.traceparent, the handler span its child', TEST, async () => {
        const r = await modernCall(demo.url, 'call-1', 'tools/call', {
            name: 'word_stats', arguments: { text: 'one two two\nthree' }, ...traceMeta(`00-${TRACE_ID}-${CLIENT_SPAN}-01`),
        });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.message.result.structuredContent.words, 4);

        const server = await receiver.span((s) => s.name === 'tools/call word_stats', 'the server span');
        assert.equal(server.kind, SERVER);
        assert.equal(server.traceId, TRACE_ID);
        assert.equal(server.parentSpanId, CLIENT_SPAN);
        assert.equal(server.traceState, 'vendor=7');
        assert.equal(server.flags, 0x301, 'sampled, and the parent is remote');
        assert.equal(server.attributes['mcp.method.name'], 'tools/call');
        assert.equal(server.attributes['gen_ai.tool.name'], 'word_stats');
        assert.equal(server.attributes['gen_ai.operation.name'], 'execute_tool');
        assert.equal(server.attributes['jsonrpc.request.id'], 'call-1');
        assert.equal(server.attributes['mcp.protocol.version'], '2026-07-28');
        assert.equal(server.attributes['mcp.session.id'], undefined, '2026-07-28 has no session');
        assert.equal(server.attributes['error.type'], undefined);
        // The connection, as the HTTP transport knows it: this test's own end of it.
        assert.equal(server.attributes['network.transport'], 'tcp');
        assert.equal(server.attributes['network.protocol.name'], 'http');
        assert.equal(server.attributes['network.protocol.version'], '1.1');
        assert.equal(server.attributes['client.address'], '127.0.0.1');
        assert.match(server.attributes['client.port'], /^[1-9][0-9]*$/);
        assert.ok(Number(server.attributes['client.port']) <= 65535);
        assert.ok(server.endTimeUnixNano >= server.startTimeUnixNano);
        assert.equal(server.resource['service.name'], 'tracing-e2e');
        assert.equal(server.resource['telemetry.sdk.language'], 'cpp');
        assert.equal(server.scope, 'mcp-cpp');

        const handler = await receiver.span((s) => s.parentSpanId === server.spanId, 'the handler span');
        assert.equal(handler.name, 'execute_tool word_stats');
        assert.equal(handler.kind, INTERNAL);
        assert.equal(handler.traceId, TRACE_ID);
        assert.equal(handler.attributes['demo.words'], '4', 'the handler added it through its context');
        assert.deepEqual(handler.events.map((e) => [e.name, e.attributes['demo.lines']]), [['counted', '2']]);
        assert.ok(handler.startTimeUnixNano >= server.startTimeUnixNano && handler.endTimeUnixNano <= server.endTimeUnixNano);

        const request = receiver.requests.find((q) => q.type === 'application/x-protobuf');
        assert.equal(request.path, '/v1/traces', 'a URL without a path gets /v1/traces');
        assert.equal(request.headers['x-tenant'], 'e2e one');
    });

    test('a 2025-11-25 call over HTTP continues the traceparent header, in its session', TEST, async () => {
        const traceId = `${'a'.repeat(31)}1`;
        const parent = `${'b'.repeat(15)}2`;
        const post = (body, headers = {}) => fetch(demo.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(10_000),
        });
        const init = await post({
            jsonrpc: '2.0', id: 1, method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'tracing-e2e', version: '1' } },
        });
        const session = init.headers.get('mcp-session-id');
        assert.ok(session);
        await init.text();
        const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
        await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
        const call = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
            { ...headers, traceparent: `00-${traceId}-${parent}-01` });
        assert.equal(call.status, 200);
        assert.match(await call.text(), /"hi"/);

        const span = await receiver.span((s) => s.traceId === traceId && s.name === 'tools/call echo', 'the 2025 span');
        assert.equal(span.kind, SERVER);
        assert.equal(span.parentSpanId, parent);
        assert.equal(span.flags, 0x301, 'sampled, and the header names a span of the caller\'s process');
        assert.equal(span.attributes['network.transport'], 'tcp');
        assert.equal(span.attributes['client.address'], '127.0.0.1');
        assert.equal(span.attributes['mcp.session.id'], session);
        assert.equal(span.attributes['mcp.protocol.version'], '2025-11-25');
        assert.equal(span.attributes['jsonrpc.request.id'], '7');
        const initialize = await receiver.span((s) => s.name === 'initialize', 'the initialize span');
        assert.equal(initialize.kind, SERVER);
        assert.equal(initialize.parentSpanId, '', 'it came without a traceparent: a trace of its own');
    });

    test('a failed call records its JSON-RPC code; a malformed traceparent starts a trace of its own', TEST, async () => {
        const r = await modernCall(demo.url, 'bad-1', 'tools/call', {
            name: 'no_such_tool', arguments: {}, ...traceMeta(`00-${TRACE_ID.toUpperCase()}-${CLIENT_SPAN}-01`),
        });
        assert.equal(r.message.error.code, -32602);
        const span = await receiver.span((s) => s.attributes['jsonrpc.request.id'] === 'bad-1', 'the failed call\'s span');
        assert.equal(span.name, 'tools/call no_such_tool');
        assert.equal(span.status.code, STATUS_ERROR);
        assert.match(span.status.message, /no_such_tool/);
        assert.equal(span.attributes['error.type'], '-32602');
        assert.equal(span.attributes['rpc.response.status_code'], '-32602');
        assert.notEqual(span.traceId, TRACE_ID.toLowerCase(), 'upper-case hex is not a traceparent');
        assert.equal(span.parentSpanId, '');
        assert.equal(span.traceState, '', 'the tracestate goes with its traceparent');
    });

    test('a 2026-07-28 multi-round call: each round its span, the questions its events, the retry its answers', TEST, async () => {
        const caps = { elicitation: { form: {} } };
        const params = { name: 'delete_note', arguments: { slug: 'welcome' } };
        const round1 = await modernCall(demo.url, 'mrtr-1', 'tools/call', { ...params, ...traceMeta(`00-${TRACE_ID}-${CLIENT_SPAN}-01`) }, { caps });
        assert.equal(round1.message?.result?.resultType, 'input_required', round1.text);
        const round2 = await modernCall(demo.url, 'mrtr-2', 'tools/call', {
            ...params, ...traceMeta(`00-${TRACE_ID}-${CLIENT_SPAN}-01`),
            inputResponses: { confirm_delete: { action: 'accept', content: { confirm: false } } },
            requestState: round1.message.result.requestState,
        }, { caps });
        assert.equal(round2.message?.result?.content?.[0]?.text, 'Kept welcome', round2.text);

        const first = await receiver.span((s) => s.attributes['jsonrpc.request.id'] === 'mrtr-1', 'the first round\'s span');
        assert.deepEqual(first.events, [{ name: 'input_request', attributes: { 'mcp.method.name': 'elicitation/create', 'mcp.input_request.key': 'confirm_delete' } }]);
        assert.equal(first.attributes['mcp.input_responses.count'], undefined);
        assert.equal(first.status.code ?? 0, 0, 'asking is no error');
        const second = await receiver.span((s) => s.attributes['jsonrpc.request.id'] === 'mrtr-2', 'the retry\'s span');
        assert.deepEqual(second.events, []);
        assert.equal(second.attributes['mcp.input_responses.count'], '1');
        assert.equal(second.traceId, first.traceId, 'the client\'s context ties the rounds into one trace');
    });

    test('the exported counter grows and nothing is dropped', TEST, async () => {
        await waitUntil(async () => (await metric(demo, 'mcp_trace_spans_exported_total')) >= receiver.spans.length, 10_000,
            'the exported counter to count every span received');
        assert.equal(await metric(demo, 'mcp_trace_spans_dropped_total{reason="queue_full"}'), 0);
        assert.ok(receiver.requests.every((q) => q.error === undefined), 'every body decoded');
    });
});

// An equivalent span through @opentelemetry/otlp-transformer's JSON serializer (the one
// @opentelemetry/exporter-trace-otlp-http sends with): the reference for each field's name and
// JSON type.
function referenceJsonSpan() {
    const span = {
        name: 'tools/call echo',
        kind: 1, // SpanKind.SERVER in the API's numbering
        spanContext: () => ({ traceId: TRACE_ID, spanId: CLIENT_SPAN, traceFlags: 1, traceState: { serialize: () => 'vendor=7' } }),
        parentSpanContext: { traceId: TRACE_ID, spanId: '1'.repeat(16), traceFlags: 1, isRemote: true },
        startTime: [1_700_000_000, 1],
        endTime: [1_700_000_001, 2],
        attributes: { 'mcp.method.name': 'tools/call', 'demo.words': 4 },
        status: { code: 2, message: 'boom' },
        events: [{ name: 'counted', time: [1_700_000_000, 5], attributes: { 'demo.lines': 2 } }],
        links: [],
        resource: { attributes: { 'service.name': 'x' } },
        instrumentationScope: { name: 'mcp-cpp' },
        droppedAttributesCount: 0,
        droppedEventsCount: 0,
        droppedLinksCount: 0,
    };
    const document = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest([span])));
    return document.resourceSpans[0].scopeSpans[0].spans[0];
}

// Each field's JSON type, recursively; an array by its first element.
function shape(value) {
    if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
    return typeof value;
}

// Every field of `ours` is a field of `reference` of the same JSON type, recursively (lists of
// attributes aside: their values differ in kind, and are compared by kind apart).
function assertFieldsOf(ours, reference, path) {
    if (Array.isArray(ours)) {
        assert.ok(Array.isArray(reference), `${path} is not a list in the SDK's JSON`);
        if (ours.length > 0) assertFieldsOf(ours[0], reference[0], `${path}[0]`);
        return;
    }
    if (ours !== null && typeof ours === 'object') {
        assert.equal(typeof reference, 'object', `${path} is not an object in the SDK's JSON`);
        for (const [field, value] of Object.entries(ours)) {
            assert.ok(field in reference, `${path}.${field} is not a field of the SDK's JSON span`);
            if (field !== 'attributes') assertFieldsOf(value, reference[field], `${path}.${field}`);
        }
        return;
    }
    assert.equal(typeof ours, typeof reference, path);
}

describe('OTLP http/json from the OTEL_* variables', () => {
    let receiver;
    let demo;

    test('start the demo with OTEL_EXPORTER_OTLP_ENDPOINT, _PROTOCOL and a parent-based sampler at ratio 0', TEST, async () => {
        receiver = await startReceiver();
        demo = await startDemo([], {
            OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/base/`,
            OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
            OTEL_SERVICE_NAME: 'from-env',
            OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=e2e,service.name=ignored',
            OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
            OTEL_TRACES_SAMPLER_ARG: '0',
        });
    });

    test('only the call whose caller sampled it is recorded, with the fields of the SDK\'s JSON', TEST, async () => {
        const unsampled = await modernCall(demo.url, 'root-1', 'tools/call', { name: 'echo', arguments: { text: 'a' } });
        assert.equal(unsampled.status, 200);
        const sampled = await modernCall(demo.url, 'child-1', 'tools/call', {
            name: 'word_stats', arguments: { text: 'x y' }, ...traceMeta(`00-${TRACE_ID}-${CLIENT_SPAN}-01`),
        });
        assert.equal(sampled.status, 200);
        const server = await receiver.span((s) => s.attributes['jsonrpc.request.id'] === 'child-1', 'the sampled span');
        const handler = await receiver.span((s) => s.parentSpanId === server.spanId, 'its handler span');
        // Spans leave in the order they ended: the unsampled call's would have come first.
        assert.equal(receiver.spans.find((s) => s.attributes['jsonrpc.request.id'] === 'root-1'), undefined);

        const request = receiver.requests[0];
        assert.equal(request.path, '/base/v1/traces');
        assert.equal(request.type, 'application/json');
        assert.equal(server.resource['service.name'], 'from-env', 'OTEL_SERVICE_NAME wins over the resource attribute');
        assert.equal(server.resource['deployment.environment'], 'e2e');

        const json = handler.json;
        assert.equal(json.traceId, TRACE_ID);
        assert.match(json.spanId, /^[0-9a-f]{16}$/);
        assert.equal(json.parentSpanId, server.spanId);
        assert.equal(json.kind, INTERNAL);
        assert.match(json.startTimeUnixNano, /^[0-9]{19}$/);
        assert.equal(json.attributes.find((a) => a.key === 'demo.words').value.intValue, '2');
        assert.equal(server.json.kind, SERVER);

        // Field by field against the SDK's serializer: every field we write has the name and JSON
        // type the SDK gives it (the SDK also writes empty lists and zero counts, which proto3
        // JSON may leave out).
        const referenceSpan = referenceJsonSpan();
        for (const span of [server.json, handler.json]) {
            assertFieldsOf(span, referenceSpan, span.name);
            for (const field of ['traceId', 'spanId', 'parentSpanId', 'name', 'kind', 'startTimeUnixNano', 'endTimeUnixNano', 'flags'])
                assert.ok(field in span, `${field} is missing`);
        }
        const valueShape = (span, kind) => shape(span.attributes.find((a) => kind in a.value));
        // int64 values: proto3 JSON's canonical form is a decimal string (the OTLP specification
        // asks receivers to take a number too, which is what the SDK writes).
        assert.equal(typeof referenceSpan.attributes.find((a) => 'intValue' in a.value).value.intValue, 'number');
        assert.match(handler.json.attributes.find((a) => 'intValue' in a.value).value.intValue, /^-?[0-9]+$/);
        assert.deepEqual(valueShape(server.json, 'stringValue'), valueShape(referenceSpan, 'stringValue'));
        assert.equal(referenceSpan.flags, server.json.flags, 'the same flags for a sampled span with a remote parent');
    });
});

describe('a collector that is down', () => {
    test('calls are unharmed, and the spans that could not go are counted as dropped', TEST, async () => {
        const port = await freePort(); // nothing listens there
        const demo = await startDemo(['--otlp-endpoint', `http://127.0.0.1:${port}/v1/traces`]);
        for (let i = 0; i < 5; ++i) {
            const r = await modernCall(demo.url, `down-${i}`, 'tools/call', { name: 'echo', arguments: { text: `n${i}` } });
            assert.equal(r.status, 200);
            assert.equal(r.message.result.content[0].text, `n${i}`);
        }
        await waitUntil(async () => (await metric(demo, 'mcp_trace_spans_dropped_total{reason="export_failed"}')) >= 10, 30_000,
            'the spans of 5 calls (server and handler spans) to be counted as dropped');
        assert.equal(await metric(demo, 'mcp_trace_spans_exported_total'), 0);
    });
});

describe('SIGTERM', () => {
    test('the spans still queued go out before the process ends', TEST, async () => {
        const receiver = await startReceiver();
        const demo = await startDemo(['--otlp-endpoint', receiver.url]);
        const r = await modernCall(demo.url, 'last-1', 'tools/call', { name: 'echo', arguments: { text: 'last' } });
        assert.equal(r.status, 200);
        // At once: the exporter's next regular batch is up to a second away.
        demo.signal('SIGTERM');
        const exit = await demo.exited();
        assert.equal(exit.code, 0, demo.stderrTail());
        assert.ok(receiver.spans.some((s) => s.attributes['jsonrpc.request.id'] === 'last-1'), 'the last call\'s span was flushed');
    });
});

describe('an https:// collector that asks for a client certificate', () => {
    test('spans go over TLS with --otlp-ca-file, --otlp-client-cert and --otlp-client-key', TEST, async () => {
        const certificates = certificateMaker(scratch);
        const ca = certificates.makeCa('otlp-ca');
        const server = certificates.makeCert(ca, 'otlp-collector', 'serverAuth');
        const client = certificates.makeCert(ca, 'otlp-client', 'clientAuth');
        const receiver = await startReceiver({
            cert: readFileSync(server.cert), key: readFileSync(server.key), ca: readFileSync(join(scratch, `${ca}.pem`)),
            requestCert: true, rejectUnauthorized: true,
        });
        const demo = await startDemo(['--otlp-endpoint', `${receiver.url}/v1/traces`, '--otlp-ca-file', join(scratch, `${ca}.pem`),
            '--otlp-client-cert', client.cert, '--otlp-client-key', client.key]);
        const r = await modernCall(demo.url, 'tls-1', 'tools/call', { name: 'echo', arguments: { text: 'over tls' } });
        assert.equal(r.status, 200);
        const span = await receiver.span((s) => s.attributes['jsonrpc.request.id'] === 'tls-1', 'the span over TLS');
        assert.equal(span.name, 'tools/call echo');
        assert.equal(receiver.requests[0].peer, 'otlp-client', 'the demo presented its client certificate');
    });
});

describe('behind a trusted proxy', () => {
    test('client.address is the forwarded client, whole (an IPv6 one too, not its /64), with no port', TEST, async () => {
        const receiver = await startReceiver();
        const demo = await startDemo(['--otlp-endpoint', receiver.url, '--trusted-proxies', '127.0.0.1/32']);
        const echo = { name: 'echo', arguments: { text: 'via' } };
        for (const [id, client] of [['xff-4', '192.0.2.9'], ['xff-6', '2001:db8:1:2::7']]) {
            const r = await modernCall(demo.url, id, 'tools/call', echo, { headers: { 'x-forwarded-for': client } });
            assert.equal(r.status, 200, r.text);
            const span = await receiver.span((s) => s.attributes['jsonrpc.request.id'] === id, `the span of ${id}`);
            assert.equal(span.attributes['client.address'], client);
            assert.equal(span.attributes['client.port'], undefined, 'the port the proxy connected from is not the client\'s');
            assert.equal(span.attributes['network.transport'], 'tcp');
        }
    });
});
