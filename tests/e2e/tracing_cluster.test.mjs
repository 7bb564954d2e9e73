// One trace across two nodes (docs/adr/0030-tracing.md): a 2025-11-25 call of delete_note (a
// replayable handler) parks on node A for its elicitation, the client POSTs the answer to node B,
// and B hands it to A over the shared Redis mailbox. Both nodes export to one OTLP receiver
// (decoded with @opentelemetry/otlp-transformer); the spans must make one tree: A's SERVER span
// under the client's traceparent, A's CLIENT span for elicitation/create under it (the traceparent
// the client got in the request's _meta), B's SERVER span of taking the answer in under that, and
// A's handler spans (the run that asked, the run that finished) under the SERVER span, and each
// round trip to Redis a CLIENT span under the span of its node that made it. An unsampled call
// leaves no span on either node.
// Needs Debian's redis-server (scripts/install-deps.sh --test); the suite fails without it.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/tracing_cluster.test.mjs
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { newSecret, RedisServer, RoundRobinSession, startNodes, withNodeLogs } from './cluster.mjs';
import { demoBinary } from './helpers.mjs';
import { Receiver, SPAN_KIND } from './otlp_receiver.mjs';

demoBinary();  // fails at once, with the reason, when MCP_CPP_DEMO is not set
const TEST = { timeout: 30_000 };
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';

describe('a parked call answered through another node: one trace', { timeout: 120_000 }, () => {
    let redis;
    let receiver;
    let cluster;
    let A;
    let B;
    const sessions = [];

    before(async () => {
        redis = await RedisServer.start();
        receiver = await Receiver.start();
        cluster = await startNodes(2, {
            store: redis.url, secret: newSecret(), args: ['--otlp-endpoint', receiver.url, '--otel-service-name', 'tracing-cluster'],
        });
        [A, B] = cluster.nodes;
    });
    after(async () => {
        for (const s of sessions) s.close();
        await cluster?.close();
        await redis?.close();
        await receiver?.close();
    });

    const withLogs = withNodeLogs(() => cluster.nodes);

    // delete_note on A under `traceparent`; the elicitation's answer (keep the note) POSTed to B.
    async function deleteOnAAnswerOnB(traceparent) {
        const s = new RoundRobinSession(cluster.nodes, { capabilities: { elicitation: { form: {} } } });
        sessions.push(s);
        await s.initialize({ node: A });
        const call = await s.stream('tools/call', { name: 'delete_note', arguments: { slug: 'welcome' }, _meta: { traceparent } },
            { node: A });
        assert.equal(call.status, 200);
        const { message: asked } = await call.reader.next((m) => m.method === 'elicitation/create', 10_000, 'the elicitation on A\'s stream');
        const answer = await s.send({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { confirm: false } } }, { node: B });
        assert.deepEqual([answer.node.name, answer.status], ['B', 202], answer.text);
        const { message: result } = await call.reader.next((m) => m.id === call.id, 10_000, 'the result of delete_note on A');
        assert.equal(result.result?.content?.[0]?.text, 'Kept welcome', JSON.stringify(result));
        return { session: s.sessionId, asked };
    }

    test('A\'s call, its elicitation and B\'s taking in of the answer are one span tree', TEST, withLogs(async () => {
        const { session, asked } = await deleteOnAAnswerOnB(`00-${TRACE_ID}-${CLIENT_SPAN}-01`);

        const server = await receiver.span((s) => s.traceId === TRACE_ID && s.name === 'tools/call delete_note', 'A\'s server span');
        assert.equal(server.kind, SPAN_KIND.SERVER);
        assert.equal(server.parentSpanId, CLIENT_SPAN);
        assert.equal(server.attributes['mcp.session.id'], session);

        const request = await receiver.span((s) => s.traceId === TRACE_ID && s.name === 'elicitation/create', 'A\'s elicitation span');
        assert.equal(request.kind, SPAN_KIND.CLIENT);
        assert.equal(request.parentSpanId, server.spanId, 'the elicitation is a child of the call');
        assert.equal(request.attributes['mcp.method.name'], 'elicitation/create');
        assert.equal(request.attributes['jsonrpc.request.id'], asked.id);
        assert.equal(request.status.code ?? 0, 0, 'the client answered');
        assert.equal(asked.params._meta.traceparent, `00-${TRACE_ID}-${request.spanId}-01`,
            'the client was asked under the elicitation\'s span');

        const answer = await receiver.span((s) => s.traceId === TRACE_ID && s.name === 'elicitation/create answer', 'B\'s answer span');
        assert.equal(answer.kind, SPAN_KIND.SERVER);
        assert.equal(answer.parentSpanId, request.spanId, 'B continued A\'s trace under the elicitation');
        assert.equal(answer.attributes['jsonrpc.request.id'], asked.id);
        assert.equal(answer.attributes['mcp.session.id'], session);
        assert.deepEqual(answer.events, [], 'A expected the answer');

        // Which node recorded what: each process has a service.instance.id of its own.
        const instanceOfA = server.resource['service.instance.id'];
        assert.match(instanceOfA, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        assert.equal(request.resource['service.instance.id'], instanceOfA);
        assert.notEqual(answer.resource['service.instance.id'], instanceOfA, 'the answer span is B\'s');
        assert.equal(answer.resource['service.name'], 'tracing-cluster');

        // The handler ran twice on A: once to ask (input_required), once with the answer.
        await receiver.span((s) => s.parentSpanId === server.spanId && s.events.length === 0 && s.name === 'execute_tool delete_note',
            'the handler span of the run that finished');
        const runs = receiver.spans.filter((s) => s.parentSpanId === server.spanId && s.name === 'execute_tool delete_note');
        assert.deepEqual(runs.map((r) => r.events.map((e) => e.name)).sort(), [[], ['input_required']]);
        assert.ok(runs.every((r) => r.resource['service.instance.id'] === instanceOfA));

        // The rest are round trips to Redis, each a CLIENT span under a span of the node that made
        // it: B's delivery of the answer among them.
        const trace = receiver.spans.filter((s) => s.traceId === TRACE_ID);
        const byId = new Map(trace.map((s) => [s.spanId, s]));
        const known = new Set([server, request, answer, ...runs].map((s) => s.spanId));
        const store = trace.filter((s) => !known.has(s.spanId));
        assert.ok(store.length >= 2, trace.map((s) => s.name).join(', '));
        for (const span of store) {
            assert.equal(span.kind, SPAN_KIND.CLIENT, span.name);
            assert.equal(span.attributes['db.system.name'], 'redis', span.name);
            assert.equal(span.attributes['db.operation.name'], span.name);
            const parent = byId.get(span.parentSpanId);
            assert.ok(parent, `${span.name}'s parent is in the trace`);
            assert.equal(parent.resource['service.instance.id'], span.resource['service.instance.id'], `${span.name} is its parent's node's`);
        }
        assert.ok(store.some((s) => s.parentSpanId === answer.spanId), 'B\'s delivery went through Redis');
        assert.ok(store.some((s) => s.parentSpanId === server.spanId), 'A parked the call in Redis');
        assert.ok(trace.every((s) => s.status.code !== 2), 'nothing failed');
    }));

    test('an unsampled call leaves no span on either node', TEST, withLogs(async () => {
        const unsampled = 'fedcba98765432100123456789abcdef';
        await deleteOnAAnswerOnB(`00-${unsampled}-${CLIENT_SPAN}-00`);
        const after = '1234567890abcdef1234567890abcdef';
        await deleteOnAAnswerOnB(`00-${after}-${CLIENT_SPAN}-01`);
        await receiver.span((s) => s.traceId === after && s.name === 'elicitation/create answer', 'the sampled call\'s answer span');
        await receiver.span((s) => s.traceId === after && s.name === 'tools/call delete_note', 'the sampled call\'s server span');
        // Each node exports in the order its spans ended: the earlier call's would have come first.
        assert.deepEqual(receiver.spans.filter((s) => s.traceId === unsampled).map((s) => s.name), []);
    }));
});
