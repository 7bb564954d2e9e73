// End-to-end: the server asks the client on the 2026-07-28 wire (stateless multi-round-trip).
// The v2 client (@modelcontextprotocol/client 2.4.0, pinned to 2026-07-28) fulfils input_required
// results through its elicitation, sampling and roots handlers over Streamable HTTP and stdio; raw
// requests then attack the sealed requestState: every byte altered, expired, replayed on another
// method, tool, arguments or principal, sealed by an unknown key, and accepted across a key
// rotation. Also: first-round answers without requestState, unknown and malformed inputResponses,
// and a client without the capability (-32021).
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo MCP_CPP_PROBE=build/tests/support/mcp-cpp-probe \
//     node --test tests/e2e/client_requests_v2.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import {
    demoBinary,
    freePort,
    HttpDemo,
    HttpRecorder,
    META_CLIENT_CAPABILITIES,
    MODERN,
    modernHeaders,
    modernRequest,
    parseSse,
    sleep,
    sseMessages,
    tapTransport,
    waitUntil,
} from './helpers.mjs';

const DEMO = demoBinary();
const REQUEST = { timeout: 15_000 };
const TEST = { timeout: 30_000 };
const CAPS = { elicitation: { form: {} }, sampling: {}, roots: {} };

// ---------------------------------------------------------------------------------------------
// The SDK v2 client.

function installHandlers(client) {
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
    client.setRequestHandler('elicitation/create', (req, ctx) => {
        seen.elicit.push(req);
        return on.elicit(req, ctx);
    });
    client.setRequestHandler('sampling/createMessage', (req, ctx) => {
        seen.sample.push(req);
        return on.sample(req, ctx);
    });
    client.setRequestHandler('roots/list', (req, ctx) => {
        seen.roots.push(req);
        return on.roots(req, ctx);
    });
    return { seen, on };
}

function newClient() {
    const client = new Client({ name: 'mcp-cpp-e2e-client-requests-v2', version: '1.0.0' },
        { capabilities: CAPS, versionNegotiation: { mode: { pin: MODERN } } });
    const errors = [];
    client.onerror = (e) => errors.push(e);
    return { client, errors, ...installHandlers(client) };
}

async function connectHttp(url) {
    const recorder = new HttpRecorder();
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recorder.fetch });
    const wire = tapTransport(transport);
    const c = newClient();
    await c.client.connect(transport, REQUEST);
    return { kind: 'http', transport, wire, recorder, ...c };
}

async function connectStdio(args = []) {
    const transport = new StdioClientTransport({ command: DEMO, args, stderr: 'pipe' });
    const wire = tapTransport(transport);
    const c = newClient();
    await c.client.connect(transport, REQUEST);
    return { kind: 'stdio', transport, wire, ...c };
}

const textOf = (result) => {
    assert.equal(result.content?.[0]?.type, 'text', `first content block is text: ${JSON.stringify(result)}`);
    return result.content[0].text;
};

async function readStats(client) {
    const r = await client.readResource({ uri: 'demo://server/stats' }, { ...REQUEST, cacheMode: 'bypass' });
    return JSON.parse(r.contents[0].text);
}

async function readNote(client, slug) {
    const r = await client.readResource({ uri: `demo://notes/${slug}` }, { ...REQUEST, cacheMode: 'bypass' });
    return r.contents[0].text;
}

async function noteIsGone(client, slug) {
    let error;
    try {
        await client.readResource({ uri: `demo://notes/${slug}` }, { ...REQUEST, cacheMode: 'bypass' });
    } catch (e) {
        error = e;
    }
    assert.ok(error, `reading demo://notes/${slug} fails`);
    assert.equal(error.code, -32602, `an unknown resource is invalid params on 2026-07-28 (message: ${error.message})`);
}

const callTool = (c, name, args = {}) => c.client.callTool({ name, arguments: args }, REQUEST);

let slugCounter = 0;
const freshSlug = (prefix) => `${prefix}-${process.pid % 10000}-${++slugCounter}`;

// The results of tools/call requests for `tool` the client received (raw, before the SDK's driver).
const toolResults = (c, tool) => {
    const ids = new Set(c.wire.sent.filter((m) => m.method === 'tools/call' && m.params?.name === tool).map((m) => m.id));
    return c.wire.received.filter((m) => ids.has(m.id) && m.result);
};

function sdkScenarios(open) {
    test('delete_note: two rounds (input_required, then the answer); the handler runs once per round', TEST, async () => {
        const c = await open();
        const slug = freshSlug('doomed');
        await callTool(c, 'add_note', { slug, body: '# doomed' });
        c.on.elicit = () => ({ action: 'accept', content: { confirm: true } });
        const before = (await readStats(c.client)).tool_calls;
        const result = await callTool(c, 'delete_note', { slug });
        assert.notEqual(result.isError, true, JSON.stringify(result));
        assert.equal(textOf(result), `Deleted ${slug}`);
        assert.equal((await readStats(c.client)).tool_calls - before, 2, 'two rounds ran the handler from the top twice');
        assert.equal(c.seen.elicit.length, 1);
        assert.match(c.seen.elicit[0].params.message, new RegExp(slug));
        await noteIsGone(c.client, slug);

        // On the wire: round 1 input_required with confirm_delete; round 2 carries the answer and
        // the requestState echo, and completes.
        const sent = c.wire.sent.filter((m) => m.method === 'tools/call' && m.params?.name === 'delete_note');
        assert.equal(sent.length, 2, 'two tools/call requests');
        const [round1, round2] = toolResults(c, 'delete_note').map((m) => m.result);
        assert.equal(round1.resultType, 'input_required');
        assert.deepEqual(Object.keys(round1.inputRequests), ['confirm_delete']);
        assert.equal(round1.inputRequests.confirm_delete.method, 'elicitation/create');
        assert.equal(typeof round1.requestState, 'string');
        assert.equal(sent[1].params.requestState, round1.requestState, 'the retry echoes requestState byte for byte');
        assert.deepEqual(sent[1].params.inputResponses, { confirm_delete: { action: 'accept', content: { confirm: true } } });
        assert.equal(round2.resultType, 'complete');
        assert.notEqual(sent[0].id, sent[1].id, 'each round is a new request');
    });

    test('delete_note: decline keeps the note', TEST, async () => {
        const c = await open();
        const slug = freshSlug('kept');
        await callTool(c, 'add_note', { slug, body: '# kept' });
        c.on.elicit = () => ({ action: 'decline' });
        assert.equal(textOf(await callTool(c, 'delete_note', { slug })), `Kept ${slug}`);
        assert.equal(await readNote(c.client, slug), '# kept');
    });

    test('draft_note: ONE input_required carries both the form ("name") and sampling ("body")', TEST, async () => {
        const c = await open();
        const slug = freshSlug('drafted');
        const modelText = `# Cats\n\nWritten by the model for ${slug}.`;
        c.on.elicit = () => ({ action: 'accept', content: { slug } });
        c.on.sample = () => ({ role: 'assistant', content: { type: 'text', text: modelText }, model: 'e2e-model', stopReason: 'endTurn' });
        const before = (await readStats(c.client)).tool_calls;
        const result = await callTool(c, 'draft_note', { topic: 'cats' });
        assert.notEqual(result.isError, true, JSON.stringify(result));
        assert.deepEqual(result.content.map((b) => [b.type, b.uri]), [['resource_link', `demo://notes/${slug}`]]);
        assert.equal(await readNote(c.client, slug), modelText);
        assert.equal((await readStats(c.client)).tool_calls - before, 2, 'one input round: the handler ran twice');
        assert.equal(c.seen.elicit.length, 1);
        assert.equal(c.seen.sample.length, 1);

        const results = toolResults(c, 'draft_note').map((m) => m.result);
        const required = results.filter((r) => r.resultType === 'input_required');
        assert.equal(required.length, 1, `one input_required round: ${JSON.stringify(results)}`);
        assert.deepEqual(Object.keys(required[0].inputRequests).sort(), ['body', 'name']);
        assert.equal(required[0].inputRequests.name.method, 'elicitation/create');
        assert.equal(required[0].inputRequests.body.method, 'sampling/createMessage');
        assert.equal(required[0].inputRequests.body.params.maxTokens, 400);
        assert.equal(required[0].inputRequests.body.params.systemPrompt, 'You write concise notes.');
        const retry = c.wire.sent.filter((m) => m.method === 'tools/call' && m.params?.name === 'draft_note').at(-1);
        assert.deepEqual(Object.keys(retry.params.inputResponses).sort(), ['body', 'name']);
        assert.equal(results.at(-1).resultType, 'complete');
        if (c.kind === 'http') {
            // The raw HTTP body of round 1 holds both keys in one result.
            const [x] = c.recorder.find((m) => m.method === 'tools/call' && m.params?.name === 'draft_note' && !m.params.requestState);
            const raw = JSON.parse(x.body);
            assert.deepEqual(Object.keys(raw.result.inputRequests).sort(), ['body', 'name']);
        }
    });

    test('project_roots: asked every call on the stateless wire; two rounds each', TEST, async () => {
        const c = await open();
        c.on.roots = () => ({ roots: [{ uri: 'file:///work/project', name: 'project' }, { uri: 'file:///tmp/x' }] });
        const before = (await readStats(c.client)).tool_calls;
        assert.equal(textOf(await callTool(c, 'project_roots')), 'file:///work/project (project)\nfile:///tmp/x\n');
        assert.equal(c.seen.roots.length, 1);
        c.on.roots = () => ({ roots: [] });
        assert.equal(textOf(await callTool(c, 'project_roots')), 'The client shares no roots');
        assert.equal(c.seen.roots.length, 2, 'no session, no cache: asked again');
        assert.equal((await readStats(c.client)).tool_calls - before, 4, 'two calls of two rounds each');
        const required = toolResults(c, 'project_roots').map((m) => m.result).filter((r) => r.resultType === 'input_required');
        assert.equal(required.length, 2);
        for (const r of required) {
            assert.deepEqual(Object.values(r.inputRequests).map((q) => q.method), ['roots/list']);
        }
    });

    test('a handler answering with an error fails the call on the client; the note is kept', TEST, async () => {
        const c = await open();
        const slug = freshSlug('refused');
        await callTool(c, 'add_note', { slug, body: 'refused' });
        c.on.elicit = () => {
            throw new Error('the user closed the dialog');
        };
        await assert.rejects(callTool(c, 'delete_note', { slug }));
        assert.equal(await readNote(c.client, slug), 'refused');
    });
}

describe('SDK v2 client pinned to 2026-07-28 over Streamable HTTP', { timeout: 170_000 }, () => {
    let srv;
    const connections = [];
    before(async () => {
        srv = await HttpDemo.start();
    });
    after(async () => {
        await Promise.all(connections.map((c) => c.client.close().catch(() => {})));
        await srv?.close();
    });
    sdkScenarios(async () => {
        const c = await connectHttp(srv.url);
        connections.push(c);
        return c;
    });
});

describe('SDK v2 client pinned to 2026-07-28 over stdio', { timeout: 170_000 }, () => {
    const connections = [];
    after(async () => {
        await Promise.all(connections.map((c) => c.client.close().catch(() => {})));
    });
    sdkScenarios(async () => {
        const c = await connectStdio();
        connections.push(c);
        return c;
    });
});

// ---------------------------------------------------------------------------------------------
// Raw 2026-07-28 requests.

const ELICIT = { elicitation: {} };
const CONFIRM = { confirm_delete: { action: 'accept', content: { confirm: true } } };

// POSTs one 2026-07-28 request; returns {status, message} (JSON or SSE bodies alike).
async function rawCall(url, id, method, params, { caps = ELICIT, headers = {} } = {}) {
    const msg = modernRequest(id, method, params, { [META_CLIENT_CAPABILITIES]: caps });
    const res = await fetch(url, {
        method: 'POST',
        headers: { ...modernHeaders(msg), ...headers },
        body: JSON.stringify(msg),
        signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
    let message;
    if (type === 'text/event-stream') {
        message = sseMessages(parseSse(text, { complete: true })).find((m) => m.id === id && !('method' in m));
    } else if (text) {
        message = JSON.parse(text);
    }
    return { status: res.status, message, text };
}

// Round 1 of delete_note: the input_required result and its requestState.
async function firstRound(url, slug, headers = {}) {
    const r = await rawCall(url, `round1-${slug}`, 'tools/call', { name: 'delete_note', arguments: { slug } }, { headers });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.message?.result?.resultType, 'input_required', r.text);
    assert.deepEqual(Object.keys(r.message.result.inputRequests), ['confirm_delete']);
    assert.equal(typeof r.message.result.requestState, 'string');
    return r.message.result.requestState;
}

function retryDelete(url, id, slug, requestState, extra = {}) {
    return rawCall(url, id, 'tools/call', { name: 'delete_note', arguments: { slug }, inputResponses: CONFIRM, requestState, ...extra });
}

function assertInvalidParams(r, what) {
    assert.equal(r.message?.result, undefined, `${what}: no result, got ${r.text}`);
    assert.equal(r.message?.error?.code, -32602, `${what}: -32602, got status ${r.status} ${r.text}`);
    assert.equal(r.status, 400, `${what}: HTTP 400 for invalid params on 2026-07-28`);
}

function assertCompleted(r, text, what) {
    assert.equal(r.status, 200, `${what}: ${r.text}`);
    assert.equal(r.message?.result?.resultType, 'complete', `${what}: ${r.text}`);
    assert.equal(r.message.result.content?.[0]?.text, text, `${what}: ${r.text}`);
}

async function rawStats(url) {
    const r = await rawCall(url, 'stats', 'resources/read', { uri: 'demo://server/stats' }, { caps: {} });
    return JSON.parse(r.message.result.contents[0].text);
}

async function rawAddNote(url, slug) {
    const r = await rawCall(url, `add-${slug}`, 'tools/call', { name: 'add_note', arguments: { slug, body: `# ${slug}` } }, { caps: {} });
    assert.equal(r.message?.result?.isError, undefined, r.text);
}

const b64urlDecode = (s) => Buffer.from(s, 'base64url');
const b64urlEncode = (b) => Buffer.from(b).toString('base64url');

// The key id in a sealed token's header: version(1) | kid length(1) | kid | ...
function keyIdOf(token) {
    const raw = b64urlDecode(token);
    return raw.subarray(2, 2 + raw[1]).toString('latin1');
}

describe('requestState on the raw 2026-07-28 wire', { timeout: 170_000 }, () => {
    let srv;
    let dir;
    const extra = [];
    before(async () => {
        srv = await HttpDemo.start();
        dir = mkdtempSync(join(tmpdir(), 'mcp-cpp-e2e-keys-'));
    });
    after(async () => {
        await Promise.all([srv, ...extra].map((s) => s?.close()));
        if (dir) rmSync(dir, { recursive: true, force: true });
    });
    const start = async (args) => {
        const s = await HttpDemo.start(args);
        extra.push(s);
        return s;
    };
    const keyFile = (name, lines) => {
        const path = join(dir, name);
        writeFileSync(path, lines.map(([kid, key]) => `${kid}:${key.toString('base64')}\n`).join(''), { mode: 0o600 });
        return path;
    };

    test('control: the untouched requestState completes the call', TEST, async () => {
        const slug = freshSlug('control');
        await rawAddNote(srv.url, slug);
        const state = await firstRound(srv.url, slug);
        assertCompleted(await retryDelete(srv.url, 'ok', slug, state), `Deleted ${slug}`, 'untouched state');
    });

    test('every byte of the token altered (decoded bytes and base64url text): always -32602, never a result', { timeout: 120_000 }, async () => {
        const slug = freshSlug('tamper');
        await rawAddNote(srv.url, slug);
        const state = await firstRound(srv.url, slug);
        const raw = b64urlDecode(state);
        assert.equal(b64urlEncode(raw), state, 'the token is canonical unpadded base64url');
        assert.ok(raw.length > 30 && raw.length < 4096, `a token of ${raw.length} bytes`);
        const variants = [];
        const bound = Math.min(raw.length, 2048);
        for (let i = 0; i < bound; ++i) {
            for (const mask of [0x01, 0x80]) {
                const copy = Buffer.from(raw);
                copy[i] ^= mask;
                variants.push([`byte ${i} ^ 0x${mask.toString(16)}`, b64urlEncode(copy)]);
            }
        }
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        for (let i = 0; i < Math.min(state.length, 4096); ++i) {
            const next = alphabet[(alphabet.indexOf(state[i]) + 1) % 64];
            variants.push([`char ${i} ${state[i]}→${next}`, state.slice(0, i) + next + state.slice(i + 1)]);
        }
        variants.push(['truncated by one char', state.slice(0, -1)]);
        variants.push(['one char appended', `${state}A`]);
        variants.push(['padded', `${state}=`]);
        variants.push(['empty', '']);
        const failures = [];
        const statuses = new Map();
        for (let i = 0; i < variants.length; i += 8) {
            const batch = variants.slice(i, i + 8);
            const results = await Promise.all(batch.map(([, token], k) => retryDelete(srv.url, `t${i + k}`, slug, token)));
            results.forEach((r, k) => {
                statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
                if (r.message?.result !== undefined || r.message?.error?.code !== -32602) failures.push(`${batch[k][0]}: ${r.status} ${r.text.slice(0, 200)}`);
            });
        }
        console.log(`${variants.length} altered tokens; HTTP statuses ${JSON.stringify([...statuses])}`);
        assert.deepEqual(failures, [], 'every altered token is refused with -32602');
        // The note survived every attempt, and the original token still works.
        assertCompleted(await retryDelete(srv.url, 'after', slug, state), `Deleted ${slug}`, 'the original token');
    });

    test('a requestState that is not a string, or inputResponses that is not an object: -32602', TEST, async () => {
        const slug = freshSlug('shapes');
        await rawAddNote(srv.url, slug);
        assertInvalidParams(await retryDelete(srv.url, 's1', slug, 12345), 'numeric requestState');
        assertInvalidParams(await retryDelete(srv.url, 's2', slug, { token: 'x' }), 'object requestState');
        assertInvalidParams(await rawCall(srv.url, 's3', 'tools/call', { name: 'delete_note', arguments: { slug }, inputResponses: [] }), 'array inputResponses');
        assertInvalidParams(await rawCall(srv.url, 's4', 'tools/call', { name: 'delete_note', arguments: { slug }, inputResponses: 'yes' }), 'string inputResponses');
    });

    test('expired requestState (--request-state-ttl 200ms, retried after 400 ms): -32602', TEST, async () => {
        const short = await start(['--request-state-ttl', '200ms']);
        const stale = await firstRound(short.url, 'shopping');
        const fresh = await firstRound(short.url, 'welcome');
        // Control: retried at once, a state is fine.
        assertCompleted(await retryDelete(short.url, 'quick', 'welcome', fresh), 'Deleted welcome', 'an immediate retry');
        await sleep(400);
        assertInvalidParams(await retryDelete(short.url, 'late', 'shopping', stale), 'a state older than the TTL');
        assert.equal((await rawStats(short.url)).notes, 1, 'shopping is still there (welcome was deleted)');
    });

    test('the same state on another method (prompts/get with the same arguments): -32602', TEST, async () => {
        const slug = freshSlug('method');
        await rawAddNote(srv.url, slug);
        const state = await firstRound(srv.url, slug);
        // Control: the prompt itself is fine without the state.
        const plain = await rawCall(srv.url, 'p0', 'prompts/get', { name: 'review_note', arguments: { slug } });
        assert.ok(plain.message?.result?.messages, plain.text);
        const r = await rawCall(srv.url, 'p1', 'prompts/get', { name: 'review_note', arguments: { slug }, requestState: state, inputResponses: CONFIRM });
        assertInvalidParams(r, 'a tools/call state on prompts/get');
        assert.match(r.message.error.message, /requestState/);
        const read = await rawCall(srv.url, 'p2', 'resources/read', { uri: `demo://notes/${slug}`, requestState: state });
        assertInvalidParams(read, 'a tools/call state on resources/read');
    });

    test('the same state on another tool with the same arguments shape ({}): -32602', TEST, async () => {
        const caps = { elicitation: { form: {}, url: {} }, roots: {} };
        const round1 = await rawCall(srv.url, 'r1', 'tools/call', { name: 'project_roots', arguments: {} }, { caps });
        assert.equal(round1.message?.result?.resultType, 'input_required', round1.text);
        const state = round1.message.result.requestState;
        // Control: connect_account without the state is not an invalid-params error.
        const plain = await rawCall(srv.url, 'c0', 'tools/call', { name: 'connect_account', arguments: {} }, { caps });
        assert.ok(plain.message?.result, `connect_account without a state: ${plain.text}`);
        const r = await rawCall(srv.url, 'c1', 'tools/call', { name: 'connect_account', arguments: {}, requestState: state }, { caps });
        assertInvalidParams(r, 'a project_roots state on connect_account');
        // And it still works where it was issued.
        const done = await rawCall(srv.url, 'r2', 'tools/call',
            { name: 'project_roots', arguments: {}, requestState: state, inputResponses: { 'roots-1': { roots: [{ uri: 'file:///r' }] } } }, { caps });
        assertCompleted(done, 'file:///r\n', 'the state on its own tool');
    });

    test('the same state with other arguments (slug changed): -32602, the other note untouched', TEST, async () => {
        const a = freshSlug('args-a');
        const b = freshSlug('args-b');
        await rawAddNote(srv.url, a);
        await rawAddNote(srv.url, b);
        const state = await firstRound(srv.url, a);
        assertInvalidParams(await retryDelete(srv.url, 'x1', b, state), 'a state for slug a used for slug b');
        // Extra arguments are other arguments too.
        assertInvalidParams(await rawCall(srv.url, 'x2', 'tools/call',
            { name: 'delete_note', arguments: { slug: a, extra: 1 }, inputResponses: CONFIRM, requestState: state }), 'an added argument');
        const readB = await rawCall(srv.url, 'x3', 'resources/read', { uri: `demo://notes/${b}` }, { caps: {} });
        assert.equal(readB.message?.result?.contents?.[0]?.text, `# ${b}`, 'note b was not deleted');
        // Control: key order and _meta do not matter (canonical digest); the state still works for a.
        const reordered = await rawCall(srv.url, 'x4', 'tools/call',
            { requestState: state, inputResponses: CONFIRM, arguments: { slug: a }, name: 'delete_note' }, { caps: { elicitation: { form: {} } } });
        assertCompleted(reordered, `Deleted ${a}`, 'same params in another order');
    });

    test('first-round answers without requestState complete; unknown keys are ignored; malformed answers are -32602', TEST, async () => {
        const a = freshSlug('direct');
        await rawAddNote(srv.url, a);
        const before = (await rawStats(srv.url)).tool_calls;
        const direct = await rawCall(srv.url, 'd1', 'tools/call', { name: 'delete_note', arguments: { slug: a }, inputResponses: CONFIRM });
        assertCompleted(direct, `Deleted ${a}`, 'answers on the first request');
        assert.equal((await rawStats(srv.url)).tool_calls - before, 1, 'one run of the handler');

        const b = freshSlug('unknown-keys');
        await rawAddNote(srv.url, b);
        const extraKeys = await rawCall(srv.url, 'd2', 'tools/call', {
            name: 'delete_note',
            arguments: { slug: b },
            inputResponses: { confirm_delete: { action: 'decline' }, bogus: { action: 'accept', content: { confirm: true } }, 'sampling-1': 42 },
        });
        assertCompleted(extraKeys, `Kept ${b}`, 'unknown inputResponses keys');

        for (const [what, value] of [
            ['action maybe', { action: 'maybe' }],
            ['a string', 'yes'],
            ['no action', { content: { confirm: true } }],
            ['content not an object', { action: 'accept', content: 'true' }],
            ['null', null],
        ]) {
            const r = await rawCall(srv.url, `m-${what}`, 'tools/call', { name: 'delete_note', arguments: { slug: b }, inputResponses: { confirm_delete: value } });
            assertInvalidParams(r, `malformed answer (${what})`);
        }
        const readB = await rawCall(srv.url, 'd3', 'resources/read', { uri: `demo://notes/${b}` }, { caps: {} });
        assert.ok(readB.message?.result, `note ${b} is still there: ${readB.text}`);
    });

    test('a client without the capability: HTTP 400, -32021, data.requiredCapabilities', TEST, async () => {
        const r = await rawCall(srv.url, 'nocap', 'tools/call', { name: 'delete_note', arguments: { slug: 'welcome' } }, { caps: {} });
        assert.equal(r.status, 400, r.text);
        assert.equal(r.message?.error?.code, -32021, r.text);
        assert.deepEqual(r.message.error.data?.requiredCapabilities, { elicitation: {} });
        // draft_note needs both: with elicitation only, sampling is what is missing.
        const d = await rawCall(srv.url, 'nocap2', 'tools/call', { name: 'draft_note', arguments: { topic: 't' } }, { caps: { elicitation: {} } });
        assert.equal(d.status, 400, d.text);
        assert.equal(d.message?.error?.code, -32021, d.text);
        assert.deepEqual(d.message.error.data?.requiredCapabilities, { sampling: {} });
        // Nothing was deleted.
        const read = await rawCall(srv.url, 'w', 'resources/read', { uri: 'demo://notes/welcome' }, { caps: {} });
        assert.ok(read.message?.result, read.text);
    });

    test('a key the server lacks: a token sealed by another instance is -32602', TEST, async () => {
        const k1 = randomBytes(32);
        const k2 = randomBytes(32);
        const a = await start(['--secret-file', keyFile('a.keys', [['ka', k1]])]);
        const b = await start(['--secret-file', keyFile('b.keys', [['kb', k2]])]);
        const fromA = await firstRound(a.url, 'welcome');
        assert.equal(keyIdOf(fromA), 'ka');
        assertInvalidParams(await retryDelete(b.url, 'foreign', 'welcome', fromA), 'a token from another key ring');
        // A token of B's own key works on B.
        const fromB = await firstRound(b.url, 'welcome');
        assert.equal(keyIdOf(fromB), 'kb');
        assertCompleted(await retryDelete(b.url, 'own', 'welcome', fromB), 'Deleted welcome', 'B\'s own token');
        // The same key material under another key id is another key too.
        const c = await start(['--secret-file', keyFile('c.keys', [['kc', k1]])]);
        assertInvalidParams(await retryDelete(c.url, 'renamed', 'welcome', fromA), 'the key under another id');
    });

    test('rotation: sealed under k1, accepted after restart with k2 active and k1 still listed', TEST, async () => {
        const k1 = randomBytes(32);
        const k2 = randomBytes(32);
        const first = await start(['--secret-file', keyFile('r1.keys', [['k1', k1]])]);
        const state = await firstRound(first.url, 'welcome');
        assert.equal(keyIdOf(state), 'k1');
        await first.close();
        const second = await start(['--secret-file', keyFile('r2.keys', [['k2', k2], ['k1', k1]])]);
        assertCompleted(await retryDelete(second.url, 'rotated', 'welcome', state), 'Deleted welcome', 'a k1 token after rotation');
        // New tokens are sealed by the active key.
        assert.equal(keyIdOf(await firstRound(second.url, 'shopping')), 'k2');
        // Once k1 is dropped, its tokens are refused.
        await second.close();
        const third = await start(['--secret-file', keyFile('r3.keys', [['k2', k2]])]);
        assertInvalidParams(await retryDelete(third.url, 'retired', 'welcome', state), 'a token of a retired key');
    });
});

// ---------------------------------------------------------------------------------------------
// Another principal: mcp-cpp-probe authenticates "Bearer <name>" and has a tool that elicits
// (tests/support/probe_server.cpp: confirm).

function probeBinary() {
    const path = process.env.MCP_CPP_PROBE;
    assert.ok(path && existsSync(path), 'MCP_CPP_PROBE must name the mcp-cpp-probe binary (ctest sets it)');
    return path;
}

describe('requestState is bound to the principal (mcp-cpp-probe)', { timeout: 60_000 }, () => {
    let child;
    let url;
    let stderr = '';
    before(async () => {
        const port = await freePort();
        url = `http://127.0.0.1:${port}/mcp`;
        child = spawn(probeBinary(), ['--http', `127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
        child.stderr.setEncoding('utf8').on('data', (d) => {
            if (stderr.length < 64 * 1024) stderr += d;
        });
        await waitUntil(() => {
            if (child.exitCode !== null) throw new Error(`mcp-cpp-probe exited: ${stderr}`);
            return stderr.includes(`serving MCP on ${url}`);
        }, 10_000, 'mcp-cpp-probe to serve');
    });
    after(async () => {
        if (child && child.exitCode === null) {
            const exited = new Promise((resolve) => child.once('close', resolve));
            child.kill('SIGTERM');
            await Promise.race([exited, sleep(5000)]);
            if (child.exitCode === null) child.kill('SIGKILL');
        }
    });

    const call = (id, params, auth) => rawCall(url, id, 'tools/call', { name: 'confirm', ...params }, { headers: auth ? { authorization: auth } : {} });
    const answer = { confirm: { action: 'accept', content: { ok: true } } };

    test('alice\'s state: refused for bob and for an anonymous caller, accepted for alice', TEST, async () => {
        const round1 = await call('a1', { arguments: { what: 'transfer' } }, 'Bearer alice');
        assert.equal(round1.message?.result?.resultType, 'input_required', `the probe's confirm tool elicits: ${round1.text}`);
        const state = round1.message.result.requestState;
        const bob = await call('b1', { arguments: { what: 'transfer' }, inputResponses: answer, requestState: state }, 'Bearer bob');
        assertInvalidParams(bob, 'alice\'s state used by bob');
        const anonymous = await call('n1', { arguments: { what: 'transfer' }, inputResponses: answer, requestState: state });
        assertInvalidParams(anonymous, 'alice\'s state used anonymously');
        const alice = await call('a2', { arguments: { what: 'transfer' }, inputResponses: answer, requestState: state }, 'Bearer alice');
        assert.equal(alice.message?.result?.content?.[0]?.text, 'confirmed transfer for alice', alice.text);
        // An anonymous state is not good for alice either.
        const anon1 = await call('n2', { arguments: { what: 'x' } });
        const anonState = anon1.message.result.requestState;
        assertInvalidParams(await call('a3', { arguments: { what: 'x' }, inputResponses: answer, requestState: anonState }, 'Bearer alice'),
            'an anonymous state used by alice');
    });
});
