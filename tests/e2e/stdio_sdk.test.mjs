// End-to-end: the official MCP TypeScript SDK (v1) client drives mcp-cpp-demo over stdio.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/stdio_sdk.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
    EmptyResultSchema,
    LoggingMessageNotificationSchema,
    McpError,
    ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

import { decodePng, demoBinary, PNG_SIGNATURE, schemaProblems, sleep, waitUntil } from './helpers.mjs';

const DEMO = demoBinary();
const REQUEST = { timeout: 15_000 };  // every SDK request fails after this instead of hanging
const TEST = { timeout: 30_000 };     // every test

// The demo's tools, sorted.
const TOOL_NAMES = ['add_note', 'color_swatch', 'connect_account', 'delete_note', 'draft_note', 'echo', 'export_notes', 'project_roots',
    'slow_count', 'word_stats'];

// A connected SDK client on a fresh server process, with every JSON-RPC message it received and
// sent recorded in `wire` (the SDK does not expose the raw protocol otherwise).
async function connect(args = []) {
    const transport = new StdioClientTransport({ command: DEMO, args, stderr: 'pipe' });
    const wire = { received: [], sent: [] };
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
        if (stderr.length < 64 * 1024) stderr += chunk;
    });
    let inner;
    Object.defineProperty(transport, 'onmessage', {
        configurable: true,
        get: () => inner,
        set: (fn) => {
            inner = fn && ((message, extra) => {
                wire.received.push(message);
                fn(message, extra);
            });
        },
    });
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
        wire.sent.push(message);
        return send(message, options);
    };
    const client = new Client({ name: 'mcp-cpp-e2e', version: '1.0.0' }, { capabilities: {} });
    const errors = [];
    client.onerror = (e) => errors.push(e);
    await client.connect(transport, REQUEST);
    return { client, transport, wire, errors, stderr: () => stderr };
}

// Awaits a promise expected to reject with an McpError of `code`; returns the error.
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

describe('mcp-cpp-demo through the MCP SDK client over stdio', { timeout: 170_000 }, () => {
    let s;  // the shared connection of most tests
    let cancelledToken;  // progress of the cancelled call may still arrive after the SDK dropped it
    before(async () => {
        s = await connect();
    });
    after(async () => {
        await s?.client.close();
    });

    test('initialize negotiates 2025-11-25 and declares the server', TEST, () => {
        const init = s.wire.sent.find((m) => m.method === 'initialize');
        assert.ok(init, 'the SDK sent initialize');
        assert.equal(init.params.protocolVersion, '2025-11-25');
        const response = s.wire.received.find((m) => m.id === init.id);
        assert.ok(response?.result, `initialize answered: ${JSON.stringify(response)}`);
        assert.equal(response.result.protocolVersion, '2025-11-25');

        assert.deepEqual(s.client.getServerVersion(), {
            name: 'mcp-cpp-demo',
            version: '0.1.0',
            title: 'mcp-cpp demo: a notes assistant',
        });
        const caps = s.client.getServerCapabilities();
        assert.deepEqual(caps.tools, { listChanged: true });
        assert.deepEqual(caps.prompts, { listChanged: true });
        assert.deepEqual(caps.resources, { subscribe: true, listChanged: true });
        assert.deepEqual(caps.logging, {});
        assert.deepEqual(caps.completions, {});
        assert.match(s.client.getInstructions() ?? '', /demo:\/\/notes\/\{slug\}/);
        // notifications/initialized followed the response.
        assert.ok(s.wire.sent.some((m) => m.method === 'notifications/initialized'));
    });

    test('ping', TEST, async () => {
        assert.deepEqual(await s.client.ping(REQUEST), {});
    });

    test('tools/list lists every tool with their schemas', TEST, async () => {
        const { tools, nextCursor } = await s.client.listTools({}, REQUEST);
        assert.equal(nextCursor, undefined);
        assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
        for (const tool of tools) {
            assert.equal(tool.inputSchema.type, 'object', `${tool.name} inputSchema type`);
            assert.ok(tool.description.length > 0, `${tool.name} has a description`);
        }
        const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
        assert.deepEqual(byName.echo.inputSchema.required, ['text']);
        assert.equal(byName.echo.inputSchema.properties.text.type, 'string');
        assert.deepEqual(byName.color_swatch.inputSchema.properties.color.enum, ['red', 'green', 'blue', 'orange', 'purple']);
        assert.equal(byName.word_stats.title, 'Word statistics');
        assert.deepEqual(byName.word_stats.annotations, { readOnlyHint: true, idempotentHint: true });
        assert.equal(byName.slow_count.annotations.readOnlyHint, true);
        const out = byName.word_stats.outputSchema;
        assert.equal(out.type, 'object');
        assert.deepEqual([...out.required].sort(), ['characters', 'lines', 'top_words', 'words']);
        assert.equal(byName.echo.outputSchema, undefined);
    });

    test('echo returns its text unchanged', TEST, async () => {
        const text = 'héllo, wörld 🌍 "quoted" \\ back\nslash\ttab';
        const result = await s.client.callTool({ name: 'echo', arguments: { text } }, undefined, REQUEST);
        assert.ok(!result.isError);
        assert.deepEqual(result.content, [{ type: 'text', text }]);
    });

    test('word_stats: structuredContent matches the text mirror and the outputSchema', TEST, async () => {
        const { tools } = await s.client.listTools({}, REQUEST);
        const schema = tools.find((t) => t.name === 'word_stats').outputSchema;
        const result = await s.client.callTool(
            { name: 'word_stats', arguments: { text: 'The cat and the hat\nthe end', top: 2 } }, undefined, REQUEST);
        assert.ok(!result.isError);
        assert.deepEqual(result.structuredContent, {
            words: 7,
            characters: 27,
            lines: 2,
            top_words: [{ word: 'the', count: 3 }, { word: 'and', count: 1 }],
        });
        assert.deepEqual(JSON.parse(textOf(result)), result.structuredContent, 'text mirror == structuredContent');
        assert.deepEqual(schemaProblems(schema, result.structuredContent), []);
        // Characters are code points, not bytes.
        const unicode = await s.client.callTool({ name: 'word_stats', arguments: { text: 'żółw 🐢' } }, undefined, REQUEST);
        assert.equal(unicode.structuredContent.characters, 6);
        assert.equal(unicode.structuredContent.words, 2);
    });

    test('color_swatch returns a valid PNG of the colour and size asked for', TEST, async () => {
        const result = await s.client.callTool(
            { name: 'color_swatch', arguments: { color: 'orange', size: 7 } }, undefined, REQUEST);
        assert.ok(!result.isError);
        assert.equal(result.content.length, 1);
        const [image] = result.content;
        assert.equal(image.type, 'image');
        assert.equal(image.mimeType, 'image/png');
        assert.match(image.data, /^[A-Za-z0-9+/]+={0,2}$/, 'standard base64');
        const bytes = Buffer.from(image.data, 'base64');
        assert.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature');
        const png = decodePng(bytes);
        assert.equal(png.width, 7);
        assert.equal(png.height, 7);
        for (const [x, y] of [[0, 0], [6, 0], [3, 3], [0, 6], [6, 6]]) {
            assert.deepEqual(png.pixel(x, y).slice(0, 3), [240, 140, 20], `pixel ${x},${y}`);
        }
        const dflt = await s.client.callTool({ name: 'color_swatch', arguments: { color: 'blue' } }, undefined, REQUEST);
        const small = decodePng(Buffer.from(dflt.content[0].data, 'base64'));
        assert.equal(small.width, 16, 'default size');
        assert.deepEqual(small.pixel(15, 15).slice(0, 3), [40, 90, 220]);
    });

    test('add_note returns a resource_link and the note can be read back', TEST, async () => {
        const result = await s.client.callTool(
            { name: 'add_note', arguments: { slug: 'groceries', body: '# Groceries\n\n- tea' } }, undefined, REQUEST);
        assert.ok(!result.isError);
        assert.equal(result.content.length, 1);
        assert.equal(result.content[0].type, 'resource_link');
        assert.equal(result.content[0].uri, 'demo://notes/groceries');
        assert.equal(result.content[0].name, 'groceries');
        const read = await s.client.readResource({ uri: 'demo://notes/groceries' }, REQUEST);
        assert.equal(read.contents[0].text, '# Groceries\n\n- tea');
    });

    test('invalid tool arguments give an isError result naming the field', TEST, async () => {
        const cases = [
            ['echo', {}, /text/],
            ['echo', { text: 42 }, /text/],
            ['word_stats', { text: 'x', top: 0 }, /top/],
            ['color_swatch', { color: 'pink' }, /color/],
            ['slow_count', { to: 'ten' }, /\bto\b/],
            ['add_note', { slug: 'Not A Slug!', body: 'x' }, /slug/],
        ];
        for (const [name, args, field] of cases) {
            const result = await s.client.callTool({ name, arguments: args }, undefined, REQUEST);
            assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} is an error: ${JSON.stringify(result)}`);
            assert.match(textOf(result), field, `${name} ${JSON.stringify(args)} names the field`);
        }
    });

    test('an unknown tool is a JSON-RPC error -32602', TEST, async () => {
        await rejectsWithCode(s.client.callTool({ name: 'no_such_tool', arguments: {} }, undefined, REQUEST), -32602);
    });

    test('resources/list, resources/read of the stats, resources/templates/list', TEST, async () => {
        const { resources, nextCursor } = await s.client.listResources({}, REQUEST);
        assert.equal(nextCursor, undefined);
        // The stats, then the files of the demo's skill and its app's view.
        assert.equal(resources.length, 4);
        assert.equal(resources[0].uri, 'demo://server/stats');
        assert.equal(resources[0].name, 'stats');
        assert.equal(resources[0].mimeType, 'application/json');

        const read = await s.client.readResource({ uri: 'demo://server/stats' }, REQUEST);
        assert.equal(read.contents.length, 1);
        assert.equal(read.contents[0].uri, 'demo://server/stats');
        assert.equal(read.contents[0].mimeType, 'application/json');
        const stats = JSON.parse(read.contents[0].text);
        assert.deepEqual(Object.keys(stats).sort(), ['cancellations_observed', 'notes', 'tool_calls']);
        for (const v of Object.values(stats)) assert.ok(Number.isInteger(v) && v >= 0, `stat ${v} is a count`);
        assert.ok(stats.notes >= 2, 'welcome and shopping exist');

        const before = stats.tool_calls;
        await s.client.callTool({ name: 'echo', arguments: { text: 'count me' } }, undefined, REQUEST);
        assert.equal((await readStats(s.client)).tool_calls, before + 1, 'tool_calls counts calls');

        const { resourceTemplates } = await s.client.listResourceTemplates({}, REQUEST);
        assert.equal(resourceTemplates.length, 1);
        assert.equal(resourceTemplates[0].uriTemplate, 'demo://notes/{slug}');
        assert.equal(resourceTemplates[0].name, 'note');
        assert.equal(resourceTemplates[0].mimeType, 'text/markdown');
    });

    test('a note is read through the template; an unknown note is -32002 with data.uri', TEST, async () => {
        const read = await s.client.readResource({ uri: 'demo://notes/welcome' }, REQUEST);
        assert.equal(read.contents.length, 1);
        assert.equal(read.contents[0].uri, 'demo://notes/welcome');
        assert.equal(read.contents[0].mimeType, 'text/markdown');
        assert.match(read.contents[0].text, /^# Welcome\n/);
        const shopping = await s.client.readResource({ uri: 'demo://notes/shopping' }, REQUEST);
        assert.match(shopping.contents[0].text, /- coffee/);

        const error = await rejectsWithCode(s.client.readResource({ uri: 'demo://notes/nope' }, REQUEST), -32002);
        assert.deepEqual(error.data, { uri: 'demo://notes/nope' });
        const other = await rejectsWithCode(s.client.readResource({ uri: 'demo://elsewhere/x' }, REQUEST), -32002);
        assert.equal(other.data?.uri, 'demo://elsewhere/x');
    });

    test('prompts/list and prompts/get of both prompts', TEST, async () => {
        const { prompts } = await s.client.listPrompts({}, REQUEST);
        assert.deepEqual(prompts.map((p) => p.name).sort(), ['review_note', 'summarize']);
        const summarize = prompts.find((p) => p.name === 'summarize');
        const args = Object.fromEntries(summarize.arguments.map((a) => [a.name, a]));
        assert.equal(args.text.required, true);
        assert.equal(args.style.required, false);
        const review = prompts.find((p) => p.name === 'review_note');
        assert.deepEqual(review.arguments.map((a) => [a.name, a.required]), [['slug', true]]);

        const bullets = await s.client.getPrompt({ name: 'summarize', arguments: { text: 'Cats sleep.', style: 'bullets' } }, REQUEST);
        assert.deepEqual(bullets.messages, [
            { role: 'user', content: { type: 'text', text: 'Summarize the following text as bullet points:\n\nCats sleep.' } },
        ]);
        const brief = await s.client.getPrompt({ name: 'summarize', arguments: { text: 'Cats sleep.' } }, REQUEST);
        assert.equal(brief.messages[0].content.text, 'Summarize the following text in two sentences:\n\nCats sleep.');
        const detailed = await s.client.getPrompt({ name: 'summarize', arguments: { text: 'x', style: 'detailed' } }, REQUEST);
        assert.equal(detailed.messages[0].content.text, 'Summarize the following text in detail:\n\nx');

        const note = await s.client.getPrompt({ name: 'review_note', arguments: { slug: 'shopping' } }, REQUEST);
        assert.equal(note.messages.length, 2);
        assert.equal(note.messages[0].role, 'user');
        assert.equal(note.messages[0].content.type, 'text');
        assert.match(note.messages[0].content.text, /Review this note/);
        assert.equal(note.messages[1].role, 'user');
        assert.equal(note.messages[1].content.type, 'resource');
        assert.equal(note.messages[1].content.resource.uri, 'demo://notes/shopping');
        assert.equal(note.messages[1].content.resource.mimeType, 'text/markdown');
        assert.equal(note.messages[1].content.resource.text, '# Shopping\n\n- coffee\n- bread\n- a 2-core build machine');
    });

    test('prompts/get errors: missing argument, bad enum value, unknown note, unknown prompt → -32602', TEST, async () => {
        await rejectsWithCode(s.client.getPrompt({ name: 'summarize', arguments: {} }, REQUEST), -32602);
        await rejectsWithCode(s.client.getPrompt({ name: 'summarize', arguments: { text: 'x', style: 'poem' } }, REQUEST), -32602);
        await rejectsWithCode(s.client.getPrompt({ name: 'review_note', arguments: { slug: 'nope' } }, REQUEST), -32602);
        await rejectsWithCode(s.client.getPrompt({ name: 'no_such_prompt', arguments: {} }, REQUEST), -32602);
    });

    test('completion/complete: enum argument, prompt argument and template variable', TEST, async () => {
        const style = await s.client.complete(
            { ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'style', value: 'b' } }, REQUEST);
        assert.deepEqual(style.completion.values, ['brief', 'bullets']);
        assert.equal(style.completion.total, 2);
        assert.equal(style.completion.hasMore, false);
        const allStyles = await s.client.complete(
            { ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'style', value: '' } }, REQUEST);
        assert.deepEqual([...allStyles.completion.values].sort(), ['brief', 'bullets', 'detailed']);
        const none = await s.client.complete(
            { ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'style', value: 'z' } }, REQUEST);
        assert.deepEqual(none.completion.values, []);

        const slug = await s.client.complete(
            { ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'slug', value: 'w' } }, REQUEST);
        assert.deepEqual(slug.completion.values, ['welcome']);
        const shop = await s.client.complete(
            { ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'slug', value: 'sh' } }, REQUEST);
        assert.deepEqual(shop.completion.values, ['shopping']);

        const variable = await s.client.complete(
            { ref: { type: 'ref/resource', uri: 'demo://notes/{slug}' }, argument: { name: 'slug', value: 'we' } }, REQUEST);
        assert.deepEqual(variable.completion.values, ['welcome']);
        const both = await s.client.complete(
            { ref: { type: 'ref/resource', uri: 'demo://notes/{slug}' }, argument: { name: 'slug', value: '' } }, REQUEST);
        assert.ok(both.completion.values.includes('welcome') && both.completion.values.includes('shopping'),
            `all slugs: ${JSON.stringify(both.completion.values)}`);

        await rejectsWithCode(s.client.complete(
            { ref: { type: 'ref/prompt', name: 'no_such_prompt' }, argument: { name: 'x', value: '' } }, REQUEST), -32602);
    });

    test('slow_count reports increasing progress through onprogress', TEST, async () => {
        const progress = [];
        const result = await s.client.callTool(
            { name: 'slow_count', arguments: { to: 5, step_ms: 20 } }, undefined,
            { ...REQUEST, onprogress: (p) => progress.push(p) });
        assert.equal(textOf(result), 'Counted to 5');
        assert.ok(progress.length >= 3, `at least 3 progress notifications, got ${progress.length}`);
        for (let i = 1; i < progress.length; ++i) {
            assert.ok(progress[i].progress > progress[i - 1].progress, `progress increases: ${JSON.stringify(progress)}`);
        }
        assert.ok(progress.every((p) => p.total === 5), 'total is 5');
        assert.equal(progress[2].message, 'counted 3');

        // On the wire: all five steps, the token echoed exactly as the SDK sent it, every one before
        // the response. (The SDK v1 dispatches notifications a microtask late and may drop the last
        // one when the response follows in the same read: typescript-sdk issue #2580. So onprogress
        // is only required to see three.)
        const request = s.wire.sent.findLast((m) => m.method === 'tools/call' && m.params.name === 'slow_count');
        const token = request.params._meta.progressToken;
        const responseAt = s.wire.received.findIndex((m) => m.id === request.id);
        const notes = s.wire.received
            .map((m, at) => ({ m, at }))
            .filter(({ m }) => m.method === 'notifications/progress' && m.params.progressToken === token);
        assert.deepEqual(notes.map(({ m }) => m.params.progress), [1, 2, 3, 4, 5]);
        assert.ok(notes.every(({ at }) => at < responseAt), 'all progress precedes the response');
    });

    test('logging/setLevel governs the notifications/message slow_count sends', TEST, async () => {
        const logs = [];
        s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
        try {
            assert.deepEqual(await s.client.setLoggingLevel('debug', REQUEST), {});
            await s.client.callTool({ name: 'slow_count', arguments: { to: 2, step_ms: 1 } }, undefined, REQUEST);
            // The handler logs before it returns, and stdout keeps order: no waiting needed.
            assert.deepEqual(logs, [{ level: 'info', data: 'slow_count finished' }]);

            logs.length = 0;
            await s.client.setLoggingLevel('error', REQUEST);
            await s.client.callTool({ name: 'slow_count', arguments: { to: 1, step_ms: 1 } }, undefined, REQUEST);
            await s.client.ping(REQUEST);
            assert.deepEqual(logs, [], 'an info message is not sent at level error');

            await rejectsWithCode(
                s.client.request({ method: 'logging/setLevel', params: { level: 'loud' } }, EmptyResultSchema, REQUEST), -32602);
        } finally {
            await s.client.setLoggingLevel('info', REQUEST);
            s.client.removeNotificationHandler('notifications/message');
        }
    });

    test('resources/subscribe: add_note notifies subscribers of that note only', TEST, async () => {
        const updated = [];
        s.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updated.push(n.params.uri));
        try {
            assert.deepEqual(await s.client.subscribeResource({ uri: 'demo://notes/todo' }, REQUEST), {});
            const result = await s.client.callTool(
                { name: 'add_note', arguments: { slug: 'todo', body: '# Todo\n\n- write tests' } }, undefined, REQUEST);
            assert.equal(result.content[0].type, 'resource_link');
            assert.equal(result.content[0].uri, 'demo://notes/todo');
            await waitUntil(() => updated.includes('demo://notes/todo'), 5000, 'notifications/resources/updated');
            assert.deepEqual(updated, ['demo://notes/todo']);

            // A note nobody subscribed to: no notification (it would precede the call's response).
            await s.client.callTool({ name: 'add_note', arguments: { slug: 'unwatched', body: 'x' } }, undefined, REQUEST);
            await s.client.ping(REQUEST);
            assert.deepEqual(updated, ['demo://notes/todo']);

            const read = await s.client.readResource({ uri: 'demo://notes/todo' }, REQUEST);
            assert.equal(read.contents[0].text, '# Todo\n\n- write tests');

            assert.deepEqual(await s.client.unsubscribeResource({ uri: 'demo://notes/todo' }, REQUEST), {});
            await s.client.callTool({ name: 'add_note', arguments: { slug: 'todo', body: 'changed' } }, undefined, REQUEST);
            await s.client.ping(REQUEST);
            assert.deepEqual(updated, ['demo://notes/todo'], 'no notification after unsubscribe');
        } finally {
            s.client.removeNotificationHandler('notifications/resources/updated');
        }
    });

    test('cancellation: an aborted slow_count stops in the handler and gets no response', TEST, async () => {
        const before = await readStats(s.client);
        const controller = new AbortController();
        let seen = 0;
        const call = s.client.callTool(
            { name: 'slow_count', arguments: { to: 100, step_ms: 50 } }, undefined,
            {
                ...REQUEST,
                signal: controller.signal,
                onprogress: () => {
                    if (++seen === 3) controller.abort('enough');
                },
            });
        await assert.rejects(call, (e) => {
            assert.match(String(e?.message ?? e), /enough|abort/i);
            return true;
        });
        assert.ok(seen >= 3);

        const request = s.wire.sent.findLast((m) => m.method === 'tools/call' && m.params.arguments?.to === 100);
        const cancel = s.wire.sent.find((m) => m.method === 'notifications/cancelled' && m.params.requestId === request.id);
        assert.ok(cancel, 'the SDK sent notifications/cancelled for the call');

        // The handler saw the stop request: the demo counts it in cancellations_observed.
        const after = await waitUntil(async () => {
            const stats = await readStats(s.client);
            return stats.cancellations_observed > before.cancellations_observed && stats;
        }, 5000, 'cancellations_observed to increase');
        assert.equal(after.cancellations_observed, before.cancellations_observed + 1);

        // Long after it stopped, still no response for that id, and progress stopped well short of 100.
        await sleep(300);
        await s.client.ping(REQUEST);
        assert.equal(s.wire.received.filter((m) => m.id === request.id).length, 0, 'no response to a cancelled request');
        const token = request.params._meta.progressToken;
        cancelledToken = token;
        const progressed = s.wire.received.filter((m) => m.method === 'notifications/progress' && m.params.progressToken === token);
        assert.ok(progressed.length < 20, `the count stopped early (${progressed.length} steps)`);
        assert.deepEqual(s.errors.filter((e) => /unknown message ID/.test(e.message)), []);
    });

    test('concurrency: ten echo calls at once, answered while slow_count runs', TEST, async () => {
        const order = [];
        const slow = s.client.callTool({ name: 'slow_count', arguments: { to: 10, step_ms: 100 } }, undefined, REQUEST)
            .then((r) => { order.push('slow'); return r; });
        const texts = Array.from({ length: 10 }, (_, i) => `echo #${i} ${Math.random().toString(36).slice(2)}`);
        const echoes = await Promise.all(texts.map((text) =>
            s.client.callTool({ name: 'echo', arguments: { text } }, undefined, REQUEST).then((r) => { order.push('echo'); return r; })));
        echoes.forEach((r, i) => assert.deepEqual(r.content, [{ type: 'text', text: texts[i] }]));
        assert.equal(textOf(await slow), 'Counted to 10');
        assert.deepEqual(order, [...Array(10).fill('echo'), 'slow'], 'echoes did not wait for slow_count');
    });

    test('no stray protocol errors reached the client; no progress after its response', TEST, () => {
        // "Progress for an unknown token" errors are the SDK's late dispatch (typescript-sdk #2580)
        // or a step of the cancelled count under way when the cancellation came (allowed by the
        // spec); what the server wrote is checked on the wire instead.
        const lateProgress = /Received a progress notification for an unknown token/;
        assert.deepEqual(s.errors.map(String).filter((e) => !lateProgress.test(e)), []);
        const calls = s.wire.sent.filter((m) => m.method === 'tools/call' && m.params?._meta?.progressToken !== undefined);
        assert.equal(calls.length, 2, "the progress and cancellation tests asked for progress");
        for (const call of calls) {
            const token = call.params._meta.progressToken;
            const responseAt = s.wire.received.findIndex((m) => m.id === call.id && !('method' in m));
            if (token === cancelledToken) {
                assert.equal(responseAt, -1, 'the cancelled call has no response');
                continue;
            }
            assert.ok(responseAt >= 0, `call ${call.id} was answered`);
            const late = s.wire.received.slice(responseAt).filter((m) => m.method === 'notifications/progress' && m.params.progressToken === token);
            assert.deepEqual(late, [], `no progress of call ${call.id} after its response`);
        }
    });
});

describe('tools/list pagination with --page-size 2', { timeout: 60_000 }, () => {
    let paged;
    let full;
    before(async () => {
        [paged, full] = await Promise.all([connect(['--page-size', '2']), connect()]);
    });
    after(async () => {
        await Promise.all([paged?.client.close(), full?.client.close()]);
    });

    test('five pages together equal the full list', TEST, async () => {
        const pages = [];
        let cursor;
        do {
            assert.ok(pages.length < 10, 'pagination terminates');
            const page = await paged.client.listTools(cursor === undefined ? {} : { cursor }, REQUEST);
            pages.push(page.tools);
            cursor = page.nextCursor;
            if (cursor !== undefined) assert.equal(typeof cursor, 'string');
        } while (cursor !== undefined);
        assert.deepEqual(pages.map((p) => p.length), [2, 2, 2, 2, 2]);
        const { tools } = await full.client.listTools({}, REQUEST);
        assert.deepEqual(pages.flat(), tools);
        assert.deepEqual(pages.flat().map((t) => t.name).sort(), TOOL_NAMES);
    });

    test('forged, tampered and cross-list cursors are rejected with -32602', TEST, async () => {
        await rejectsWithCode(paged.client.listTools({ cursor: 'Zm9yZ2VkIGN1cnNvcg' }, REQUEST), -32602);
        await rejectsWithCode(paged.client.listTools({ cursor: '!!! not base64 !!!' }, REQUEST), -32602);
        const { nextCursor } = await paged.client.listTools({}, REQUEST);
        assert.ok(nextCursor);
        const flipped = (nextCursor[0] === 'A' ? 'B' : 'A') + nextCursor.slice(1);
        await rejectsWithCode(paged.client.listTools({ cursor: flipped }, REQUEST), -32602);
        // A tools cursor is no good for another list, nor for another server process.
        await rejectsWithCode(paged.client.listPrompts({ cursor: nextCursor }, REQUEST), -32602);
        await rejectsWithCode(full.client.listTools({ cursor: nextCursor }, REQUEST), -32602);
        // The real cursor still works.
        const second = await paged.client.listTools({ cursor: nextCursor }, REQUEST);
        assert.equal(second.tools.length, 2);
    });
});
