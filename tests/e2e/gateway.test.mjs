// End-to-end: mcp-cpp-gateway in front of servers nobody here wrote, from npm:
// @modelcontextprotocol/server-everything, server-memory and server-filesystem as stdio children
// (2025-11-25 servers), served on one Streamable HTTP endpoint and driven by the TypeScript SDK v1
// client (2025-11-25, a session), the v2 client pinned to 2026-07-28 (stateless) and mcp-cpp-client
// on both; server-everything's elicitation and sampling answered by the caller on both wires (on
// 2026 in input rounds, one child call); its completions through the gateway as asked directly; server-everything's task tool run as a task of the
// gateway's (SDK v1, 2025 tasks); a child killed mid-call fails that call at once and comes
// back; a remote upstream gets the headers its entry names and never the caller's token
// (docs/adr/0029-gateway.md).
//   MCP_CPP_GATEWAY=build/tools/mcp-cpp-gateway/mcp-cpp-gateway MCP_CPP_CLIENT=build/tools/mcp-cpp-client/mcp-cpp-client \
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/gateway.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateMessageRequestSchema, ElicitRequestSchema, McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, ProtocolError, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';

import { AuthorizationServer, SERVICE_CLIENT } from './authorization_server.mjs';
import { childPids, packages, writeServers } from './gateway_servers.mjs';
import { binary, HttpDemo, MODERN, waitUntil, withTimeout } from './helpers.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

const run = promisify(execFile);
const REQUEST = { timeout: 15_000 };
const TEST = { timeout: 60_000 };

async function connectV1(url) {
    const client = new ClientV1({ name: 'gateway-e2e-v1', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new TransportV1(new URL(url)), REQUEST);
    return client;
}

// A client that answers the children's questions: forms with `answer(request)`, sampling by echoing
// the prompt; what it was asked is kept in `asked`.
async function connectAnswering(wire, url, answer) {
    const asked = [];
    const capabilities = { elicitation: { form: {} }, sampling: {} };
    const client = wire === 'v1'
        ? new ClientV1({ name: 'gateway-e2e-answering-v1', version: '1.0.0' }, { capabilities })
        : new ClientV2({ name: 'gateway-e2e-answering-v2', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: { pin: MODERN } } });
    const onElicit = (req) => {
        asked.push(req.params);
        return answer(req.params);
    };
    const onSample = (req) => {
        asked.push(req.params);
        return { role: 'assistant', model: 'e2e-model', content: { type: 'text', text: `echo ${req.params.messages[0].content.text}` } };
    };
    if (wire === 'v1') {
        client.setRequestHandler(ElicitRequestSchema, onElicit);
        client.setRequestHandler(CreateMessageRequestSchema, onSample);
    } else {
        client.setRequestHandler('elicitation/create', onElicit);
        client.setRequestHandler('sampling/createMessage', onSample);
    }
    await client.connect(wire === 'v1' ? new TransportV1(new URL(url)) : new TransportV2(new URL(url)), REQUEST);
    return { client, asked };
}

async function connectV2(url) {
    const client = new ClientV2({ name: 'gateway-e2e-v2', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new TransportV2(new URL(url)), REQUEST);
    return client;
}

const textOf = (result) => {
    assert.equal(result.content?.[0]?.type, 'text', `first content block is text: ${JSON.stringify(result)}`);
    return result.content[0].text;
};

const names = (items) => items.map((i) => i.name);

// tools/call through either SDK: v1 takes (params, resultSchema, options), v2 (params, options).
const callTool = (client, params, options = REQUEST) =>
    (client instanceof ClientV1 ? client.callTool(params, undefined, options) : client.callTool(params, options));

describe('mcp-cpp-gateway in front of server-everything, server-memory and server-filesystem', () => {
    let scratch;
    let gateway;
    const clients = {};

    before(async () => {
        scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-e2e-'));
        const servers = writeServers(scratch);
        gateway = await HttpDemo.start(['--servers', servers], { binary: binary('MCP_CPP_GATEWAY', 'mcp-cpp-gateway') });
        assert.match(gateway.stderr, /server "broken" is reconnecting/, 'the gateway says which server it serves without');
        clients.v1 = await connectV1(gateway.url);
        clients.v2 = await connectV2(gateway.url);
    });
    after(async () => {
        for (const c of Object.values(clients)) await c?.close().catch(() => {});
        await gateway?.close();
        // The gateway's children go with it.
        if (scratch) {
            await waitUntil(() => childPids(scratch, '').length === 0, 10_000, 'the children to exit with the gateway');
            rmSync(scratch, { recursive: true, force: true });
        }
    });

    // server-everything's simulate-research-query runs only as a 2025 task: the gateway's tool says
    // so, its call is a task of the gateway's, and the gateway follows the child's own task to its end.
    test('2025-11-25, SDK v1: a task tool of a child is a task tool of the gateway, run as a task', TEST, async () => {
        const c = clients.v1;
        const tool = (await c.listTools(undefined, REQUEST)).tools.find((t) => t.name === 'everything_simulate-research-query');
        assert.deepEqual(tool?.execution, { taskSupport: 'required' }, JSON.stringify(tool));
        const messages = [];
        const stream = c.experimental.tasks.callToolStream({ name: 'everything_simulate-research-query', arguments: { topic: 'gateways' } },
            CallToolResultSchema, { timeout: 30_000, task: { ttl: 60_000 } });
        for await (const message of stream) messages.push(message);
        const types = messages.map((m) => m.type);
        assert.equal(types[0], 'taskCreated', JSON.stringify(messages));
        assert.equal(types.at(-1), 'result', JSON.stringify(messages));
        assert.match(textOf(messages.at(-1).result), /Research Report: gateways/);
        const task = await c.experimental.tasks.getTask(messages[0].task.taskId, REQUEST);
        assert.equal(task.status, 'completed');
    });

    // server-everything sends resources/updated for each URI its stdio connection subscribed to,
    // once when toggle-subscriber-updates starts them and every 5 s after: the gateway subscribes
    // the child once per URI, passes the updates on under the mounted URI, and unsubscribes it when
    // the caller does.
    test('2025-11-25, SDK v1: a subscription to a mounted resource hears its updates, until unsubscribed', TEST, async () => {
        const c = await connectV1(gateway.url);
        const heard = [];
        c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { heard.push(n.params.uri); });
        const first = 'demo://everything/resource/dynamic/text/1';
        const second = 'demo://everything/resource/dynamic/text/2';
        const count = (uri) => heard.filter((u) => u === uri).length;
        try {
            await c.subscribeResource({ uri: first }, REQUEST);
            assert.match(textOf(await callTool(c, { name: 'everything_toggle-subscriber-updates', arguments: {} })), /Started/);
            await waitUntil(() => count(first) > 0, 20_000, 'an update of the subscribed resource');
            assert.ok(heard.every((u) => u.startsWith('demo://everything/')), `only mounted URIs: ${heard.join(' ')}`);

            await c.unsubscribeResource({ uri: first }, REQUEST);
            await c.subscribeResource({ uri: second }, REQUEST);  // after the unsubscribe, in the child too
            await waitUntil(() => count(second) > 0, 20_000, 'an update of the second resource');
            const before = count(first);
            await waitUntil(() => count(second) > 1, 20_000, 'a later update of the second resource');
            assert.equal(count(first), before, `no update of the unsubscribed resource: ${heard.join(' ')}`);

            // Hostile: what was never subscribed, another prefix, a URI that is no mount's.
            await c.unsubscribeResource({ uri: 'demo://everything/never' }, REQUEST);
            await c.subscribeResource({ uri: 'demo://nobody/x' }, REQUEST);
            await c.unsubscribeResource({ uri: 'no-scheme' }, REQUEST);
            await c.unsubscribeResource({ uri: second }, REQUEST);
        } finally {
            await callTool(c, { name: 'everything_toggle-subscriber-updates', arguments: {} }).catch(() => {});
            await c.close();
        }
    });

    for (const wire of ['v1', 'v2']) {
        const era = wire === 'v1' ? '2025-11-25, SDK v1' : '2026-07-28, SDK v2';

        test(`${era}: the three servers' tools, prompts, resources and templates under their prefixes`, TEST, async () => {
            const c = clients[wire];
            const tools = names((await c.listTools(undefined, REQUEST)).tools);
            for (const name of ['everything_echo', 'everything_get-sum', 'memory_create_entities', 'memory_read_graph',
                'filesystem_read_text_file', 'filesystem_list_allowed_directories']) {
                assert.ok(tools.includes(name), `${name} is listed: ${tools.join(' ')}`);
            }
            assert.ok(tools.every((n) => /^(everything|memory|filesystem)_/.test(n)), `every name has its server's prefix, none of the broken one: ${tools.join(' ')}`);
            assert.ok(names((await c.listPrompts(undefined, REQUEST)).prompts).includes('everything_simple-prompt'));
            const resources = (await c.listResources(undefined, REQUEST)).resources.map((r) => r.uri);
            assert.ok(resources.includes('memory://memory/knowledge-graph'), `server-memory's graph: ${resources.join(' ')}`);
            assert.ok(resources.length > 1 && resources.every((u) => /^(demo:\/\/everything|memory:\/\/memory)\//.test(u)),
                `every URI rewritten: ${resources.join(' ')}`);
            const templates = (await c.listResourceTemplates(undefined, REQUEST)).resourceTemplates.map((t) => t.uriTemplate);
            assert.ok(templates.includes('demo://everything/resource/dynamic/text/{resourceId}'), `rewritten templates: ${templates.join(' ')}`);
        });

        test(`${era}: calls, prompts and reads reach the right child`, TEST, async () => {
            const c = clients[wire];
            assert.equal(textOf(await callTool(c, { name: 'everything_echo', arguments: { message: wire } }, REQUEST)), `Echo: ${wire}`);
            const sum = await callTool(c, { name: 'everything_get-sum', arguments: { a: 2, b: 40 } }, REQUEST);
            assert.match(textOf(sum), /42/);

            const entity = `Ada_${wire}`;
            await callTool(c, { name: 'memory_create_entities', arguments: { entities: [{ name: entity, entityType: 'person', observations: ['wrote the first program'] }] } }, REQUEST);
            const graph = await callTool(c, { name: 'memory_read_graph', arguments: {} }, REQUEST);
            assert.ok(JSON.stringify(graph).includes(entity), `the graph holds ${entity}: ${JSON.stringify(graph).slice(0, 500)}`);

            const file = await callTool(c, { name: 'filesystem_read_text_file', arguments: { path: join(scratch, 'hello.txt') } }, REQUEST);
            assert.equal(textOf(file).trim(), 'hello through the gateway');
            const outside = await callTool(c, { name: 'filesystem_read_text_file', arguments: { path: '/etc/hostname' } }, REQUEST);
            assert.equal(outside.isError, true, 'the child\'s own refusal comes back as its isError result');

            const prompt = await c.getPrompt({ name: 'everything_simple-prompt' }, REQUEST);
            assert.match(prompt.messages[0].content.text, /simple prompt/);

            const read = await c.readResource({ uri: 'demo://everything/resource/dynamic/text/2' }, REQUEST);
            assert.equal(read.contents[0].uri, 'demo://everything/resource/dynamic/text/2', 'the URI as this client knows it');
            assert.match(read.contents[0].text, /Resource 2/);

            const links = await callTool(c, { name: 'everything_get-resource-links', arguments: { count: 2 } }, REQUEST);
            const linked = links.content.filter((b) => b.type === 'resource_link').map((b) => b.uri);
            assert.equal(linked.length, 2);
            for (const uri of linked) {
                assert.ok(uri.startsWith('demo://everything/'), `a link the client can read through the gateway: ${uri}`);
                await c.readResource({ uri }, REQUEST);
            }
        });

        // server-everything completes its completable-prompt's department, the name from the department
        // given in context.arguments, and its dynamic templates' resourceId: the gateway asks the child.
        test(`${era}: completions of a child's prompt argument and template variable are the child's own`, TEST, async () => {
            // A second server-everything, asked directly (not the gateway's child: its script has another name).
            writeFileSync(join(scratch, 'direct.mjs'), readFileSync(join(scratch, 'everything.mjs')));
            const direct = new ClientV1({ name: 'gateway-e2e-direct', version: '1.0.0' }, { capabilities: {} });
            await direct.connect(new StdioClientTransport({ command: process.execPath, args: [join(scratch, 'direct.mjs'), 'stdio'] }), REQUEST);
            try {
                const prompt = { type: 'ref/prompt', name: 'completable-prompt' };
                const template = { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' };
                const asked = [
                    { ref: prompt, argument: { name: 'department', value: 'E' } },
                    { ref: prompt, argument: { name: 'department', value: '' } },
                    { ref: prompt, argument: { name: 'name', value: '' }, context: { arguments: { department: 'Sales' } } },
                    { ref: template, argument: { name: 'resourceId', value: '7' } },
                ];
                for (const params of asked) {
                    const expected = (await direct.complete(params, REQUEST)).completion;
                    assert.ok(expected.values.length > 0, `server-everything completes ${JSON.stringify(params)}`);
                    const ref = params.ref.type === 'ref/prompt'
                        ? { ...params.ref, name: `everything_${params.ref.name}` }
                        : { ...params.ref, uri: params.ref.uri.replace('demo://', 'demo://everything/') };
                    const got = (await clients[wire].complete({ ...params, ref }, REQUEST)).completion;
                    assert.deepEqual(got, expected, `through the gateway as directly: ${JSON.stringify(params)}`);
                }
            } finally {
                await direct.close().catch(() => {});
            }
        });

        test(`${era}: the child's progress reaches the caller`, TEST, async () => {
            const progress = [];
            const result = await callTool(clients[wire], { name: 'everything_trigger-long-running-operation', arguments: { duration: 1, steps: 4 } }, { ...REQUEST, onprogress: (p) => progress.push(p.progress) });
            assert.match(textOf(result), /completed/i);
            assert.ok(progress.length >= 2, `progress came through: ${JSON.stringify(progress)}`);
            assert.deepEqual([...progress].sort((a, b) => a - b), progress, 'in order');
        });

        test(`${era}: the child's elicitation and sampling are answered by the caller, in one child call`, TEST, async () => {
            let action = 'accept';
            const { client, asked } = await connectAnswering(wire, gateway.url,
                () => (action === 'accept' ? { action, content: { name: 'Ada Lovelace', check: true } } : { action }));
            try {
                const tools = names((await client.listTools(undefined, REQUEST)).tools);
                assert.ok(tools.includes('everything_trigger-elicitation-request') && tools.includes('everything_trigger-sampling-request'),
                    `the child offers the tools a client with elicitation and sampling gets: ${tools.join(' ')}`);
                const accepted = await callTool(client, { name: 'everything_trigger-elicitation-request', arguments: {} });
                assert.match(JSON.stringify(accepted.content), /User provided the requested information/);
                assert.match(JSON.stringify(accepted.content), /Name: Ada Lovelace/);
                assert.equal(asked.length, 1, 'asked once');
                assert.equal(asked[0].message, 'Please provide inputs for the following fields:');
                assert.deepEqual(asked[0].requestedSchema.required, ['name'], 'the child\'s form as it sent it');
                assert.equal(asked[0].requestedSchema.properties.email.format, 'email');
                action = 'decline';
                assert.match(JSON.stringify((await callTool(client, { name: 'everything_trigger-elicitation-request', arguments: {} })).content), /declined/);
                action = 'cancel';
                assert.match(JSON.stringify((await callTool(client, { name: 'everything_trigger-elicitation-request', arguments: {} })).content), /cancelled/);
                const sampled = await callTool(client, { name: 'everything_trigger-sampling-request', arguments: { prompt: 'a haiku', maxTokens: 20 } });
                assert.match(textOf(sampled), /echo Resource trigger-sampling-request context: a haiku/);
                assert.match(textOf(sampled), /e2e-model/);
                assert.equal(asked.length, 4);
            } finally {
                await client.close().catch(() => {});
            }
        });

        test(`${era}: a child killed mid-call fails the call at once with an error, and is restarted`, TEST, async () => {
            const c = clients[wire];
            const before = childPids(scratch, 'everything.mjs');
            assert.equal(before.length, 1, `one server-everything child: ${before}`);
            let killed = false;
            const call = callTool(c, { name: 'everything_trigger-long-running-operation', arguments: { duration: 30, steps: 30 } }, { timeout: 60_000, onprogress: () => {
                    if (!killed) {
                        killed = true;
                        process.kill(before[0], 'SIGKILL');
                    }
                } });
            // Well before the call's own 30 s: the caller hears of the death, it does not wait for it.
            const error = await withTimeout(call.then(() => undefined, (e) => e), 10_000, 'the killed call to fail');
            assert.ok(killed, 'the child was killed mid-call');
            assert.ok(error instanceof (wire === 'v1' ? McpError : ProtocolError), `a JSON-RPC error, not a result: ${error}`);
            assert.equal(error.code, -32603);
            assert.match(error.message, /mounted server "everything" cannot be reached/);

            await waitUntil(async () => {
                const pids = childPids(scratch, 'everything.mjs');
                if (pids.length !== 1 || pids[0] === before[0]) return false;
                try {
                    return textOf(await callTool(c, { name: 'everything_echo', arguments: { message: 'back' } }, REQUEST)) === 'Echo: back';
                } catch {
                    return false;  // restarting: the call fails at once
                }
            }, 20_000, 'server-everything to be restarted and answer');
            await waitUntil(() => /server "everything" is back/.test(gateway.stderr), 5_000, 'the gateway to say the server is back');
            // The other children never noticed.
            const dirs = await callTool(c, { name: 'filesystem_list_allowed_directories', arguments: {} }, REQUEST);
            assert.match(textOf(dirs), new RegExp(scratch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
        });
    }

    for (const version of ['2025-11-25', MODERN]) {
        test(`mcp-cpp-client on ${version}: lists and calls through the gateway`, TEST, async () => {
            const client = binary('MCP_CPP_CLIENT', 'mcp-cpp-client');
            const common = ['--url', gateway.url, '--protocol-version', version];
            const listed = await run(client, [...common, 'tools/list'], { timeout: 30_000 });
            assert.match(listed.stdout, /^everything_echo\t/m);
            assert.match(listed.stdout, /^memory_read_graph\t/m);
            const echoed = await run(client, [...common, 'tools/call', 'everything_echo', 'message=from C++'], { timeout: 30_000 });
            assert.equal(echoed.stdout.trim(), 'Echo: from C++');
            const read = await run(client, [...common, 'resources/read', 'demo://everything/resource/dynamic/text/1'], { timeout: 30_000 });
            assert.match(read.stdout, /Resource 1/);
        });
    }
});

describe('mcp-cpp-gateway --no-prefix in front of one server', () => {
    test('server-memory\'s own names and URIs, on both wires', TEST, async () => {
        const scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-one-'));
        writeFileSync(join(scratch, 'memory.mjs'), `import ${JSON.stringify(join(packages, 'server-memory/dist/index.js'))};\n`);
        const file = join(scratch, 'one.json');
        writeFileSync(file, JSON.stringify({ servers: { memory: { type: 'stdio', command: process.execPath, args: [join(scratch, 'memory.mjs')],
            env: { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') } } } }));
        const one = await HttpDemo.start([`--servers=${file}`, '--no-prefix'], { binary: binary('MCP_CPP_GATEWAY', 'mcp-cpp-gateway') });
        const connected = [];
        try {
            connected.push(await connectV1(one.url), await connectV2(one.url));
            for (const c of connected) {
                const tools = names((await c.listTools(undefined, REQUEST)).tools);
                assert.ok(tools.includes('create_entities') && tools.includes('read_graph'), `unprefixed: ${tools.join(' ')}`);
                assert.ok(tools.every((n) => !n.startsWith('memory_')), `no prefix: ${tools.join(' ')}`);
                const resources = (await c.listResources(undefined, REQUEST)).resources.map((r) => r.uri);
                assert.deepEqual(resources, ['memory://knowledge-graph']);
                const graph = await callTool(c, { name: 'read_graph', arguments: {} });
                assert.ok(Array.isArray(JSON.parse(textOf(graph)).entities), textOf(graph));
            }
        } finally {
            for (const c of connected) await c.close().catch(() => {});
            await one.close();
            await waitUntil(() => childPids(scratch, '').length === 0, 10_000, 'the child to exit with the gateway');
            rmSync(scratch, { recursive: true, force: true });
        }
    });
});

// An HTTP relay in front of an upstream MCP server that keeps every request's headers and body.
async function recordingRelay(upstream) {
    const seen = [];
    const server = createServer(async (req, res) => {
        const chunks = [];
        for await (const c of req) chunks.push(c);
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({ headers: req.headers, body });
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)));
        try {
            const answer = await fetch(upstream, { method: req.method, headers, body: req.method === 'POST' ? body : undefined });
            res.writeHead(answer.status, Object.fromEntries(answer.headers));
            if (answer.body) Readable.fromWeb(answer.body).pipe(res);
            else res.end();
        } catch (e) {
            res.writeHead(502).end(String(e));
        }
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { seen, url: `http://127.0.0.1:${server.address().port}/mcp`, close: () => new Promise((r) => server.close(r)) };
}

describe('mcp-cpp-gateway in front of a remote server', () => {
    test('the upstream gets the headers its configuration names, never the caller\'s token', TEST, async () => {
        const demo = await HttpDemo.start();
        const relay = await recordingRelay(demo.url);
        const scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-remote-'));
        const file = join(scratch, 'remote.json');
        writeFileSync(file, JSON.stringify({ servers: { remote: { type: 'http', url: relay.url, headers: { 'X-Upstream-Key': 'configured-key' } } } }));
        const gateway = await HttpDemo.start(['--servers', file], { binary: binary('MCP_CPP_GATEWAY', 'mcp-cpp-gateway') });
        const callerToken = 'caller-token-that-must-stay-here';
        const front = await recordingRelay(gateway.url);  // shows that the token did reach the gateway
        const connected = [];
        try {
            for (const [Client, Transport] of [[ClientV1, TransportV1], [ClientV2, TransportV2]]) {
                const c = new Client({ name: 'gateway-e2e-remote', version: '1.0.0' }, { capabilities: {} });
                await c.connect(new Transport(new URL(front.url), { requestInit: { headers: { Authorization: `Bearer ${callerToken}` } } }), REQUEST);
                connected.push(c);
                assert.equal(textOf(await callTool(c, { name: 'remote_echo', arguments: { text: 'over two hops' } })), 'over two hops');
            }
            assert.ok(front.seen.length > 0 && front.seen.every(({ headers }) => headers.authorization === `Bearer ${callerToken}`),
                'every request reached the gateway with the caller\'s token');
            assert.ok(relay.seen.length > 0, 'the upstream was called');
            for (const { headers, body } of relay.seen) {
                assert.equal(headers['x-upstream-key'], 'configured-key', 'every upstream request carries the configured header');
                assert.equal(headers.authorization, undefined, 'no Authorization header upstream');
                assert.ok(!JSON.stringify(headers).includes(callerToken) && !body.includes(callerToken), 'the caller\'s token never goes upstream');
            }
        } finally {
            for (const c of connected) await c.close().catch(() => {});
            await front.close();
            await gateway.close();
            await relay.close();
            await demo.close();
            rmSync(scratch, { recursive: true, force: true });
        }
    });
});

describe('mcp-cpp-gateway in front of a server behind OAuth', () => {
    test('the configuration\'s client credentials authorize the upstream; a wrong secret leaves it out', TEST, async () => {
        const as = await AuthorizationServer.start();
        const demo = await HttpDemo.start(['--auth-issuer', as.issuer, '--auth-scopes', 'notes:read']);
        const scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-oauth-'));
        const gateways = [];
        const connected = [];
        const gatewayFor = async (name, secret) => {
            const file = join(scratch, `${name}.json`);
            const oauth = { grant: 'client_credentials', clientId: SERVICE_CLIENT.id,
                            clientSecret: '${env:MCP_GATEWAY_TEST_SECRET}', scopes: ['notes:read'] };
            writeFileSync(file, JSON.stringify({ servers: { [name]: { type: 'http', url: demo.url, oauth } } }));
            const gateway = await HttpDemo.start(['--servers', file], {
                binary: binary('MCP_CPP_GATEWAY', 'mcp-cpp-gateway'), env: { MCP_GATEWAY_TEST_SECRET: secret } });
            gateways.push(gateway);
            return gateway;
        };
        try {
            const refused = await fetch(demo.url, { method: 'POST', headers: { 'content-type': 'application/json',
                accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
            assert.equal(refused.status, 401, 'the upstream refuses a request without a token');

            const good = await gatewayFor('service', SERVICE_CLIENT.secret);
            const client = await connectV2(good.url);
            connected.push(client);
            assert.equal(textOf(await callTool(client, { name: 'service_echo', arguments: { text: 'authorized upstream' } })),
                'authorized upstream');

            const bad = await gatewayFor('wrong', 'not-the-secret');
            const other = await connectV2(bad.url);
            connected.push(other);
            const listed = names((await other.listTools()).tools);
            assert.ok(!listed.some((n) => n.startsWith('wrong_')), `nothing of an upstream that refused the gateway: ${listed}`);
            await waitUntil(() => /server "wrong" failed/.test(bad.stderr), 15_000, 'the gateway names the failing upstream');
            assert.doesNotMatch(bad.stderr + good.stderr, /not-the-secret|service-secret/, 'no secret in the gateway\'s log');
        } finally {
            for (const c of connected) await c.close().catch(() => {});
            for (const g of gateways) await g.close();
            await demo.close();
            await as.close();
            rmSync(scratch, { recursive: true, force: true });
        }
    });
});

describe('mcp-cpp-gateway --idle-stop and --max-children', () => {
    // server-memory and server-everything as the gateway's children, each by a script of its own.
    function twoServers(scratch) {
        writeServers(scratch);
        const config = {
            mcpServers: {
                everything: { command: process.execPath, args: [join(scratch, 'everything.mjs'), 'stdio'] },
                memory: { command: process.execPath, args: [join(scratch, 'memory.mjs')], env: { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') } },
            },
        };
        const file = join(scratch, 'two.json');
        writeFileSync(file, JSON.stringify(config));
        return file;
    }
    const alive = (scratch, name) => childPids(scratch, `${name}.mjs`).length > 0;

    test('an idle child stops and its entries stay; the next call starts it; a call in flight keeps it', TEST, async () => {
        const scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-idle-'));
        let gateway;
        let client;
        try {
            gateway = await HttpDemo.start(['--servers', twoServers(scratch), '--idle-stop', '1s'],
                                           { binary: binary('MCP_CPP_GATEWAY', 'mcp-cpp-gateway') });
            client = await connectV2(gateway.url);
            await waitUntil(async () => names((await client.listTools(undefined, REQUEST)).tools).includes('memory_read_graph'),
                            30_000, 'memory listed');
            await waitUntil(() => !alive(scratch, 'memory') && !alive(scratch, 'everything'), 15_000, 'both children stopped when idle');
            assert.match(gateway.stderr, /server "memory" stopped after being idle/);
            const tools = names((await client.listTools(undefined, REQUEST)).tools);
            assert.ok(tools.includes('memory_read_graph') && tools.includes('everything_echo'), `entries stay listed: ${tools}`);

            // No server-memory runs: the answer comes from one started for this call.
            assert.match(textOf(await callTool(client, { name: 'memory_read_graph', arguments: {} })), /entities/);
            assert.match(gateway.stderr, /server "memory" started again for a call/);

            // Three seconds of work with --idle-stop 1s: the child is not stopped under its call.
            const long = await callTool(client, { name: 'everything_trigger-long-running-operation', arguments: { duration: 3, steps: 3 } },
                                        { timeout: 45_000 });
            assert.match(JSON.stringify(long.content), /completed/i);
        } finally {
            await client?.close().catch(() => {});
            await gateway?.close();
            rmSync(scratch, { recursive: true, force: true });
        }
    });

    test('a child slower to start than --idle-stop is not stopped under the call that started it', TEST, async () => {
        const scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-slow-'));
        let gateway;
        let client;
        try {
            const config = { mcpServers: { slow: { command: process.execPath, args: [join(here, 'limited_server.mjs'), '--start-delay-ms', '2500'] } } };
            writeFileSync(join(scratch, 'slow.json'), JSON.stringify(config));
            gateway = await HttpDemo.start(['--servers', join(scratch, 'slow.json'), '--idle-stop', '1s'],
                                           { binary: binary('MCP_CPP_GATEWAY', 'mcp-cpp-gateway') });
            client = await connectV2(gateway.url);
            await waitUntil(async () => names((await client.listTools(undefined, REQUEST)).tools).includes('slow_report'),
                            30_000, 'slow listed');
            await waitUntil(() => /server "slow" stopped after being idle/.test(gateway.stderr), 15_000, 'slow stopped when idle');
            // Its start takes 2.5 s, over --idle-stop's 1 s: the call that waits for it keeps it running.
            assert.ok(Number.isInteger(JSON.parse(textOf(await callTool(client, { name: 'slow_report', arguments: {} }))).pid));
        } finally {
            await client?.close().catch(() => {});
            await gateway?.close();
            rmSync(scratch, { recursive: true, force: true });
        }
    });

    test('--max-children 1: one child runs, a call to the other swaps them, both answer', TEST, async () => {
        const scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-max-'));
        let gateway;
        let client;
        try {
            gateway = await HttpDemo.start(['--servers', twoServers(scratch), '--max-children', '1'],
                                           { binary: binary('MCP_CPP_GATEWAY', 'mcp-cpp-gateway') });
            client = await connectV2(gateway.url);
            await waitUntil(async () => {
                const tools = names((await client.listTools(undefined, REQUEST)).tools);
                return tools.includes('memory_read_graph') && tools.includes('everything_echo');
            }, 30_000, 'both servers listed once');
            await waitUntil(() => Number(alive(scratch, 'memory')) + Number(alive(scratch, 'everything')) === 1, 15_000,
                            'one child left running after the startup');
            for (const round of [1, 2]) {
                assert.match(textOf(await callTool(client, { name: 'memory_read_graph', arguments: {} })), /entities/, `round ${round}`);
                assert.ok(alive(scratch, 'memory'), `round ${round}: memory runs`);
                await waitUntil(() => !alive(scratch, 'everything'), 10_000, `round ${round}: everything stopped for memory`);
                assert.equal(textOf(await callTool(client, { name: 'everything_echo', arguments: { message: 'swap' } })), 'Echo: swap');
                await waitUntil(() => !alive(scratch, 'memory'), 10_000, `round ${round}: memory stopped for everything`);
            }
        } finally {
            await client?.close().catch(() => {});
            await gateway?.close();
            rmSync(scratch, { recursive: true, force: true });
        }
    });
});

describe('mcp-cpp-gateway --child-* resource limits', () => {
    // The limits as the kernel holds them for a process: "Max data size" -> [soft, hard].
    function limitsOf(text) {
        const out = {};
        for (const line of text.split('\n').slice(1)) {
            const m = /^(Max [a-z ]+?)\s{2,}(\S+)\s+(\S+)/.exec(line);
            if (m) out[m[1]] = [m[2], m[3]];
        }
        return out;
    }

    test('an entry\'s limits win over the flags, hold in the child, and a child past its memory limit dies, fails its call and is restarted', TEST, async () => {
        const scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-limits-'));
        let gateway;
        let client;
        try {
            const config = {
                mcpServers: {
                    limited: { command: process.execPath, args: [join(here, 'limited_server.mjs')], limits: { memoryMiB: 192, openFiles: 64 } },
                },
            };
            writeFileSync(join(scratch, 'limited.json'), JSON.stringify(config));
            gateway = await HttpDemo.start(['--servers', join(scratch, 'limited.json'), '--child-memory', '4096', '--child-cpu', '600'],
                                           { binary: binary('MCP_CPP_GATEWAY', 'mcp-cpp-gateway') });
            client = await connectV2(gateway.url);
            const report = async () => JSON.parse(textOf(await callTool(client, { name: 'limited_report', arguments: {} })));

            const first = await report();
            // Read by the test from the child's /proc entry, and as the child sees them itself.
            for (const limits of [limitsOf(readFileSync(`/proc/${first.pid}/limits`, 'utf8')), limitsOf(first.limits)]) {
                assert.deepEqual(limits['Max data size'], [String(192 * 1024 * 1024), String(192 * 1024 * 1024)], 'the entry\'s memoryMiB');
                assert.deepEqual(limits['Max open files'], ['64', '64'], 'the entry\'s openFiles');
                assert.deepEqual(limits['Max cpu time'], ['600', '600'], '--child-cpu, which the entry does not set');
            }

            // A runaway: the allocation fails in the child, which dies; its call fails naming the server.
            await assert.rejects(callTool(client, { name: 'limited_allocate', arguments: { mib: 1024 } }), /limited/);
            await waitUntil(() => /server "limited" failed \(1 in a row\), restarting/.test(gateway.stderr), 15_000,
                            'the gateway names the server that died');
            let again;
            await waitUntil(async () => {
                again = await report().catch(() => undefined);
                return again !== undefined && again.pid !== first.pid;
            }, 30_000, 'the server restarted');
            assert.deepEqual(limitsOf(readFileSync(`/proc/${again.pid}/limits`, 'utf8'))['Max data size'],
                             [String(192 * 1024 * 1024), String(192 * 1024 * 1024)], 'the restarted child has its limits too');
            // Under its limit it works.
            assert.equal(textOf(await callTool(client, { name: 'limited_allocate', arguments: { mib: 16 } })), 'holding 16 MiB');
        } finally {
            await client?.close().catch(() => {});
            await gateway?.close();
            rmSync(scratch, { recursive: true, force: true });
        }
    });
});

describe('mcp-cpp-gateway refuses what it cannot serve', () => {
    test('no --servers, a missing file, a malformed one, two servers of one prefix, --no-prefix with two: exit 2 with the reason', TEST, async () => {
        const gatewayBinary = binary('MCP_CPP_GATEWAY', 'mcp-cpp-gateway');
        const scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-bad-'));
        try {
            const cases = [
                [[], /--servers FILE is required/],
                [['--servers'], /--servers needs a file/],
                [['--servers', join(scratch, 'none.json')], /none\.json/],
                [['--servers', join(scratch, 'bad.json')], /bad\.json/],
                [['--servers', join(scratch, 'twins.json')], /would both be named "a_b_\.\.\."/],
                [['--servers', join(scratch, 'twins.json'), '--servers', join(scratch, 'bad.json')], /--servers given twice/],
                [['--servers', join(scratch, 'twins.json'), '--no-prefix'], /--no-prefix serves one server; the configuration has 2/],
                [['--servers', join(scratch, 'twins.json'), '--idle-stop'], /--idle-stop needs a value/],
                [['--servers', join(scratch, 'twins.json'), '--idle-stop', '10'], /--idle-stop needs a duration such as 500ms/],
                [['--servers', join(scratch, 'twins.json'), '--idle-stop', '0s'], /not "0s"/],
                [['--servers', join(scratch, 'twins.json'), '--idle-stop', '-5s'], /not "-5s"/],
                [['--servers', join(scratch, 'twins.json'), '--idle-stop', '99999999999999999999h'], /a duration/],
                [['--servers', join(scratch, 'twins.json'), '--idle-stop', '5 s'], /a duration/],
                [['--servers', join(scratch, 'twins.json'), '--max-children', '0'], /--max-children needs a whole number from 1 to 10000/],
                [['--servers', join(scratch, 'twins.json'), '--max-children', 'x'], /not "x"/],
                [['--servers', join(scratch, 'twins.json'), '--max-children', '1e3'], /not "1e3"/],
                [['--servers', join(scratch, 'twins.json'), '--child-memory', '0'], /--child-memory needs a whole number from 1 to 1048576, not "0"/],
                [['--servers', join(scratch, 'twins.json'), '--child-memory', '-1'], /--child-memory needs a whole number/],
                [['--servers', join(scratch, 'twins.json'), '--child-cpu', '99999999999999999999'], /--child-cpu needs a whole number from 1 to 31622400/],
                [['--servers', join(scratch, 'twins.json'), '--child-files', '1.5'], /--child-files needs a whole number/],
                [['--servers', join(scratch, 'twins.json'), '--child-processes', 'many'], /--child-processes needs a whole number/],
                [['--servers', join(scratch, 'twins.json'), '--child-files'], /--child-files needs a value/],
                [['--servers', join(scratch, 'twins.json'), '--child-stack', '8'], /unknown option --child-stack/],
                [['--servers', join(scratch, 'limits.json')], /server "x", limits.memoryMiB: expected a whole number from 1 to 1048576, not -5/],
            ];
            writeFileSync(join(scratch, 'bad.json'), '{"mcpServers": {"x": {"command": 42}}}');
            writeFileSync(join(scratch, 'limits.json'), '{"mcpServers": {"x": {"command": "true", "limits": {"memoryMiB": -5}}}}');
            writeFileSync(join(scratch, 'twins.json'), JSON.stringify({ mcpServers: { 'a b': { command: 'true' }, 'a/b': { command: 'true' } } }));
            for (const [args, message] of cases) {
                const outcome = await run(gatewayBinary, ['--log-level', 'off', ...args], { timeout: 30_000 }).then(
                    () => ({ code: 0, stderr: '' }), (e) => e);
                assert.equal(outcome.code, 2, `${args.join(' ')}: exit code (stderr: ${outcome.stderr})`);
                assert.match(outcome.stderr, message, args.join(' '));
            }
        } finally {
            rmSync(scratch, { recursive: true, force: true });
        }
    });

    test('--help shows the gateway\'s option and every option of mcp::run', TEST, async () => {
        const { stdout } = await run(binary('MCP_CPP_GATEWAY', 'mcp-cpp-gateway'), ['--help'], { timeout: 30_000 });
        for (const option of ['--servers FILE', '--child-memory MiB', '--child-cpu SECONDS', '--child-files N', '--child-processes N', '--http', '--auth-issuer', '--tls-cert', '--cors-origins', '--metrics', '--audit-log', '--store']) {
            assert.ok(stdout.includes(option), `--help names ${option}`);
        }
    });
});
