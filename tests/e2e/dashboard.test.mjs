// The operator's kit proven as an operator would use it (issue 28): Grafana is not in Debian, so
// every query of every panel of deploy/grafana/mcp-cpp.json (and of its template variables) runs
// against Debian's prometheus scraping the demo, on a shared Redis, after a bounded load from real
// clients (SDK v1 sessions with an elicitation, a tool error and unknown names; 2026 calls, an
// unknown method and a task), tracing every call to an OTLP collector that is down (a closed
// loopback port), so that the exporter's panel shows spans dropped as export_failed. Each must
// return a series with a value, or a panel would stay empty on a real server. Then promtool checks
// deploy/prometheus/mcp-cpp-alerts.yml and runs its tests, which must hold, for every alert, a
// case where it fires and one where it stays quiet.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/dashboard.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { modernCall, newSecret, RedisServer } from './cluster.mjs';
import { freePort, HttpDemo, waitUntil } from './helpers.mjs';
import { Prometheus, PROMTOOL } from './prometheus.mjs';
import { CAPS } from './tasks_fixtures.mjs';

const DEPLOY = resolve(dirname(fileURLToPath(import.meta.url)), '../../deploy');
const DASHBOARD = join(DEPLOY, 'grafana/mcp-cpp.json');
const RULES = join(DEPLOY, 'prometheus/mcp-cpp-alerts.yml');
const RULE_TESTS = join(DEPLOY, 'prometheus/mcp-cpp-alerts.test.yml');
const JOB = 'mcp-cpp';  // the job name the alert rules expect
// Grafana's variables as the test sets them: every node of the job ("All"), and a rate window
// that spans the whole run.
const VARIABLES = { __rate_interval: '1m', job: JOB, instance: '.*' };
const TEST = { timeout: 60_000 };
const REQUEST = { timeout: 15_000 };

const scratch = mkdtempSync(join(tmpdir(), 'mcp-cpp-dashboard-'));
const cleanups = [];
after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    rmSync(scratch, { recursive: true, force: true });
});

// A query with Grafana's variables replaced; one this test does not know fails.
function substitute(expr) {
    return expr.replace(/\$\{?(\w+)\}?/g, (whole, name) => {
        assert.ok(name in VARIABLES, `${expr}: unknown variable ${whole}`);
        return VARIABLES[name];
    });
}

// Every panel of the dashboard with queries, rows' panels included.
function panelsOf(dashboard) {
    return dashboard.panels.flatMap((p) => (p.type === 'row' ? p.panels ?? [] : [p])).filter((p) => p.targets?.length);
}

// A v1 SDK client on a 2025-11-25 session that accepts what it is asked.
async function sessionClient(url) {
    const client = new Client({ name: 'dashboard-e2e', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    cleanups.push(() => client.close().catch(() => {}));
    return { client, transport };
}

// One session's worth of calls: successes, a parked elicitation, a tool error, an unknown tool, a
// prompt and a resource, a second session refused; then the client ends the session (DELETE).
async function sessionLoad(url, slug) {
    const { client, transport } = await sessionClient(url);
    await client.listTools(undefined, REQUEST);
    for (let i = 0; i < 10; ++i) {
        const r = await client.callTool({ name: 'echo', arguments: { text: `hi ${i}` } }, undefined, REQUEST);
        assert.equal(r.content[0].text, `hi ${i}`);
    }
    await client.callTool({ name: 'add_note', arguments: { slug, body: 'x' } }, undefined, REQUEST);
    const deleted = await client.callTool({ name: 'delete_note', arguments: { slug } }, undefined, REQUEST);
    assert.equal(deleted.isError, undefined, JSON.stringify(deleted));
    const missing = await client.callTool({ name: 'delete_note', arguments: { slug } }, undefined, REQUEST);
    assert.equal(missing.isError, true, JSON.stringify(missing));
    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }, undefined, REQUEST), /-32602|Unknown tool/);
    await client.getPrompt({ name: 'summarize', arguments: { text: 'a b c' } }, REQUEST);
    await client.readResource({ uri: 'demo://server/stats' }, REQUEST);
    // A second session of this client is over --max-sessions-per-client 1.
    const refused = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'second', version: '1' } } }),
        signal: AbortSignal.timeout(REQUEST.timeout),
    });
    assert.equal(refused.status, 429, await refused.text());
    await transport.terminateSession();
}

// 2026 calls: successes, an unknown method, and a task polled to its end.
async function statelessLoad(url) {
    for (let i = 0; i < 10; ++i) {
        const r = await modernCall(url, `echo-${i}`, 'tools/call', { name: 'echo', arguments: { text: `m ${i}` } });
        assert.equal(r.message.result.content[0].text, `m ${i}`, r.text);
    }
    const unknown = await modernCall(url, 'nope', 'no/such/method', {});
    assert.equal(unknown.message.error.code, -32601, unknown.text);
    const created = await modernCall(url, 'task', 'tools/call', { name: 'export_notes', arguments: { step_ms: 50 } }, { caps: CAPS });
    const { taskId } = created.message.result;
    assert.equal(typeof taskId, 'string', created.text);
    await waitUntil(async () => {
        const r = await modernCall(url, `get-${Date.now()}`, 'tasks/get', { taskId }, { caps: CAPS, headers: { 'mcp-name': taskId } });
        return r.message.result?.status === 'completed';
    }, 10_000, `task ${taskId} to complete`);
}

// The tests of a rules file, as promtool reads them: [alertname, fires] per case. The file's
// layout is ours (one `alertname:` then `exp_alerts:` per case), so lines suffice.
function ruleCases(text) {
    const cases = [];
    let name;
    for (const line of text.split('\n')) {
        const named = line.match(/^\s*alertname: (\S+)$/);
        if (named) name = named[1];
        const expected = line.match(/^\s*exp_alerts:(.*)$/);
        if (expected) cases.push([name, expected[1].trim() !== '[]']);
    }
    return cases;
}

test('every dashboard query returns series from a Prometheus scraping the demo under load', TEST, async () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8'));
    const panels = panelsOf(dashboard);
    const queries = panels.flatMap((p) => p.targets.map((t) => ({ panel: p.title, expr: t.expr })));
    // What Grafana needs to import it: ids of their own, panels within the 24 columns, and the data
    // source the importer picks.
    const ids = dashboard.panels.map((p) => p.id);
    assert.equal(new Set(ids).size, ids.length, `panel ids repeat: ${ids}`);
    for (const p of panels) {
        assert.ok(p.gridPos.x + p.gridPos.w <= 24, `${p.title} is wider than the dashboard`);
        assert.equal(p.datasource.uid, '${datasource}', `${p.title} names another data source`);
    }
    // What the issue asks the dashboard to show: calls, latency, errors by code, sessions, parked
    // calls, tasks, the store, and the semantic conventions' histograms.
    for (const metric of ['mcp_requests_total', 'mcp_call_duration_seconds_bucket', 'rpc_response_status_code',
        'mcp_sessions_open', 'mcp_parked_client_requests', 'mcp_tasks_running', 'mcp_tasks_ended_total',
        'mcp_store_command_duration_seconds_bucket', 'mcp_store_errors_total',
        'mcp_server_operation_duration_seconds_bucket', 'mcp_server_session_duration_seconds_bucket',
        'mcp_trace_spans_exported_total', 'mcp_trace_spans_dropped_total']) {
        assert.ok(queries.some((q) => q.expr.includes(metric)), `no panel shows ${metric}`);
    }

    const redis = await RedisServer.start();
    cleanups.push(() => redis.close());
    const metricsPort = await freePort();
    const collectorPort = await freePort(); // nothing listens there: every batch fails
    const demo = await HttpDemo.start(
        ['--metrics', `127.0.0.1:${metricsPort}`, '--store', redis.url, '--max-sessions-per-client', '1',
            '--otlp-endpoint', `http://127.0.0.1:${collectorPort}/v1/traces`],
        { env: { MCP_SECRET: newSecret() } });
    cleanups.push(() => demo.close());
    const prometheus = await Prometheus.start(`127.0.0.1:${metricsPort}`,
        { dir: mkdtempSync(join(scratch, 'prometheus-')), cleanups, job: JOB });
    await prometheus.waitFor(`up{job="${JOB}"}`, 1);

    // Two sessions ended a few scrapes apart, so that the session histogram's rate is not zero.
    await Promise.all([sessionLoad(demo.url, 'first'), statelessLoad(demo.url)]);
    await prometheus.waitFor('sum(mcp_server_session_duration_seconds_count)', 1);
    await sessionLoad(demo.url, 'second');
    await prometheus.waitFor('sum(mcp_server_session_duration_seconds_count)', 2);
    // The load's spans, given up after the exporter's retries (about 2.5 s), and none for want of room.
    await prometheus.waitFor(`sum(mcp_trace_spans_dropped_total{job="${JOB}", reason="export_failed"})`, (n) => n > 0,
        'spans dropped as export_failed');
    assert.equal(await prometheus.value(`sum(mcp_trace_spans_dropped_total{job="${JOB}", reason="queue_full"})`), 0);
    // Two scrapes after the load: every series it made has two samples for rate().
    const loaded = Date.now() / 1000;
    await waitUntil(async () => (await prometheus.value(`timestamp(up{job="${JOB}"})`)) >= loaded + 1.2, 10_000,
        'two scrapes after the load');

    const empty = [];
    for (const { panel, expr } of queries) {
        const result = await prometheus.query(substitute(expr));
        if (!result.some((series) => !Number.isNaN(Number(series.value[1])))) empty.push(`${panel}: ${expr} → ${JSON.stringify(result)}`);
    }
    assert.deepEqual(empty, [], `panels that would show nothing:\n${empty.join('\n')}`);

    // The variables' label_values(selector, label): the selector has series carrying the label.
    for (const variable of dashboard.templating.list.filter((v) => v.type === 'query')) {
        const [, selector, label] = variable.query.query.match(/^label_values\((.+), (\w+)\)$/);
        const result = await prometheus.query(substitute(selector));
        assert.ok(result.some((series) => series.metric[label]), `variable ${variable.name}: ${selector} has no ${label}`);
    }
});

test('promtool accepts the alert rules, and their tests fire and stay quiet for every alert', TEST, () => {
    const check = spawnSync(PROMTOOL, ['check', 'rules', RULES], { encoding: 'utf8' });
    assert.equal(check.status, 0, `promtool check rules:\n${check.stdout}${check.stderr}`);
    const run = spawnSync(PROMTOOL, ['test', 'rules', RULE_TESTS], { encoding: 'utf8' });
    assert.equal(run.status, 0, `promtool test rules:\n${run.stdout}${run.stderr}`);

    const alerts = [...readFileSync(RULES, 'utf8').matchAll(/^\s*- alert: (\S+)$/gm)].map((m) => m[1]);
    assert.ok(alerts.length >= 8, `${alerts.length} alerts`);
    const cases = ruleCases(readFileSync(RULE_TESTS, 'utf8'));
    for (const alert of alerts) {
        assert.ok(cases.some(([name, fires]) => name === alert && fires), `no test where ${alert} fires`);
        assert.ok(cases.some(([name, fires]) => name === alert && !fires), `no test where ${alert} stays quiet`);
    }
});
