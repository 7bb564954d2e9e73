// Request context across the HTTP hop: the authenticator's principal and thread-locals, the
// trace context and the log fields reach the handler of their own request and no other, even when
// requests interleave on one I/O thread.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { freePort, SCALE, waitUntil } from './helpers.mjs';

const ACCEPT = 'application/json, text/event-stream';
let server;

function probeBinary() {
    const path = process.env.MCP_CPP_PROBE;
    assert.ok(path && existsSync(path), 'MCP_CPP_PROBE must name the mcp-cpp-probe binary (ctest sets it)');
    return path;
}

before(async () => {
    const port = await freePort();
    // One I/O thread: interleaved requests share it, which is what the context must survive.
    const child = spawn(probeBinary(), ['--http', `127.0.0.1:${port}`, '--io-threads', '1', '--log-level', 'warn'], {
        stdio: ['ignore', 'ignore', 'pipe'],
    });
    server = { child, url: `http://127.0.0.1:${port}/mcp` };
    await waitUntil(async () => (await fetch(server.url).catch(() => null)) !== null, 5000 * SCALE, 'the probe to listen');
});

after(() => server?.child.kill('SIGKILL'));

const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'context-test', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
};

async function whoami({ delay = 0, headers = {}, id = 1 } = {}) {
    const res = await fetch(server.url, {
        method: 'POST',
        headers: {
            'content-type': 'application/json',
            accept: ACCEPT,
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'whoami',
            ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'whoami', arguments: { delay_ms: delay }, _meta: meta } }),
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    return body.result.structuredContent;
}

describe('request context', () => {
    test('two interleaved requests each see only their own values', async () => {
        const alice = {
            authorization: 'Bearer alice',
            'x-tenant': 'acme',
            traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
            tracestate: 'vendor=a',
        };
        const bob = {
            authorization: 'Bearer bob',
            'x-tenant': 'globex',
            traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
            tracestate: 'vendor=b',
        };
        // Alice's handler sleeps, so Bob's request arrives, runs and returns while hers is in flight.
        const [a, b] = await Promise.all([whoami({ delay: 400, headers: alice, id: 'a' }), whoami({ delay: 0, headers: bob, id: 'b' })]);
        assert.deepEqual(
            { subject: a.subject, tenant: a.tenant, traceparent: a.traceparent, tracestate: a.tracestate },
            { subject: 'alice', tenant: 'acme', traceparent: alice.traceparent, tracestate: 'vendor=a' },
        );
        assert.deepEqual(
            { subject: b.subject, tenant: b.tenant, traceparent: b.traceparent, tracestate: b.tracestate },
            { subject: 'bob', tenant: 'globex', traceparent: bob.traceparent, tracestate: 'vendor=b' },
        );
        assert.equal(a.fields['mcp.request.id'], '"a"');
        assert.equal(a.fields['mcp.method'], 'tools/call');
        assert.equal(a.fields['mcp.client'], 'context-test');
        assert.equal(b.fields['mcp.request.id'], '"b"');
    });

    test('nothing lingers for the next request on the same thread', async () => {
        await whoami({ headers: { authorization: 'Bearer carol', 'x-tenant': 'initech', traceparent: '00-11111111111111111111111111111111-2222222222222222-01' } });
        const next = await whoami();
        assert.deepEqual({ subject: next.subject, tenant: next.tenant, traceparent: next.traceparent }, { subject: '', tenant: '', traceparent: '' });
    });

    test('a refused token gets 401 with a challenge', async () => {
        const res = await fetch(server.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: 'Bearer bad' },
            body: '{}',
        });
        assert.equal(res.status, 401);
        assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="probe"');
    });

    test('a 2025 session belongs to the principal that created it', async () => {
        const post = (headers, body) =>
            fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body: JSON.stringify(body) });
        const init = await post({ authorization: 'Bearer alice' }, {
            jsonrpc: '2.0', id: 1, method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        });
        const sid = init.headers.get('mcp-session-id');
        assert.ok(sid);
        const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } };
        const own = await post({ authorization: 'Bearer alice', 'mcp-session-id': sid }, call);
        assert.equal(own.status, 200);
        assert.equal((await own.json()).result.structuredContent.subject, 'alice');
        const stolen = await post({ authorization: 'Bearer mallory', 'mcp-session-id': sid }, call);
        assert.equal(stolen.status, 404);
        const anonymous = await post({ 'mcp-session-id': sid }, call);
        assert.equal(anonymous.status, 404);
    });
});
