// Operating mcp-cpp, as an operator meets it: a real Prometheus (Debian's, scraping every second)
// reads the demo's /metrics while the test drives calls, and its HTTP API must report what was
// sent (counters, a histogram quantile, an exemplar carrying the client's trace, the OpenTelemetry
// MCP conventions' operation histogram); promtool checks the exposition; /healthz and /readyz
// through SIGTERM and through a Redis outage on two nodes; JSON logs and the audit log parse line
// by line and hostile names cannot forge a line or a label; label cardinality stays bounded after
// 10 000 calls with random unknown tool names; a client's traceparent reaches the elicitation
// request the server sends back, on both eras.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/observability.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { modernCall, newSecret, RedisServer } from './cluster.mjs';
import { freePort, HttpDemo, waitUntil } from './helpers.mjs';
import { Prometheus, PROMTOOL } from './prometheus.mjs';

const TEST = { timeout: 90_000 };
const REQUEST = { timeout: 15_000 };

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN}-01`;

const scratch = mkdtempSync(join(tmpdir(), 'mcp-cpp-observability-'));
const cleanups = [];
after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    rmSync(scratch, { recursive: true, force: true });
});

// The demo with its operator port on a free loopback port; `args` added.
async function startDemo(args = [], env = {}) {
    const metricsPort = await freePort();
    const demo = await HttpDemo.start(['--metrics', `127.0.0.1:${metricsPort}`, ...args], { env });
    demo.ops = `http://127.0.0.1:${metricsPort}`;
    cleanups.push(() => demo.close());
    return demo;
}

async function get(url, headers = {}) {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
    return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

// A sample's value in the text exposition, or undefined.
function sample(text, series) {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1).split(' ')[0]);
}

// A v1 SDK client on a 2025-11-25 session, answering elicitations with `onElicit`.
async function sessionClient(url, { headers = {}, onElicit } = {}) {
    const client = new Client({ name: 'observability-e2e', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    if (onElicit) client.setRequestHandler(ElicitRequestSchema, onElicit);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    cleanups.push(() => client.close().catch(() => {}));
    return client;
}

describe('Prometheus scrapes the demo', () => {
    test('counters, a histogram quantile and an exemplar, as Prometheus reports them', TEST, async () => {
        const demo = await startDemo();
        const prometheus = await Prometheus.start(demo.ops.slice('http://'.length),
            { dir: mkdtempSync(join(scratch, 'prometheus-')), cleanups });

        const echoes = 25;
        for (let i = 0; i < echoes; ++i) {
            const headers = i === 0 ? { traceparent: TRACEPARENT } : {};
            const r = await modernCall(demo.url, i, 'tools/call', { name: 'echo', arguments: { text: `hi ${i}` } }, { headers });
            assert.equal(r.status, 200);
            assert.equal(r.message.result.isError, undefined, JSON.stringify(r.message));
        }
        // Three calls of about 1.2 s: the median must fall in the (1 s, 2.5 s] bucket.
        const slow = await Promise.all([0, 1, 2].map((i) =>
            modernCall(demo.url, `slow-${i}`, 'tools/call', { name: 'slow_count', arguments: { to: 3, step_ms: 400 } },
                { timeoutMs: 20_000 })));
        for (const r of slow) assert.equal(r.message.result.content[0].text, 'Counted to 3');
        const unknown = await modernCall(demo.url, 'u', 'tools/call', { name: 'no_such_tool', arguments: {} });
        assert.equal(unknown.message.error.code, -32602);

        await prometheus.waitFor('mcp_calls_total{kind="tool",name="echo",outcome="ok"}', echoes);
        await prometheus.waitFor('mcp_calls_total{kind="tool",name="slow_count",outcome="ok"}', 3);
        assert.equal(await prometheus.value('mcp_calls_total{kind="tool",name="unknown",outcome="invalid_params"}'), 1);
        assert.equal(await prometheus.value('mcp_requests_total{method="tools/call",era="2026",outcome="ok"}'), echoes + 3);
        assert.equal(await prometheus.value('mcp_requests_total{method="tools/call",era="2026",outcome="invalid_params"}'), 1);
        assert.equal(await prometheus.value('mcp_call_duration_seconds_count{kind="tool",name="echo"}'), echoes);
        const median = await prometheus.value(
            'histogram_quantile(0.5, sum by (le) (mcp_call_duration_seconds_bucket{kind="tool",name="slow_count"}))');
        assert.ok(median > 1 && median <= 2.5, `slow_count's median is ${median} s`);
        // The same calls as the OpenTelemetry conventions name them.
        const operation = 'mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",mcp_protocol_version="2026-07-28"';
        assert.equal(await prometheus.value(`${operation},gen_ai_tool_name="echo",gen_ai_operation_name="execute_tool",error_type=""}`), echoes);
        assert.equal(await prometheus.value(
            `${operation},gen_ai_tool_name="unknown",error_type="-32602",rpc_response_status_code="-32602"}`), 1);
        assert.equal(await prometheus.value('mcp_calls_in_flight'), 0);
        assert.ok((await prometheus.value('mcp_http_responses_total{code="200"}')) >= echoes + 3);
        assert.ok((await prometheus.value('sum(mcp_handler_threads)')) >= 1);
        assert.equal(await prometheus.value('up{job="mcp"}'), 1);

        // The first echo carried a traceparent: its bucket's exemplar names the client's trace.
        const exemplars = await prometheus.exemplars('mcp_call_duration_seconds_bucket{name="echo"}');
        assert.ok(exemplars.some((e) => e.labels.trace_id === TRACE_ID), JSON.stringify(exemplars));
    });

    test('promtool accepts the exposition; OpenMetrics is served to who asks for it', TEST, async () => {
        assert.ok(existsSync(PROMTOOL), `${PROMTOOL} not found: scripts/install-deps.sh --test installs prometheus`);
        const demo = await startDemo();
        await modernCall(demo.url, 1, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { traceparent: TRACEPARENT } });
        const text = await get(`${demo.ops}/metrics`);
        assert.equal(text.status, 200);
        assert.match(text.type, /^text\/plain; version=0\.0\.4/);
        const lint = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text.text, encoding: 'utf8' });
        assert.equal(lint.status, 0, `promtool check metrics:\n${lint.stdout}${lint.stderr}`);
        assert.equal(sample(text.text, 'mcp_calls_total{kind="tool",name="echo",outcome="ok"}'), 1);

        const om = await get(`${demo.ops}/metrics`, { accept: 'application/openmetrics-text;version=1.0.0' });
        assert.match(om.type, /^application\/openmetrics-text/);
        assert.ok(om.text.endsWith('# EOF\n'));
        assert.match(om.text, new RegExp(`mcp_call_duration_seconds_bucket\\{kind="tool",name="echo",le="[0-9.]+"\\} 1 # \\{trace_id="${TRACE_ID}"\\}`));

        // The operator port serves nothing else, and the MCP endpoint does not serve metrics.
        assert.equal((await get(`${demo.ops}/mcp`)).status, 404);
        assert.equal((await get(demo.url.replace(/\/mcp$/, '/metrics'))).status, 404);
    });
});

describe('health and readiness', () => {
    test('/readyz turns 503 at SIGTERM while the drain delay lets the endpoint serve; /healthz stays 200', TEST, async () => {
        const demo = await startDemo(['--drain-delay', '2s']);
        assert.deepEqual(await get(`${demo.ops}/readyz`), { status: 200, text: 'ready\n', type: 'text/plain; charset=utf-8' });
        assert.equal((await get(`${demo.ops}/healthz`)).status, 200);
        demo.signal('SIGTERM');
        const draining = await waitUntil(async () => {
            const r = await get(`${demo.ops}/readyz`);
            return r.status === 503 ? r : undefined;
        }, 1500, '/readyz to fail after SIGTERM');
        assert.equal(draining.text, 'not ready: draining\n');
        assert.equal((await get(`${demo.ops}/healthz`)).status, 200);
        // Not ready is not gone: the endpoint still serves during the drain delay.
        const r = await modernCall(demo.url, 1, 'tools/call', { name: 'echo', arguments: { text: 'still here' } });
        assert.equal(r.message.result.content[0].text, 'still here');
        const exit = await demo.exited(15_000);
        assert.equal(exit.code, 0, demo.stderrTail());
    });

    test('/readyz follows Redis on two nodes: 503 while it is down, 200 once it is back', TEST, async () => {
        const redis = await RedisServer.start();
        cleanups.push(() => redis.close());
        const secret = newSecret();
        const nodes = [
            await startDemo(['--store', redis.url], { MCP_SECRET: secret }),
            await startDemo(['--store', redis.url], { MCP_SECRET: secret }),
        ];
        for (const node of nodes) assert.equal((await get(`${node.ops}/readyz`)).status, 200);
        await redis.stop();
        for (const node of nodes) {
            await waitUntil(async () => (await get(`${node.ops}/readyz`)).text === 'not ready: store unreachable\n', 10_000,
                '/readyz to report the store unreachable');
            assert.equal((await get(`${node.ops}/healthz`)).status, 200);
        }
        await redis.restart();
        for (const node of nodes) {
            await waitUntil(async () => (await get(`${node.ops}/readyz`)).status === 200, 10_000, '/readyz to recover');
            const metrics = (await get(`${node.ops}/metrics`)).text;
            assert.ok(sample(metrics, 'mcp_store_reconnects_total') >= 1, metrics);
        }
    });
});

describe('logs', () => {
    const HOSTILE = [
        'evil\n{"time":"2026-01-01T00:00:00.000Z","level":"critical","logger":"mcp","msg":"forged"}',
        'quote"and\\backslash',
        'escape\u001b[31mred\u0000nul\r\ncrlf',
        'x'.repeat(70_000),
        '}} mcp_calls_total{kind="tool",name="forged",outcome="ok"} 999',
    ];

    test('JSON lines and audit lines parse one by one; hostile names forge neither a line nor a label', TEST, async () => {
        const audit = join(scratch, 'audit.jsonl');
        const demo = await startDemo(['--log-format', 'json', '--log-level', 'debug', '--audit-log', audit, '--audit-arguments']);
        const client = await sessionClient(demo.url);
        for (const name of HOSTILE) {
            await assert.rejects(client.callTool({ name, arguments: { text: name } }, undefined, REQUEST), /Unknown tool/);
        }
        // A tool that fails logs on its handler thread, inside the request's context; its message
        // quotes the client's text.
        const failed = await modernCall(demo.url, 'fail-1', 'tools/call', { name: 'delete_note', arguments: { slug: HOSTILE[0] } },
            { headers: { traceparent: TRACEPARENT } });
        assert.equal(failed.message.result.isError, true);
        await client.callTool({ name: 'echo', arguments: { text: 'audited' } }, undefined, REQUEST);
        // Hostile notification names are logged (debug) too.
        await client.notification({ method: HOSTILE[0] });

        const lines = await waitUntil(() => {
            const all = demo.stderr.split('\n').filter((l) => l !== '');
            return all.some((l) => l.includes('ignoring notification')) ? all : undefined;
        }, 5000, 'the notification to be logged');
        const entries = lines.map((line) => {
            assert.doesNotThrow(() => JSON.parse(line), `not a JSON line: ${line.slice(0, 300)}`);
            return JSON.parse(line);
        });
        for (const e of entries) {
            assert.ok(typeof e.time === 'string' && typeof e.level === 'string' && typeof e.msg === 'string', JSON.stringify(e));
            assert.notEqual(e.msg, 'forged');
            assert.notEqual(e.level, 'critical');
        }
        const failure = entries.find((e) => e.msg.startsWith('tool delete_note failed'));
        assert.ok(failure, `no "tool delete_note failed" line in:\n${lines.join('\n').slice(0, 3000)}`);
        assert.equal(failure['mcp.request.id'], '"fail-1"');
        assert.equal(failure['mcp.method'], 'tools/call');
        assert.equal(failure['mcp.client'], 'mcp-cpp-e2e-raw');
        assert.equal(failure.trace_id, TRACE_ID);
        assert.match(failure.span_id, /^[0-9a-f]{16}$/);
        assert.notEqual(failure.span_id, CLIENT_SPAN);
        const notified = entries.find((e) => e.msg.startsWith('ignoring notification'));
        assert.ok(!notified.msg.includes('\n') && notified.msg.length < 400, notified.msg);

        // One audit line per call, each JSON; names as sent (bounded), outcome, no forged line.
        const auditLines = readFileSync(audit, 'utf8').split('\n').filter((l) => l !== '');
        assert.equal(auditLines.length, HOSTILE.length + 2, auditLines.join('\n').slice(0, 2000));
        const records = auditLines.map((l) => JSON.parse(l));
        for (const [i, name] of HOSTILE.entries()) {
            const r = records[i];
            assert.equal(r.audit, 'tools/call');
            assert.equal(r.outcome, 'invalid_params');
            assert.equal(r.era, '2025');
            assert.ok(name.startsWith(r.name.replace(/…$/, '')) && r.name.length <= 257, r.name.slice(0, 80));
            if (name.length > 16_384) {
                assert.deepEqual({ args: r.arguments, over: r.arguments_bytes > 16_384 }, { args: undefined, over: true });
            } else {
                assert.equal(r.arguments.text, name);
            }
        }
        const echo = records.at(-1);
        assert.deepEqual({ name: echo.name, outcome: echo.outcome, principal: echo.principal, client: echo.client, args: echo.arguments },
            { name: 'echo', outcome: 'ok', principal: null, client: 'observability-e2e', args: { text: 'audited' } });
        assert.match(echo.session, /^[A-Za-z0-9_-]+$/);
        assert.ok(echo.duration_ms >= 0);
        const fail = records.find((r) => r.name === 'delete_note');
        assert.deepEqual({ outcome: fail.outcome, trace: fail.trace_id, era: fail.era }, { outcome: 'tool_error', trace: TRACE_ID, era: '2026' });

        // No label carries a hostile name.
        const metrics = (await get(`${demo.ops}/metrics`)).text;
        assert.ok(!metrics.includes('forged') && !metrics.includes('evil'), metrics);
        assert.equal(sample(metrics, 'mcp_calls_total{kind="tool",name="unknown",outcome="invalid_params"}'), HOSTILE.length);
    });

    test('10 000 calls with random unknown tool names leave the label set bounded', TEST, async () => {
        const demo = await startDemo();
        const before = (await get(`${demo.ops}/metrics`)).text.split('\n').length;
        const total = 10_000;
        const concurrency = 32;
        let next = 0;
        await Promise.all(Array.from({ length: concurrency }, async () => {
            while (next < total) {
                const id = next++;
                const name = `random_${id}_${Math.random().toString(36).slice(2)}`;
                const r = await modernCall(demo.url, id, 'tools/call', { name, arguments: {} });
                assert.equal(r.message?.error?.code, -32602, JSON.stringify(r.message));
            }
        }));
        const text = (await get(`${demo.ops}/metrics`)).text;
        assert.equal(sample(text, 'mcp_calls_total{kind="tool",name="unknown",outcome="invalid_params"}'), total);
        assert.equal(sample(text, 'mcp_requests_total{method="tools/call",era="2026",outcome="invalid_params"}'), total);
        assert.ok(!text.includes('random_'), 'a random name became a label');
        const lines = text.split('\n').length;
        assert.ok(lines - before < 100, `the exposition grew from ${before} to ${lines} lines`);
    });
});

describe('trace context', () => {
    test('2025: the traceparent header reaches the elicitation request and the audit line; the wait is counted', TEST, async () => {
        const audit = join(scratch, 'audit-trace.jsonl');
        const demo = await startDemo(['--audit-log', audit]);
        const seen = [];
        const whileParked = [];
        const client = await sessionClient(demo.url, {
            headers: { traceparent: TRACEPARENT, tracestate: 'vendor=a' },
            onElicit: async (request) => {
                seen.push(request.params._meta);
                whileParked.push((await get(`${demo.ops}/metrics`)).text);
                return { action: 'decline' };
            },
        });
        await client.callTool({ name: 'add_note', arguments: { slug: 'traced', body: 'x' } }, undefined, REQUEST);
        const r = await client.callTool({ name: 'delete_note', arguments: { slug: 'traced' } }, undefined, REQUEST);
        assert.equal(r.content[0].text, 'Kept traced');
        assert.equal(seen.length, 1);
        const [, traceId, parent, flags] = seen[0].traceparent.match(/^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/);
        assert.deepEqual({ traceId, flags, tracestate: seen[0].tracestate }, { traceId: TRACE_ID, flags: '01', tracestate: 'vendor=a' });
        assert.notEqual(parent, CLIENT_SPAN, 'the server passes on its own span, not the client\'s');
        // While the handler waited for the answer, the call was in flight and parked on the client.
        assert.equal(sample(whileParked[0], 'mcp_parked_client_requests{kind="elicitation"}'), 1);
        assert.equal(sample(whileParked[0], 'mcp_calls_in_flight'), 1);
        const afterwards = (await get(`${demo.ops}/metrics`)).text;
        assert.equal(sample(afterwards, 'mcp_parked_client_requests{kind="elicitation"}'), 0);
        assert.equal(sample(afterwards, 'mcp_calls_in_flight'), 0);
        assert.equal(sample(afterwards, 'mcp_sessions_open'), 1);
        assert.equal(sample(afterwards, 'mcp_sessions_created_total'), 1);
        assert.equal(sample(afterwards, 'mcp_calls_total{kind="tool",name="delete_note",outcome="ok"}'), 1);
        const line = await waitUntil(() => readFileSync(audit, 'utf8').split('\n').find((l) => l.includes('"delete_note"')), 5000, 'the audit line');
        assert.deepEqual((({ trace_id, span_id }) => ({ trace_id, span_id }))(JSON.parse(line)), { trace_id: TRACE_ID, span_id: parent });
    });

    test('2026: _meta.traceparent reaches the inputRequests of input_required; a malformed one is dropped', TEST, async () => {
        const demo = await startDemo();
        await modernCall(demo.url, 1, 'tools/call', { name: 'add_note', arguments: { slug: 'traced', body: 'x' } });
        const caps = { elicitation: { form: {} } };
        const asked = await modernCall(demo.url, 2, 'tools/call',
            { name: 'delete_note', arguments: { slug: 'traced' }, _meta: { traceparent: TRACEPARENT } }, { caps });
        const result = asked.message.result;
        assert.equal(result.resultType, 'input_required', JSON.stringify(result));
        const meta = result.inputRequests.confirm_delete.params._meta;
        assert.match(meta.traceparent, new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
        assert.ok(!meta.traceparent.includes(CLIENT_SPAN));

        for (const bad of ['00-00000000000000000000000000000000-00f067aa0ba902b7-01', `ff-${TRACE_ID}-${CLIENT_SPAN}-01`,
            `00-${TRACE_ID.toUpperCase()}-${CLIENT_SPAN}-01`, `00-${TRACE_ID}-${CLIENT_SPAN}-01-extra`, 'x'.repeat(5000)]) {
            const r = await modernCall(demo.url, 3, 'tools/call',
                { name: 'delete_note', arguments: { slug: 'traced' }, _meta: { traceparent: bad } }, { caps });
            assert.equal(r.message.result.resultType, 'input_required');
            assert.equal(r.message.result.inputRequests.confirm_delete.params._meta, undefined, bad.slice(0, 80));
        }
    });
});
