// End-to-end: the Vercel AI SDK's MCP client (@ai-sdk/mcp, from npm) on every wire it speaks.
// - Streamable HTTP (`type: 'http'`) to mcp-cpp-gateway in front of server-everything, server-memory
//   and server-filesystem (npm, stdio children), on both revisions: 2026-07-28 (its default,
//   `server/discover`, no session) and 2025-11-25 (`protocolVersionDiscovery: false`, initialize and
//   a session). Lists, calls, prompts and reads checked by content, the tools as the AI SDK hands
//   them to a model, an unknown tool as the client's error, server-everything's elicitation answered
//   by the client through the gateway (on 2026 in input rounds), the gateway's bearer-token auth.
// - Its legacy HTTP+SSE transport (`type: 'sse'`) is refused at connect: neither mcp::run nor the
//   gateway serves the 2024-11-05 transport.
// - stdio (`StdioMCPTransport`, @ai-sdk/mcp/mcp-stdio) and Streamable HTTP to mcp-cpp-demo, both
//   revisions, its delete_note elicitation answered.
// The client answers elicitation only (no sampling, no roots); what its transport reports outside a
// request (onUncaughtError) is kept and checked against the two things it is known to report.
// completion/complete is asked of the demo here; through the gateway it is e2e.gateway's (SDK v1 and v2).
// @ai-sdk/mcp declares Node 22 in its engines; it runs on the Node 20 the suites need.
//   MCP_CPP_GATEWAY=build/tools/mcp-cpp-gateway/mcp-cpp-gateway MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo \
//   node --test tests/e2e/gateway_ai_sdk.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createMCPClient, ElicitationRequestSchema, MCPClientError } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';

import { AuthorizationServer } from './authorization_server.mjs';
import { childPids, writeServers } from './gateway_servers.mjs';
import { binary, demoBinary, HttpDemo, MODERN, waitUntil } from './helpers.mjs';

const LEGACY = '2025-11-25';
const REQUEST = { timeout: 15_000 };
const TEST = { timeout: 60_000 };
const gatewayBinary = () => binary('MCP_CPP_GATEWAY', 'mcp-cpp-gateway');

// What the client's HTTP transport reports outside any request on 2025-11-25, known and harmless:
// the GET stream it opens before initialize has no session yet (400, once), and it parses the SSE
// priming event (an event id and empty data, 2025-11-25 transports) as a message. Anything else is
// returned.
function unexpectedReports(uncaught) {
    const early = uncaught.filter((e) => /GET SSE failed: 400/.test(String(e)));
    const priming = (e) => /Failed to parse message/.test(String(e)) && /Unexpected end of JSON input/.test(String(e.cause));
    return [...early.slice(1), ...uncaught.filter((e) => !early.includes(e) && !priming(e))].map(String);
}

// A connected client on `version`, its transport `transport` (a config or a StdioMCPTransport);
// elicitations go to `answer`, what it was asked is kept in `asked`, uncaught reports in `uncaught`.
async function connect(transport, version, { answer } = {}) {
    const uncaught = [];
    const asked = [];
    const client = await createMCPClient({
        transport,
        clientName: 'gateway-e2e-ai-sdk',
        protocolVersionDiscovery: version === MODERN,
        capabilities: answer ? { elicitation: {} } : {},
        initializationOptions: REQUEST,
        onUncaughtError: (e) => uncaught.push(e),
    });
    if (answer) {
        client.onElicitationRequest(ElicitationRequestSchema, (request) => {
            asked.push(request.params);
            return answer(request.params);
        });
    }
    assert.equal(client.initializeResult.protocolVersion, version, 'the revision the client speaks');
    return { client, asked, uncaught };
}

const textOf = (result) => {
    assert.equal(result.content?.[0]?.type, 'text', `first content block is text: ${JSON.stringify(result)}`);
    return result.content[0].text;
};

const names = (items) => items.map((i) => i.name);

async function rejectsWith(promise, code, message) {
    const error = await promise.then(() => undefined, (e) => e);
    assert.ok(MCPClientError.isInstance(error), `the client's error, not a result: ${error}`);
    assert.equal(error.code, code, `${error.message}`);
    assert.match(error.message, message);
}

describe('@ai-sdk/mcp through mcp-cpp-gateway in front of server-everything, server-memory and server-filesystem', () => {
    let scratch;
    let gateway;
    const opened = [];

    const open = async (version, options) => {
        const connected = await connect({ type: 'http', url: gateway.url }, version, options);
        opened.push(connected);
        return connected;
    };

    before(async () => {
        scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-ai-sdk-'));
        gateway = await HttpDemo.start(['--servers', writeServers(scratch)], { binary: gatewayBinary() });
    });
    after(async () => {
        for (const { client } of opened) await client.close().catch(() => {});
        await gateway?.close();
        if (scratch) {
            await waitUntil(() => childPids(scratch, '').length === 0, 10_000, 'the children to exit with the gateway');
            rmSync(scratch, { recursive: true, force: true });
        }
        for (const { uncaught } of opened) {
            assert.deepEqual(unexpectedReports(uncaught), [], 'nothing else reported outside a request');
        }
    });

    for (const version of [MODERN, LEGACY]) {
        test(`${version}: the three servers' tools, prompts, resources and templates under their prefixes`, TEST, async () => {
            const { client } = await open(version);
            assert.equal(client.serverInfo.name, 'mcp-cpp-gateway');
            const tools = names((await client.listTools({ options: REQUEST })).tools);
            for (const name of ['everything_echo', 'memory_create_entities', 'memory_read_graph', 'filesystem_list_directory',
                'filesystem_read_text_file']) {
                assert.ok(tools.includes(name), `${name} is listed: ${tools.join(' ')}`);
            }
            assert.ok(tools.every((n) => /^(everything|memory|filesystem)_/.test(n)), `every name has its server's prefix: ${tools.join(' ')}`);
            const prompts = names((await client.listPrompts({ options: REQUEST })).prompts);
            assert.ok(prompts.includes('everything_simple-prompt') && prompts.every((n) => n.startsWith('everything_')), prompts.join(' '));
            const resources = (await client.listResources({ options: REQUEST })).resources.map((r) => r.uri);
            assert.ok(resources.includes('memory://memory/knowledge-graph'), `server-memory's graph: ${resources.join(' ')}`);
            assert.ok(resources.every((u) => /^(demo:\/\/everything|memory:\/\/memory)\//.test(u)), `every URI rewritten: ${resources.join(' ')}`);
            const templates = (await client.listResourceTemplates({ options: REQUEST })).resourceTemplates.map((t) => t.uriTemplate);
            assert.ok(templates.includes('demo://everything/resource/dynamic/text/{resourceId}'), `rewritten templates: ${templates.join(' ')}`);
        });

        test(`${version}: calls, prompts and reads reach the right child, and come back as sent`, TEST, async () => {
            const { client } = await open(version);
            const call = (name, args) => client.callTool({ name, arguments: args, options: REQUEST });
            assert.equal(textOf(await call('everything_echo', { message: version })), `Echo: ${version}`);
            assert.match(textOf(await call('everything_get-sum', { a: 2, b: 40 })), /\b42\b/);

            const entity = `Grace_${version}`;
            const created = await call('memory_create_entities', { entities: [{ name: entity, entityType: 'person', observations: ['wrote a compiler'] }] });
            assert.equal(created.isError, false, JSON.stringify(created));
            const graph = JSON.parse(textOf(await call('memory_read_graph', {})));
            const found = graph.entities.find((e) => e.name === entity);
            assert.deepEqual(found?.observations, ['wrote a compiler'], `the graph holds ${entity}: ${JSON.stringify(graph)}`);

            const listing = textOf(await call('filesystem_list_directory', { path: scratch }));
            assert.match(listing, /^\[FILE\] hello\.txt$/m, listing);
            assert.equal(textOf(await call('filesystem_read_text_file', { path: join(scratch, 'hello.txt') })).trim(), 'hello through the gateway');
            const outside = await call('filesystem_read_text_file', { path: '/etc/hostname' });
            assert.equal(outside.isError, true, 'the child\'s own refusal is its isError result');
            assert.match(textOf(outside), /outside allowed directories/i);

            const prompt = await client.getPrompt({ name: 'everything_args-prompt', arguments: { city: 'Lyon', state: 'Rhône' }, options: REQUEST });
            assert.match(prompt.messages[0].content.text, /weather in Lyon, Rhône/);
            const read = await client.readResource({ uri: 'demo://everything/resource/dynamic/text/7', options: REQUEST });
            assert.equal(read.contents[0].uri, 'demo://everything/resource/dynamic/text/7', 'the URI as this client knows it');
            assert.match(read.contents[0].text, /Resource 7/);
        });

        test(`${version}: the tools as the AI SDK hands them to a model run through the gateway`, TEST, async () => {
            const { client } = await open(version);
            const tools = await client.tools();
            assert.equal(typeof tools.everything_echo?.execute, 'function', Object.keys(tools).join(' '));
            assert.match(tools.memory_create_entities.description ?? '', /entit/i);
            const echoed = await tools.everything_echo.execute({ message: 'from a model' }, { toolCallId: 'call-1', messages: [] });
            assert.equal(textOf(echoed), 'Echo: from a model');
        });

        test(`${version}: an unknown tool is the client's error, not a result`, TEST, async () => {
            const { client } = await open(version);
            await rejectsWith(client.callTool({ name: 'no_such_tool', arguments: {}, options: REQUEST }), -32602, /Unknown tool: no_such_tool/);
            await rejectsWith(client.getPrompt({ name: 'everything_no-such-prompt', options: REQUEST }), -32602, /no-such-prompt/);
        });

        test(`${version}: server-everything's elicitation is answered by the client through the gateway`, TEST, async () => {
            let action = 'accept';
            const { client, asked } = await open(version, {
                answer: () => (action === 'accept' ? { action, content: { name: 'Ada Lovelace', check: true } } : { action }) });
            const tools = names((await client.listTools({ options: REQUEST })).tools);
            assert.ok(tools.includes('everything_trigger-elicitation-request'), `offered to a client that can answer: ${tools.join(' ')}`);
            const elicit = () => client.callTool({ name: 'everything_trigger-elicitation-request', arguments: {}, options: REQUEST });
            const accepted = JSON.stringify((await elicit()).content);
            assert.match(accepted, /User provided the requested information/);
            assert.match(accepted, /Name: Ada Lovelace/);
            assert.equal(asked.length, 1, 'asked once');
            assert.equal(asked[0].message, 'Please provide inputs for the following fields:');
            assert.deepEqual(asked[0].requestedSchema.required, ['name'], 'the child\'s form as it sent it');
            assert.equal(asked[0].requestedSchema.properties.email.format, 'email');
            action = 'decline';
            assert.match(JSON.stringify((await elicit()).content), /declined/);
            action = 'cancel';
            assert.match(JSON.stringify((await elicit()).content), /cancelled/);
            assert.equal(asked.length, 3);
        });
    }

    test('the legacy HTTP+SSE transport (type: sse) is refused at connect', TEST, async () => {
        const error = await createMCPClient({ transport: { type: 'sse', url: gateway.url }, initializationOptions: REQUEST })
            .then(async (client) => {
                await client.close();
                return undefined;
            }, (e) => e);
        assert.ok(MCPClientError.isInstance(error), `refused: ${error}`);
        assert.equal(error.statusCode, 400);
        assert.match(error.message, /Mcp-Session-Id header is required/);
    });
});

describe('@ai-sdk/mcp through mcp-cpp-gateway behind bearer-token auth', () => {
    test('its headers carry the token on both revisions; without one, or with another resource\'s, it is refused', TEST, async () => {
        const as = await AuthorizationServer.start();
        const scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-ai-sdk-auth-'));
        let gateway;
        const opened = [];
        try {
            gateway = await HttpDemo.start(['--servers', writeServers(scratch), '--auth-issuer', as.issuer, '--auth-scopes', 'notes:read'],
                                           { binary: gatewayBinary() });
            const token = await as.serviceToken(gateway.url, 'notes:read');
            for (const version of [MODERN, LEGACY]) {
                const connected = await connect({ type: 'http', url: gateway.url, headers: { Authorization: `Bearer ${token}` } }, version);
                opened.push(connected);
                const result = await connected.client.callTool({ name: 'everything_echo', arguments: { message: 'authorized' }, options: REQUEST });
                assert.equal(textOf(result), 'Echo: authorized');
            }
            const elsewhere = await as.forge({ aud: 'https://elsewhere.example/mcp' });
            for (const headers of [{}, { Authorization: `Bearer ${elsewhere}` }]) {
                for (const version of [MODERN, LEGACY]) {
                    const error = await connect({ type: 'http', url: gateway.url, headers }, version).then(
                        ({ client }) => client.close().then(() => undefined), (e) => e);
                    assert.ok(MCPClientError.isInstance(error), `${version} ${JSON.stringify(Object.keys(headers))}: refused: ${error}`);
                    assert.equal(error.statusCode, 401, error.message);
                }
            }
        } finally {
            for (const { client } of opened) await client.close().catch(() => {});
            await gateway?.close();
            await as.close();
            rmSync(scratch, { recursive: true, force: true });
        }
    });
});

describe('@ai-sdk/mcp to mcp-cpp-demo', () => {
    let http;
    before(async () => {
        http = await HttpDemo.start();
    });
    after(async () => {
        await http?.close();
    });

    const wires = {
        stdio: () => new StdioMCPTransport({ command: demoBinary(), args: [], stderr: 'ignore' }),
        http: () => ({ type: 'http', url: http.url }),
    };
    for (const [wire, transport] of Object.entries(wires)) {
        for (const version of [MODERN, LEGACY]) {
            test(`${wire}, ${version}: tools, a note written and read back, prompts, completion and a confirmed delete`, TEST, async () => {
                let confirm = true;
                const { client, asked, uncaught } = await connect(transport(), version, {
                    answer: () => ({ action: 'accept', content: { confirm } }) });
                try {
                    assert.equal(client.serverInfo.name, 'mcp-cpp-demo');
                    const tools = names((await client.listTools({ options: REQUEST })).tools);
                    for (const name of ['echo', 'add_note', 'delete_note']) assert.ok(tools.includes(name), tools.join(' '));
                    const text = `héllo ${wire} ${version} \u{1F600}`;
                    assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text }, options: REQUEST })), text);

                    const slug = `ai-sdk-${wire}-${version.replaceAll('-', '')}`;
                    const added = await client.callTool({ name: 'add_note', arguments: { slug, body: '# From the AI SDK' }, options: REQUEST });
                    assert.deepEqual(added.content.map((b) => [b.type, b.uri]), [['resource_link', `demo://notes/${slug}`]]);
                    const read = await client.readResource({ uri: `demo://notes/${slug}`, options: REQUEST });
                    assert.equal(read.contents[0].text, '# From the AI SDK');

                    const prompts = names((await client.listPrompts({ options: REQUEST })).prompts).sort();
                    assert.deepEqual(prompts, ['review_note', 'summarize']);
                    const review = await client.getPrompt({ name: 'review_note', arguments: { slug }, options: REQUEST });
                    assert.match(JSON.stringify(review.messages), /From the AI SDK/);
                    const styles = await client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'style', value: 'b' }, options: REQUEST });
                    assert.deepEqual(styles.completion.values, ['brief', 'bullets']);

                    const invalid = await client.callTool({ name: 'echo', arguments: { text: 42 }, options: REQUEST });
                    assert.equal(invalid.isError, true, 'a tool\'s argument error is its isError result');
                    await rejectsWith(client.callTool({ name: 'no_such_tool', arguments: {}, options: REQUEST }), -32602, /no_such_tool/);

                    confirm = false;
                    assert.equal(textOf(await client.callTool({ name: 'delete_note', arguments: { slug }, options: REQUEST })), `Kept ${slug}`);
                    confirm = true;
                    assert.equal(textOf(await client.callTool({ name: 'delete_note', arguments: { slug }, options: REQUEST })), `Deleted ${slug}`);
                    assert.deepEqual(asked.map((a) => a.message), [`Delete the note "${slug}"?`, `Delete the note "${slug}"?`]);
                    assert.equal(asked[0].requestedSchema.properties.confirm.type, 'boolean');
                    // A missing resource: -32002 on 2025-11-25, -32602 on 2026-07-28.
                    await rejectsWith(client.readResource({ uri: `demo://notes/${slug}`, options: REQUEST }),
                                      version === MODERN ? -32602 : -32002, /Resource not found/);
                } finally {
                    await client.close();
                }
                assert.deepEqual(unexpectedReports(uncaught), [], 'nothing else reported outside a request');
            });
        }
    }
});
