// One trace through mcp-cpp-gateway (docs/adr/0030-tracing.md, decision 11): mcp-cpp-client, traced,
// calls a tool through the gateway fronting mcp-cpp-demo over stdio, itself traced, and every
// process exports to one OTLP receiver. Checked: the client's CLIENT span, the gateway's SERVER span
// under it, its handler span, its upstream CLIENT span under that, the child's SERVER span under
// that, each with its process's service.name and service.instance.id; a tool error and a child
// killed mid-call as ERROR on the gateway's CLIENT span; server-everything (npm) behind a tap that
// records what the gateway writes to it: the _meta.traceparent of its tools/call, prompts/get and
// resources/read names the gateway's CLIENT span, and an unsampled caller's decision goes on.
//   MCP_CPP_DEMO=... MCP_CPP_GATEWAY=... MCP_CPP_CLIENT=... node --test tests/e2e/gateway_tracing.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { binary, HttpDemo, waitUntil, withTimeout } from './helpers.mjs';
import { Receiver, SPAN_KIND, STATUS_ERROR } from './otlp_receiver.mjs';

const TEST = { timeout: 60_000 };
const REQUEST = { timeout: 15_000 };
const { SERVER, CLIENT, INTERNAL } = SPAN_KIND;
const here = fileURLToPath(new URL('.', import.meta.url));
const packages = join(here, 'node_modules', '@modelcontextprotocol');

// The processes whose command line names `text` (the scratch directory: this suite's children only).
function pidsNaming(text) {
    const pids = [];
    for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
            if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) pids.push(Number(entry));
        } catch {
            // gone meanwhile
        }
    }
    return pids;
}

// Passes stdin to the server it starts, appending every byte to a log first: what the gateway sent.
const TAP = `import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
const [log, ...command] = process.argv.slice(2);
const child = spawn(process.execPath, command, { stdio: ['pipe', 'inherit', 'inherit'] });
process.stdin.on('data', (chunk) => { appendFileSync(log, chunk); child.stdin.write(chunk); });
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code) => process.exit(code ?? 1));
`;

const randomHex = (n) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

const runClient = (args) => new Promise((resolve) => {
    execFile(binary('MCP_CPP_CLIENT', 'mcp-cpp-client'), args, { timeout: 30_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? error.code : 0, stdout, stderr }));
});

describe('one trace from mcp::Client through mcp-cpp-gateway to its stdio children', () => {
    let scratch;
    let receiver;
    let gateway;
    let sdk;
    let tapLog;

    before(async () => {
        scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-tracing-'));
        receiver = await Receiver.start();
        tapLog = join(scratch, 'everything.in');
        writeFileSync(tapLog, '');
        writeFileSync(join(scratch, 'tap.mjs'), TAP);
        writeFileSync(join(scratch, 'everything.mjs'),
            `import ${JSON.stringify(join(packages, 'server-everything/dist/index.js'))};\n`);
        const servers = {
            mcpServers: {
                demo: {
                    command: binary('MCP_CPP_DEMO', 'mcp-cpp-demo'),
                    args: ['--stdio', '--otlp-endpoint', receiver.url, '--otel-service-name', 'child-demo',
                        '--otel-resource-attributes', `e2e.scratch=${scratch}`],
                },
                everything: { command: process.execPath, args: [join(scratch, 'tap.mjs'), tapLog, join(scratch, 'everything.mjs'), 'stdio'] },
            },
        };
        writeFileSync(join(scratch, 'servers.json'), JSON.stringify(servers));
        gateway = await HttpDemo.start(['--servers', join(scratch, 'servers.json'), '--otlp-endpoint', receiver.url,
            '--otel-service-name', 'gateway'], { binary: binary('MCP_CPP_GATEWAY', 'mcp-cpp-gateway') });
        sdk = new Client({ name: 'gateway-tracing-e2e', version: '1.0.0' }, { capabilities: {} });
        await sdk.connect(new StreamableHTTPClientTransport(new URL(gateway.url)), REQUEST);
    });
    after(async () => {
        await sdk?.close().catch(() => {});
        await gateway?.close();
        await receiver?.close();
        if (scratch) {
            await waitUntil(() => pidsNaming(scratch).length === 0, 10_000, 'the children to exit with the gateway');
            rmSync(scratch, { recursive: true, force: true });
        }
    });

    // The gateway's spans for one outer call in `traceId`: its SERVER span (the child of `parent`),
    // the handler span under it, and the upstream CLIENT span `inner` under that.
    async function gatewayHop(traceId, parent, outer, inner) {
        const server = await receiver.span((s) => s.traceId === traceId && s.kind === SERVER && s.name === outer,
            `the gateway's SERVER span ${outer}`);
        assert.equal(server.parentSpanId, parent, 'under the caller\'s span');
        assert.equal(server.resource['service.name'], 'gateway');
        const handler = await receiver.span((s) => s.parentSpanId === server.spanId && s.kind === INTERNAL,
            `the gateway's handler span of ${outer}`);
        assert.equal(handler.traceId, traceId);
        const client = await receiver.span((s) => s.parentSpanId === handler.spanId && s.kind === CLIENT,
            `the gateway's upstream CLIENT span ${inner}`);
        assert.equal(client.name, inner);
        assert.equal(client.traceId, traceId);
        assert.equal(client.resource['service.name'], 'gateway', 'the upstream spans go with the gateway\'s own');
        assert.equal(client.resource['service.instance.id'], server.resource['service.instance.id'], 'one tracer for the process');
        assert.ok(client.startTimeUnixNano >= handler.startTimeUnixNano && client.endTimeUnixNano <= handler.endTimeUnixNano);
        return { server, handler, client };
    }

    test('mcp-cpp-client → gateway → mcp-cpp-demo over stdio: one trace, five spans, parents right', TEST, async () => {
        const r = await runClient(['--url', gateway.url, '--otlp-endpoint', `${receiver.url}/v1/traces`, '--json',
            'tools/call', 'demo_word_stats', 'text=one two two']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /"words":\s*3/);

        const caller = await receiver.span((s) => s.kind === CLIENT && s.name === 'tools/call demo_word_stats'
            && s.resource['service.name'] === 'mcp-cpp-client', 'mcp-cpp-client\'s CLIENT span');
        assert.equal(caller.parentSpanId, '', 'the client starts the trace');
        const hop = await gatewayHop(caller.traceId, caller.spanId, 'tools/call demo_word_stats', 'tools/call word_stats');
        assert.equal(hop.handler.name, 'execute_tool demo_word_stats');
        assert.equal(hop.client.attributes['gen_ai.tool.name'], 'word_stats');
        assert.equal(hop.client.status.code ?? 0, 0);

        const child = await receiver.span((s) => s.parentSpanId === hop.client.spanId, 'the child\'s SERVER span');
        assert.equal(child.kind, SERVER);
        assert.equal(child.name, 'tools/call word_stats');
        assert.equal(child.traceId, caller.traceId);
        assert.equal(child.flags, 0x301, 'sampled, and the parent is remote');
        assert.equal(child.resource['service.name'], 'child-demo');
        const childHandler = await receiver.span((s) => s.parentSpanId === child.spanId, 'the child\'s handler span');
        assert.equal(childHandler.attributes['demo.words'], '3');

        const instances = [caller, hop.server, child].map((s) => s.resource['service.instance.id']);
        assert.ok(instances.every((id) => /^[0-9a-f-]{36}$/.test(id)), `each process names its instance: ${instances}`);
        assert.equal(new Set(instances).size, 3, 'three processes, three instances');
    });

    test('a tool error upstream: the gateway\'s CLIENT span is ERROR, tool_error', TEST, async () => {
        const r = await runClient(['--url', gateway.url, '--otlp-endpoint', `${receiver.url}/v1/traces`,
            'tools/call', 'demo_delete_note', 'slug=no-such-note']);
        assert.equal(r.code, 1, `isError: ${r.stderr}`);
        const caller = await receiver.span((s) => s.kind === CLIENT && s.name === 'tools/call demo_delete_note'
            && s.resource['service.name'] === 'mcp-cpp-client', 'mcp-cpp-client\'s CLIENT span');
        const hop = await gatewayHop(caller.traceId, caller.spanId, 'tools/call demo_delete_note', 'tools/call delete_note');
        assert.equal(hop.client.status.code, STATUS_ERROR);
        assert.equal(hop.client.attributes['error.type'], 'tool_error');
        const child = await receiver.span((s) => s.parentSpanId === hop.client.spanId, 'the child\'s SERVER span');
        assert.equal(child.attributes['error.type'], 'tool_error');
    });

    test('the child killed mid-call: the gateway\'s CLIENT span is ERROR, the outer call fails at once', TEST, async () => {
        const traceId = randomHex(32);
        const parent = randomHex(16);
        const [child] = pidsNaming(`e2e.scratch=${scratch}`);
        assert.ok(child, 'the demo child runs');
        let killed = false;
        const call = sdk.callTool({ name: 'demo_slow_count', arguments: { to: 300, step_ms: 100 }, _meta: { traceparent: `00-${traceId}-${parent}-01` } },
            undefined, { timeout: 60_000, onprogress: () => {
                if (!killed) {
                    killed = true;
                    process.kill(child, 'SIGKILL');
                }
            } });
        const error = await withTimeout(call.then(() => undefined, (e) => e), 15_000, 'the killed call to fail');
        assert.ok(killed, 'the child was killed mid-call');
        assert.ok(error, 'the call failed');

        const hop = await gatewayHop(traceId, parent, 'tools/call demo_slow_count', 'tools/call slow_count');
        assert.equal(hop.client.status.code, STATUS_ERROR);
        assert.equal(hop.client.attributes['error.type'], 'transport');
        assert.equal(hop.server.status.code, STATUS_ERROR);
        assert.equal(hop.server.attributes['error.type'], '-32603');
    });

    // What the gateway wrote to server-everything: the requests of `method`, parsed.
    const tapped = (method) => readFileSync(tapLog, 'utf8').split('\n').filter((l) => l.trim())
        .map((l) => JSON.parse(l)).filter((m) => m.method === method);

    test('server-everything (npm): its tools/call, prompts/get and resources/read carry the gateway\'s CLIENT span', TEST, async () => {
        const traceId = randomHex(32);
        const parent = randomHex(16);
        const _meta = { traceparent: `00-${traceId}-${parent}-01`, tracestate: 'vendor=gw' };
        const echoed = await sdk.callTool({ name: 'everything_echo', arguments: { message: 'traced' }, _meta }, undefined, REQUEST);
        assert.match(JSON.stringify(echoed.content), /traced/);
        await sdk.getPrompt({ name: 'everything_simple-prompt', _meta }, REQUEST);
        await sdk.readResource({ uri: 'demo://everything/resource/dynamic/text/2', _meta }, REQUEST);

        const hops = [
            ['tools/call', await gatewayHop(traceId, parent, 'tools/call everything_echo', 'tools/call echo')],
            ['prompts/get', await gatewayHop(traceId, parent, 'prompts/get everything_simple-prompt', 'prompts/get simple-prompt')],
            ['resources/read', await gatewayHop(traceId, parent, 'resources/read', 'resources/read')],
        ];
        for (const [method, hop] of hops) {
            assert.equal(hop.client.traceState, 'vendor=gw', `${method}: the caller's tracestate goes on`);
            const sent = tapped(method).find((m) => m.params?._meta?.traceparent?.includes(traceId));
            assert.ok(sent, `${method}: the child received the trace: ${JSON.stringify(tapped(method))}`);
            assert.equal(sent.params._meta.traceparent, `00-${traceId}-${hop.client.spanId}-01`);
            assert.equal(sent.params._meta.tracestate, 'vendor=gw');
        }
    });

    test('an unsampled caller: no span anywhere, and the child hears the decision', TEST, async () => {
        const traceId = randomHex(32);
        const result = await sdk.callTool({ name: 'everything_echo', arguments: { message: 'unsampled' },
            _meta: { traceparent: `00-${traceId}-${randomHex(16)}-00` } }, undefined, REQUEST);
        assert.match(JSON.stringify(result.content), /unsampled/);
        const sent = tapped('tools/call').find((m) => m.params?._meta?.traceparent?.includes(traceId));
        assert.ok(sent, 'the child received the trace');
        assert.match(sent.params._meta.traceparent, new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
        // A sampled call after it: once its spans arrived, the unsampled one's would have too.
        const marker = randomHex(32);
        await sdk.callTool({ name: 'everything_echo', arguments: { message: 'marker' },
            _meta: { traceparent: `00-${marker}-${randomHex(16)}-01` } }, undefined, REQUEST);
        await receiver.span((s) => s.traceId === marker && s.kind === CLIENT, 'the marker call\'s CLIENT span');
        assert.deepEqual(receiver.spans.filter((s) => s.traceId === traceId), []);
    });
});
