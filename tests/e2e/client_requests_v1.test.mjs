// End-to-end: the server asks the client (elicitation, sampling, roots) on the 2025-11-25 wire.
// The official v1 client (@modelcontextprotocol/sdk 1.32.2) answers through its request handlers
// over Streamable HTTP and over stdio: the demo's delete_note (form elicitation), draft_note (a
// form and a sampling request in one round), project_roots (roots/list, cached per session until
// notifications/roots/list_changed) and connect_account (URL elicitation); timeouts
// (notifications/cancelled), JSON-RPC error answers, forged and late answers, and a client that
// goes away (DELETE, stdin EOF) while a handler waits.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/client_requests_v1.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
    CreateMessageRequestSchema,
    ElicitRequestSchema,
    ListRootsRequestSchema,
    McpError,
} from '@modelcontextprotocol/sdk/types.js';

import {
    demoBinary,
    HttpDemo,
    HttpRecorder,
    RawServer,
    sleep,
    tapTransport,
    waitUntil,
    withTimeout,
} from './helpers.mjs';

const DEMO = demoBinary();
const REQUEST = { timeout: 15_000 };  // every SDK request fails after this instead of hanging
const TEST = { timeout: 30_000 };     // every test
const SHORT = ['--elicitation-timeout', '300ms', '--sampling-timeout', '300ms', '--roots-timeout', '300ms'];
const LONG = ['--elicitation-timeout', '60s', '--sampling-timeout', '60s', '--roots-timeout', '60s', '--log-level', 'debug'];

// Everything a client can answer; FORM_ONLY lacks URL-mode elicitation.
const CAPS = { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } };
const FORM_ONLY = { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } };

function deferred() {
    let resolve;
    let reject;
    const promise = new Promise((res, rej) => {
        resolve = res;
        reject = rej;
    });
    return { promise, resolve, reject };
}

// Handlers for the three client requests. Each records its requests and defers to the
// replaceable `on.elicit` / `on.sample` / `on.roots`; by default an unexpected request fails.
function installHandlers(client, capabilities) {
    const seen = { elicit: [], sample: [], roots: [] };
    const on = {
        elicit: (req) => {
            throw new Error(`unexpected elicitation/create ${JSON.stringify(req.params)}`);
        },
        sample: (req) => {
            throw new Error(`unexpected sampling/createMessage ${JSON.stringify(req.params)}`);
        },
        roots: () => ({ roots: [] }),
    };
    if (capabilities.elicitation) {
        client.setRequestHandler(ElicitRequestSchema, (req, extra) => {
            seen.elicit.push({ req, extra });
            return on.elicit(req, extra);
        });
    }
    if (capabilities.sampling) {
        client.setRequestHandler(CreateMessageRequestSchema, (req, extra) => {
            seen.sample.push({ req, extra });
            return on.sample(req, extra);
        });
    }
    if (capabilities.roots) {
        client.setRequestHandler(ListRootsRequestSchema, (req, extra) => {
            seen.roots.push({ req, extra });
            return on.roots(req, extra);
        });
    }
    return { seen, on };
}

// A connected v1 client over Streamable HTTP; `recorder` sees the raw HTTP exchanges.
async function connectHttp(url, capabilities = CAPS) {
    const recorder = new HttpRecorder();
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recorder.fetch });
    const wire = tapTransport(transport);
    const client = new Client({ name: 'mcp-cpp-e2e-client-requests', version: '1.0.0' }, { capabilities });
    const handlers = installHandlers(client, capabilities);
    const errors = [];
    client.onerror = (e) => errors.push(e);
    await client.connect(transport, REQUEST);
    return { kind: 'http', client, transport, wire, recorder, errors, ...handlers };
}

// A connected v1 client over stdio, on a server process of its own started with `args`.
async function connectStdio(args = [], capabilities = CAPS) {
    const transport = new StdioClientTransport({ command: DEMO, args, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
        if (stderr.length < 256 * 1024) stderr += chunk;
    });
    const wire = tapTransport(transport);
    const client = new Client({ name: 'mcp-cpp-e2e-client-requests', version: '1.0.0' }, { capabilities });
    const handlers = installHandlers(client, capabilities);
    const errors = [];
    client.onerror = (e) => errors.push(e);
    await client.connect(transport, REQUEST);
    return { kind: 'stdio', client, transport, wire, errors, stderr: () => stderr, ...handlers };
}

async function closeAll(connections) {
    await Promise.all(connections.map(async (c) => {
        try {
            await c?.client.close();
        } catch {
            // closing is best effort
        }
    }));
}

const textOf = (result) => {
    assert.equal(result.content?.[0]?.type, 'text', `first content block is text: ${JSON.stringify(result)}`);
    return result.content[0].text;
};

async function readStats(client) {
    const r = await client.readResource({ uri: 'demo://server/stats' }, REQUEST);
    return JSON.parse(r.contents[0].text);
}

async function readNote(client, slug) {
    const r = await client.readResource({ uri: `demo://notes/${slug}` }, REQUEST);
    return r.contents[0].text;
}

async function noteIsGone(client, slug) {
    let error;
    try {
        await client.readResource({ uri: `demo://notes/${slug}` }, REQUEST);
    } catch (e) {
        error = e;
    }
    assert.ok(error instanceof McpError, `reading demo://notes/${slug} fails with an McpError (got ${error})`);
    assert.equal(error.code, -32002, `resource not found (message: ${error.message})`);
}

async function addNote(client, slug, body) {
    const r = await client.callTool({ name: 'add_note', arguments: { slug, body } }, undefined, REQUEST);
    assert.notEqual(r.isError, true, `add_note ${slug}: ${JSON.stringify(r)}`);
}

const callTool = (c, name, args = {}) => c.client.callTool({ name, arguments: args }, undefined, REQUEST);

// The server's requests (and notifications) the client received, by method.
const receivedOf = (c, method) => c.wire.received.filter((m) => m.method === method);

let slugCounter = 0;
const freshSlug = (prefix) => `${prefix}-${process.pid % 10000}-${++slugCounter}`;

// The scenarios both transports share. `open(profile, capabilities)` returns a connected client;
// profile "default", "short" (300 ms client-request timeouts) or "long" (60 s, debug log).
function sharedScenarios(open) {
    test('delete_note: accept with confirm=true deletes the note (then reading it is -32002)', TEST, async () => {
        const c = await open('default');
        const slug = freshSlug('doomed');
        await addNote(c.client, slug, '# doomed');
        c.on.elicit = () => ({ action: 'accept', content: { confirm: true, reason: 'obsolete' } });
        const result = await callTool(c, 'delete_note', { slug });
        assert.notEqual(result.isError, true, JSON.stringify(result));
        assert.equal(textOf(result), `Deleted ${slug}`);
        assert.equal(c.seen.elicit.length, 1, 'one elicitation/create reached the client');
        const { params } = c.seen.elicit[0].req;
        assert.match(params.message, new RegExp(slug));
        assert.ok(params.mode === undefined || params.mode === 'form', `form mode (got ${params.mode})`);
        assert.equal(params.requestedSchema.type, 'object');
        assert.equal(params.requestedSchema.properties.confirm.type, 'boolean');
        assert.equal(params.requestedSchema.properties.reason.type, 'string');
        assert.deepEqual(params.requestedSchema.required, ['confirm'], 'reason is optional');
        // On the wire: a JSON-RPC request with a string id, answered with that id.
        const [request] = receivedOf(c, 'elicitation/create');
        assert.equal(typeof request.id, 'string', `the server's request id is a string: ${JSON.stringify(request.id)}`);
        assert.ok(c.wire.sent.some((m) => m.id === request.id && m.result?.action === 'accept'), 'the client answered that id');
        await noteIsGone(c.client, slug);
    });

    test('delete_note: decline keeps the note; accept with confirm=false keeps it too', TEST, async () => {
        const c = await open('default');
        const slug = freshSlug('kept');
        await addNote(c.client, slug, '# kept');
        c.on.elicit = () => ({ action: 'decline' });
        assert.equal(textOf(await callTool(c, 'delete_note', { slug })), `Kept ${slug}`);
        c.on.elicit = () => ({ action: 'accept', content: { confirm: false } });
        assert.equal(textOf(await callTool(c, 'delete_note', { slug })), `Kept ${slug}`);
        c.on.elicit = () => ({ action: 'cancel' });
        assert.equal(textOf(await callTool(c, 'delete_note', { slug })), `Kept ${slug}`);
        assert.equal(await readNote(c.client, slug), '# kept');
        assert.equal(c.seen.elicit.length, 3);
    });

    test('delete_note of a missing note asks nothing', TEST, async () => {
        const c = await open('default');
        const result = await callTool(c, 'delete_note', { slug: freshSlug('never-there') });
        assert.equal(result.isError, true);
        assert.match(textOf(result), /No note named/);
        assert.equal(c.seen.elicit.length, 0);
    });

    test('draft_note: the form and the sampling request go out together; the note holds the model text', TEST, async () => {
        const c = await open('default');
        const slug = freshSlug('drafted');
        const modelText = `# Cats\n\nCats sleep a lot. (${slug})`;
        const sampled = deferred();
        // The form is answered only once the sampling request arrived too: both are in flight at
        // once (one round), not one after the other.
        c.on.elicit = async () => {
            await withTimeout(sampled.promise, 5000, 'the sampling request while the form is still open');
            return { action: 'accept', content: { slug } };
        };
        c.on.sample = () => {
            sampled.resolve();
            return { role: 'assistant', content: { type: 'text', text: modelText }, model: 'e2e-model', stopReason: 'endTurn' };
        };
        const result = await callTool(c, 'draft_note', { topic: 'cats' });
        assert.notEqual(result.isError, true, JSON.stringify(result));
        assert.deepEqual(result.content.map((b) => [b.type, b.uri, b.name]), [['resource_link', `demo://notes/${slug}`, slug]]);
        assert.equal(await readNote(c.client, slug), modelText);

        assert.equal(c.seen.elicit.length, 1);
        assert.equal(c.seen.sample.length, 1);
        assert.match(c.seen.elicit[0].req.params.message, /cats/);
        assert.deepEqual(Object.keys(c.seen.elicit[0].req.params.requestedSchema.properties), ['slug']);
        const sp = c.seen.sample[0].req.params;
        assert.equal(sp.maxTokens, 400);
        assert.equal(sp.systemPrompt, 'You write concise notes.');
        assert.equal(sp.messages.length, 1);
        assert.equal(sp.messages[0].role, 'user');
        assert.match(sp.messages[0].content.text, /cats/);
        const [e] = receivedOf(c, 'elicitation/create');
        const [s] = receivedOf(c, 'sampling/createMessage');
        assert.notEqual(e.id, s.id, 'the two requests have distinct ids');
    });

    test('draft_note: a declined name saves nothing', TEST, async () => {
        const c = await open('default');
        const before = await readStats(c.client);
        c.on.elicit = () => ({ action: 'decline' });
        c.on.sample = () => ({ role: 'assistant', content: { type: 'text', text: 'unused' }, model: 'm' });
        const result = await callTool(c, 'draft_note', { topic: 'dogs' });
        assert.equal(textOf(result), 'Not saved');
        assert.equal((await readStats(c.client)).notes, before.notes);
    });

    test('project_roots: asked once per session, again after notifications/roots/list_changed', TEST, async () => {
        const c = await open('default');
        let roots = [{ uri: 'file:///work/project', name: 'project' }, { uri: 'file:///tmp/scratch' }];
        c.on.roots = () => ({ roots });
        const first = textOf(await callTool(c, 'project_roots'));
        assert.equal(first, 'file:///work/project (project)\nfile:///tmp/scratch\n');
        assert.equal(c.seen.roots.length, 1);
        // Cached for the session: the second call does not ask the client again.
        assert.equal(textOf(await callTool(c, 'project_roots')), first);
        assert.equal(c.seen.roots.length, 1, 'the second project_roots did not send roots/list');
        assert.equal(receivedOf(c, 'roots/list').length, 1);

        roots = [{ uri: 'file:///elsewhere', name: 'moved' }];
        await c.client.sendRootsListChanged();
        assert.equal(textOf(await callTool(c, 'project_roots')), 'file:///elsewhere (moved)\n');
        assert.equal(c.seen.roots.length, 2, 'after list_changed the server asked again');
        assert.equal(textOf(await callTool(c, 'project_roots')), 'file:///elsewhere (moved)\n');
        assert.equal(c.seen.roots.length, 2, 'and cached the new answer');
    });

    test('project_roots: no roots shared', TEST, async () => {
        const c = await open('default');
        c.on.roots = () => ({ roots: [] });
        assert.equal(textOf(await callTool(c, 'project_roots')), 'The client shares no roots');
    });

    test('connect_account: a client declaring elicitation.url gets a URL elicitation', TEST, async () => {
        const c = await open('default', CAPS);
        c.on.elicit = () => ({ action: 'accept' });
        const result = await callTool(c, 'connect_account');
        assert.notEqual(result.isError, true, JSON.stringify(result));
        assert.equal(textOf(result), 'Sign-in page opened');
        assert.equal(c.seen.elicit.length, 1);
        const { params } = c.seen.elicit[0].req;
        assert.equal(params.mode, 'url');
        assert.equal(params.url, 'https://notes.example.com/connect');
        assert.equal(typeof params.elicitationId, 'string');
        assert.ok(params.elicitationId.length > 0, 'a non-empty elicitationId');
        assert.equal(params.requestedSchema, undefined, 'no form in URL mode');
        const [raw] = receivedOf(c, 'elicitation/create');
        assert.equal(raw.params.mode, 'url', 'mode "url" on the wire');
        c.on.elicit = () => ({ action: 'decline' });
        assert.equal(textOf(await callTool(c, 'connect_account')), 'Sign-in declined');
        assert.notEqual(c.seen.elicit[1].req.params.elicitationId, params.elicitationId, 'a fresh elicitationId per request');
    });

    test('connect_account: without elicitation.url, an isError result and no request sent', TEST, async () => {
        const c = await open('default', FORM_ONLY);
        const result = await callTool(c, 'connect_account');
        assert.equal(result.isError, true, JSON.stringify(result));
        assert.match(textOf(result), /cannot open a sign-in page/);
        assert.deepEqual(receivedOf(c, 'elicitation/create'), [], 'no elicitation/create was sent');
        assert.equal(c.seen.elicit.length, 0);
    });

    test('a client without the elicitation capability gets an isError result, no request', TEST, async () => {
        const c = await open('default', { sampling: {} });
        const slug = freshSlug('nocap');
        await addNote(c.client, slug, 'x');
        const result = await callTool(c, 'delete_note', { slug });
        assert.equal(result.isError, true, JSON.stringify(result));
        assert.match(textOf(result), /elicitation/);
        assert.deepEqual(receivedOf(c, 'elicitation/create'), []);
        assert.equal(await readNote(c.client, slug), 'x');
    });

    test('elicitation timeout: notifications/cancelled names the request; isError; the server still serves', TEST, async () => {
        const c = await open('short');
        const slug = freshSlug('slowpoke');
        await addNote(c.client, slug, 'slow');
        const aborted = deferred();
        c.on.elicit = (req, extra) => {
            extra.signal.addEventListener('abort', () => aborted.resolve(extra.signal.reason), { once: true });
            return new Promise(() => {});  // never answers
        };
        const started = Date.now();
        const result = await callTool(c, 'delete_note', { slug });
        const elapsed = Date.now() - started;
        assert.equal(result.isError, true, JSON.stringify(result));
        assert.match(textOf(result), /in time|timed out|timeout/i);
        assert.ok(elapsed >= 250, `the tool waited for the timeout (${elapsed} ms)`);
        assert.ok(elapsed < 10_000, `and not much longer (${elapsed} ms)`);

        const [request] = receivedOf(c, 'elicitation/create');
        assert.ok(request, 'the elicitation request reached the client');
        const cancels = receivedOf(c, 'notifications/cancelled');
        assert.equal(cancels.length, 1, `one notifications/cancelled: ${JSON.stringify(cancels)}`);
        assert.equal(cancels[0].params.requestId, request.id, 'it names the elicitation request id');
        assert.equal(typeof cancels[0].params.reason, 'string');
        const order = c.wire.received.indexOf(cancels[0]);
        const resultIndex = c.wire.received.findIndex((m) => m.result?.isError === true);
        assert.ok(order < resultIndex, 'the cancellation came before the tool result');
        // The SDK took the notification: the handler's signal was aborted.
        await withTimeout(aborted.promise, 5000, 'the SDK to abort the cancelled handler');
        if (c.kind === 'http') {
            // Raw traffic: the cancellation rode the tools/call's own SSE stream.
            const [x] = c.recorder.find((m) => m.method === 'tools/call' && m.params?.arguments?.slug === slug && m.params?.name === 'delete_note');
            assert.ok(x, 'the tools/call POST was recorded');
            assert.match(x.body, /notifications\/cancelled/);
            assert.ok(x.body.includes(JSON.stringify(request.id)), 'the raw stream names the request id');
        }
        // A late answer to the timed-out id is dropped (no effect: the note stays).
        await c.transport.send({ jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { confirm: true } } });
        await sleep(200);
        assert.equal(await readNote(c.client, slug), 'slow');
        const stats = await readStats(c.client);
        assert.ok(stats.notes >= 1, JSON.stringify(stats));
        assert.equal(textOf(await callTool(c, 'echo', { text: 'still here' })), 'still here');
    });

    test('sampling and roots timeouts: each cancels its own request', TEST, async () => {
        const c = await open('short');
        c.on.elicit = () => ({ action: 'accept', content: { slug: freshSlug('never-saved') } });
        c.on.sample = () => new Promise(() => {});
        const drafted = await callTool(c, 'draft_note', { topic: 'timeouts' });
        assert.equal(drafted.isError, true, JSON.stringify(drafted));
        const [s] = receivedOf(c, 'sampling/createMessage');
        assert.ok(s, 'the sampling request reached the client');
        let cancels = receivedOf(c, 'notifications/cancelled');
        assert.deepEqual(cancels.map((n) => n.params.requestId), [s.id], 'only the sampling request was cancelled');

        c.on.roots = () => new Promise(() => {});
        const roots = await callTool(c, 'project_roots');
        assert.equal(roots.isError, true, JSON.stringify(roots));
        const [r] = receivedOf(c, 'roots/list');
        cancels = receivedOf(c, 'notifications/cancelled');
        assert.deepEqual(cancels.map((n) => n.params.requestId), [s.id, r.id]);
        // A timed-out roots/list caches nothing: the next call asks again.
        c.on.roots = () => ({ roots: [{ uri: 'file:///late' }] });
        assert.equal(textOf(await callTool(c, 'project_roots')), 'file:///late\n');
        assert.equal(c.seen.roots.length, 2);
    });

    // The client cancels the tools/call while the handler waits for the form.
    async function cancelWhileWaiting(c) {
        const slug = freshSlug('abandoned');
        await addNote(c.client, slug, 'abandoned');
        const aborted = deferred();
        c.on.elicit = (req, extra) => {
            extra.signal.addEventListener('abort', () => aborted.resolve(extra.signal.reason), { once: true });
            return new Promise(() => {});  // the user never closes the dialog
        };
        const controller = new AbortController();
        const call = c.client.callTool({ name: 'delete_note', arguments: { slug } }, undefined, { ...REQUEST, signal: controller.signal });
        call.catch(() => {});
        const request = await waitUntil(() => receivedOf(c, 'elicitation/create')[0], 10_000, 'the elicitation request');
        const stderr = c.kind === 'http' ? () => c.server().stderr : c.stderr;
        const mark = stderr().length;
        controller.abort('the user gave up');
        await assert.rejects(call);
        assert.ok(c.wire.sent.some((m) => m.method === 'notifications/cancelled'), 'the SDK sent notifications/cancelled for the call');
        // The parked call ends at once, and its handler (replayable) does not run again (debug log).
        await waitUntil(() => /delete_note: parked call dropped: the request was cancelled/.test(stderr().slice(mark)), 5000,
            `the handler to stop waiting after the cancellation; stderr:\n${stderr().slice(-1500)}`);
        assert.equal(await readNote(c.client, slug), 'abandoned');
        return { request, aborted };
    }

    test('cancelling the call while it waits for the form ends the wait at once; the note stays', TEST, async () => {
        await cancelWhileWaiting(await open('long'));
    });

    // Optional in the spec, but otherwise the client is left with a form nobody will read.
    test('cancelling the call withdraws the elicitation (notifications/cancelled for it, as after a timeout)', TEST, async () => {
        const c = await open('long');
        const { request, aborted } = await cancelWhileWaiting(c);
        await sleep(300);
        const cancels = receivedOf(c, 'notifications/cancelled');
        assert.deepEqual(cancels.map((n) => n.params.requestId), [request.id],
            'the server sent notifications/cancelled for its elicitation/create once the call was cancelled');
        await withTimeout(aborted.promise, 2000, 'the SDK to abort the elicitation handler');
    });

    test('a JSON-RPC error answer reaches the handler: isError result naming it', TEST, async () => {
        const c = await open('default');
        const slug = freshSlug('refused');
        await addNote(c.client, slug, 'refused');
        c.on.elicit = () => {
            throw new McpError(-32001, 'the user closed the dialog window');
        };
        const result = await callTool(c, 'delete_note', { slug });
        assert.equal(result.isError, true, JSON.stringify(result));
        assert.match(textOf(result), /the user closed the dialog window/);
        const [request] = receivedOf(c, 'elicitation/create');
        const answer = c.wire.sent.find((m) => m.id === request.id);
        assert.ok(answer?.error, `the client answered with an error: ${JSON.stringify(answer)}`);
        assert.equal(await readNote(c.client, slug), 'refused');

        c.on.sample = () => {
            throw new McpError(-32603, 'model unavailable');
        };
        c.on.elicit = () => ({ action: 'accept', content: { slug: freshSlug('no-model') } });
        const drafted = await callTool(c, 'draft_note', { topic: 'errors' });
        assert.equal(drafted.isError, true);
        assert.match(textOf(drafted), /model unavailable/);
    });

    test('a malformed answer (result of the wrong shape) is an isError result', TEST, async () => {
        const c = await open('default');
        const slug = freshSlug('malformed');
        await addNote(c.client, slug, 'm');
        // Bypass the SDK's own validation: the handler never answers, the test answers by hand.
        c.on.elicit = () => new Promise(() => {});
        const call = callTool(c, 'delete_note', { slug });
        const request = await waitUntil(() => receivedOf(c, 'elicitation/create')[0], 10_000, 'the elicitation request');
        await c.transport.send({ jsonrpc: '2.0', id: request.id, result: { action: 'maybe' } });
        const result = await call;
        assert.equal(result.isError, true, JSON.stringify(result));
        assert.match(textOf(result), /action|malformed/i);
        assert.equal(await readNote(c.client, slug), 'm');
    });
}

describe('client requests over Streamable HTTP (SDK v1, 2025-11-25)', { timeout: 170_000 }, () => {
    const servers = {};
    const connections = [];
    before(async () => {
        servers.default = await HttpDemo.start();
        servers.short = await HttpDemo.start(SHORT);
        servers.long = await HttpDemo.start(LONG);
    });
    after(async () => {
        await closeAll(connections);
        await Promise.all(Object.values(servers).map((s) => s.close()));
    });
    const open = async (profile, capabilities = CAPS) => {
        const c = await connectHttp(servers[profile].url, capabilities);
        c.server = () => servers[profile];
        connections.push(c);
        return c;
    };

    sharedScenarios(open);

    test('forged answers get 202 and change nothing: unknown id, another session, after the call', TEST, async () => {
        const a = await open('default');
        const b = await open('default');
        const slug = freshSlug('forged');
        await addNote(a.client, slug, 'forged');
        const answer = deferred();
        a.on.elicit = () => answer.promise;
        const call = callTool(a, 'delete_note', { slug });
        const request = await waitUntil(() => receivedOf(a, 'elicitation/create')[0], 10_000, 'the elicitation request');

        const post = async (sessionId, message) => {
            const res = await fetch(servers.default.url, {
                method: 'POST',
                headers: {
                    'content-type': 'application/json',
                    accept: 'application/json, text/event-stream',
                    'mcp-protocol-version': '2025-11-25',
                    'mcp-session-id': sessionId,
                },
                body: JSON.stringify(message),
                signal: AbortSignal.timeout(10_000),
            });
            return { status: res.status, text: await res.text() };
        };
        const accept = { action: 'accept', content: { confirm: true } };
        // An id the server never issued.
        const forged = await post(a.transport.sessionId, { jsonrpc: '2.0', id: 'forged', result: accept });
        assert.equal(forged.status, 202, forged.text);
        assert.equal(forged.text, '');
        // The real id, but through another session.
        const crossed = await post(b.transport.sessionId, { jsonrpc: '2.0', id: request.id, result: accept });
        assert.equal(crossed.status, 202, crossed.text);
        // A numeric id.
        const numeric = await post(a.transport.sessionId, { jsonrpc: '2.0', id: 1, result: accept });
        assert.equal(numeric.status, 202, numeric.text);
        await sleep(300);
        // None of them reached the handler: the call still waits, the note is there.
        assert.equal(await readNote(b.client, slug), 'forged');
        const pending = await Promise.race([call.then(() => 'settled', () => 'settled'), sleep(100).then(() => 'pending')]);
        assert.equal(pending, 'pending', 'the call still waits for its real answer');

        answer.resolve({ action: 'decline' });
        assert.equal(textOf(await call), `Kept ${slug}`);
        // The same id again, after the call ended: 202, dropped.
        const late = await post(a.transport.sessionId, { jsonrpc: '2.0', id: request.id, result: accept });
        assert.equal(late.status, 202, late.text);
        await sleep(200);
        assert.equal(await readNote(a.client, slug), 'forged');
        assert.equal(textOf(await callTool(a, 'echo', { text: 'ok' })), 'ok');
    });

    test('the call stream cut after the elicitation: the client answers, resumes with Last-Event-ID, gets the result', TEST, async () => {
        const slug = freshSlug('resumed');
        const recorder = new HttpRecorder({
            intercept: (x, text) => x.message?.params?.name === 'delete_note' && text.includes('elicitation/create'),
        });
        const transport = new StreamableHTTPClientTransport(new URL(servers.default.url), {
            fetch: recorder.fetch,
            reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 5 },
        });
        const wire = tapTransport(transport);
        const client = new Client({ name: 'mcp-cpp-e2e-resume', version: '1.0.0' }, { capabilities: CAPS });
        const c = { kind: 'http', client, transport, wire, recorder, errors: [], ...installHandlers(client, CAPS) };
        client.onerror = (e) => c.errors.push(e);
        await client.connect(transport, REQUEST);
        connections.push(c);
        await addNote(client, slug, 'resumed');
        c.on.elicit = () => ({ action: 'accept', content: { confirm: true } });
        const result = await callTool(c, 'delete_note', { slug });
        assert.equal(textOf(result), `Deleted ${slug}`);
        assert.equal(c.seen.elicit.length, 1, 'the elicitation reached the handler once');
        const [post] = recorder.find((m) => m.method === 'tools/call' && m.params?.name === 'delete_note');
        assert.ok(post.cut, 'the POST stream was cut after the elicitation request');
        const resumed = recorder.exchanges.filter((x) => x.method === 'GET' && x.requestHeaders['last-event-id']);
        assert.ok(resumed.some((x) => x.status === 200 && x.body.includes(`Deleted ${slug}`)),
            `the result came on a GET resumed with Last-Event-ID: ${JSON.stringify(resumed.map((x) => [x.status, x.body.slice(0, 200)]))}`);
        assert.ok(!resumed.some((x) => x.body.includes('elicitation/create')), 'the resumed stream does not replay the request already delivered');
        await noteIsGone(client, slug);
    });

    test('DELETE of the session ends a waiting handler at once (not at the 60 s timeout)', TEST, async () => {
        const c = await open('long');
        const slug = freshSlug('orphan');
        await addNote(c.client, slug, 'orphan');
        c.on.elicit = () => new Promise(() => {});
        const call = callTool(c, 'delete_note', { slug });
        call.catch(() => {});  // the session goes away under it
        await waitUntil(() => receivedOf(c, 'elicitation/create')[0], 10_000, 'the elicitation request');
        const [x] = c.recorder.find((m) => m.method === 'tools/call' && m.params?.name === 'delete_note' && m.params?.arguments?.slug === slug);
        assert.ok(x, 'the tools/call POST was recorded');
        assert.equal(x.ended, false, 'the call stream is open while the handler waits');
        const stderrBefore = servers.long.stderr.length;

        const started = Date.now();
        await c.transport.terminateSession();
        await waitUntil(() => x.ended, 5000, 'the tools/call SSE stream to end after DELETE');
        const streamEnded = Date.now() - started;
        // The parked call was dropped (debug log): delete_note is replayable and runs no more.
        await waitUntil(() => /delete_note: parked call dropped: the client is gone/.test(servers.long.stderr.slice(stderrBefore)), 5000,
            `the handler to fail after DELETE; stderr:\n${servers.long.stderrTail()}`);
        const handlerEnded = Date.now() - started;
        console.log(`DELETE → call stream ended after ${streamEnded} ms, handler ended after ${handlerEnded} ms`);
        assert.ok(handlerEnded < 5000, `the wait ended at once (${handlerEnded} ms), not at the 60 s timeout`);

        // The server goes on serving others.
        const other = await open('long');
        assert.equal((await readStats(other.client)).notes >= 1, true);
        assert.equal(await readNote(other.client, slug), 'orphan');
    });
});

describe('client requests over stdio (SDK v1, 2025-11-25)', { timeout: 170_000 }, () => {
    const connections = [];
    after(async () => {
        await closeAll(connections);
    });
    const open = async (profile, capabilities = CAPS) => {
        const c = await connectStdio({ short: SHORT, long: LONG }[profile] ?? [], capabilities);
        connections.push(c);
        return c;
    };

    sharedScenarios(open);

    test('a forged answer on stdin gets no reply and changes nothing', TEST, async () => {
        const c = await open('default');
        const slug = freshSlug('forged-stdio');
        await addNote(c.client, slug, 'forged');
        const answer = deferred();
        c.on.elicit = () => answer.promise;
        const call = callTool(c, 'delete_note', { slug });
        await waitUntil(() => receivedOf(c, 'elicitation/create')[0], 10_000, 'the elicitation request');
        const before = c.wire.received.length;
        await c.transport.send({ jsonrpc: '2.0', id: 'forged', result: { action: 'accept', content: { confirm: true } } });
        await sleep(300);
        assert.deepEqual(c.wire.received.slice(before), [], 'the server said nothing about the forged answer');
        answer.resolve({ action: 'decline' });
        assert.equal(textOf(await call), `Kept ${slug}`);
        assert.equal(await readNote(c.client, slug), 'forged');
    });

    test('stdin EOF ends a waiting handler at once: the server exits long before the 60 s timeout', TEST, async () => {
        const raw = new RawServer(LONG);
        try {
            const init = await raw.request('init', 'initialize', {
                protocolVersion: '2025-11-25',
                capabilities: { elicitation: {} },
                clientInfo: { name: 'mcp-cpp-e2e-raw', version: '1.0.0' },
            });
            assert.ok(init.result, JSON.stringify(init));
            await raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
            await raw.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'delete_note', arguments: { slug: 'welcome' } } });
            const request = await raw.take((l) => l.msg?.method === 'elicitation/create', 5000, 'the elicitation request');
            assert.equal(typeof request.msg.id, 'string');
            const started = Date.now();
            raw.endInput();
            const exit = await raw.exited(10_000);
            const elapsed = Date.now() - started;
            console.log(`stdin EOF → exit after ${elapsed} ms (${JSON.stringify(exit)})`);
            assert.equal(exit.code, 0, `clean exit: ${JSON.stringify(exit)}\n${raw.stderr}`);
            assert.ok(elapsed < 5000, `the waiting handler did not hold the exit (${elapsed} ms)`);
        } finally {
            await raw.close();
        }
    });
});
