// End-to-end: CORS for browser clients (--cors-origins). A preflight from an allowed origin is
// answered with what MCP needs (methods, its request headers, not others); responses to that
// origin expose the headers a client reads; other origins stay refused by the Origin check; a
// server without --cors-origins sends no CORS headers at all.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/cors.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { HttpDemo } from './helpers.mjs';

const TEST = { timeout: 30_000 };
const APP = 'http://app.example.com';

const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'browser', version: '1' } },
});

function post(url, origin) {
    return fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin },
        body: initialize,
    });
}

function preflight(url, origin, headers) {
    return fetch(url, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
    });
}

describe('CORS with --cors-origins', () => {
    let demo;
    before(async () => {
        demo = await HttpDemo.start(['--cors-origins', APP]);
    });
    after(async () => {
        await demo?.close();
    });

    test('answers a preflight from an allowed origin with the MCP headers only', TEST, async () => {
        const response = await preflight(demo.url, APP, 'Content-Type, MCP-Protocol-Version, Mcp-Session-Id, Authorization, Mcp-Param-Region, X-Evil');
        assert.equal(response.status, 204);
        assert.equal(response.headers.get('access-control-allow-origin'), APP);
        assert.equal(response.headers.get('access-control-allow-methods'), 'GET, POST, DELETE');
        assert.equal(response.headers.get('access-control-allow-headers'),
            'Content-Type, MCP-Protocol-Version, Mcp-Session-Id, Authorization, Mcp-Param-Region');
        assert.equal(response.headers.get('vary'), 'Origin');
    });

    test('lets the allowed origin read responses and the session id', TEST, async () => {
        const response = await post(demo.url, APP);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('access-control-allow-origin'), APP);
        assert.match(response.headers.get('access-control-expose-headers'), /Mcp-Session-Id/);
        assert.match(response.headers.get('access-control-expose-headers'), /WWW-Authenticate/);
        assert.ok(response.headers.get('mcp-session-id'));
    });

    test('keeps refusing other origins, and gives them no CORS headers', TEST, async () => {
        const response = await post(demo.url, 'http://evil.example.com');
        assert.equal(response.status, 403);
        assert.equal(response.headers.get('access-control-allow-origin'), null);
        const pre = await preflight(demo.url, 'http://evil.example.com', 'content-type');
        assert.equal(pre.status, 403);
        assert.equal(pre.headers.get('access-control-allow-origin'), null);
    });
});

describe('CORS without --cors-origins', () => {
    let demo;
    before(async () => {
        demo = await HttpDemo.start();
    });
    after(async () => {
        await demo?.close();
    });

    test('sends no CORS headers and does not answer preflights', TEST, async () => {
        const pre = await preflight(demo.url, 'http://localhost:5173', 'content-type');
        assert.equal(pre.status, 405);
        assert.equal(pre.headers.get('access-control-allow-origin'), null);
        const response = await post(demo.url, 'http://localhost:5173');
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('access-control-allow-origin'), null);
        assert.equal(response.headers.get('vary'), null);
    });
});
