// End-to-end: mcp::Client authorizing itself. mcp-cpp-demo is the resource server (--auth-issuer),
// tests/e2e/authorization_server.mjs (oidc-provider) the authorization server, and
// mcp-cpp-oauth-e2e (oauth_client.cpp) the client: authorization code + PKCE after dynamic
// registration, a step-up to a tool's scope, client credentials, an expired token renewed with its
// refresh token without the application seeing an error, 64 threads meeting one expired token (one
// refresh), and a ClientGroup whose other server never sees the token. Then mcp-cpp-client --oauth:
// the URL it prints is followed as a browser would, to its own listener on 127.0.0.1.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo MCP_CPP_OAUTH_CLIENT=build/tests/e2e/mcp-cpp-oauth-e2e \
//     node --test tests/e2e/cpp_oauth.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';

import { AuthorizationServer, SERVICE_CLIENT } from './authorization_server.mjs';
import { HttpDemo } from './helpers.mjs';

const TEST = { timeout: 60_000 };

function clientBinary() {
    const path = process.env.MCP_CPP_OAUTH_CLIENT;
    assert.ok(path, 'MCP_CPP_OAUTH_CLIENT must name the mcp-cpp-oauth-e2e binary (ctest sets it)');
    assert.ok(existsSync(path), `MCP_CPP_OAUTH_CLIENT=${path} does not exist: build the mcp-cpp-oauth-e2e target`);
    return path;
}

// Runs the client in one mode; resolves with the JSON line it printed (and its stderr).
function run(args, timeoutMs = 50_000) {
    return new Promise((resolve, reject) => {
        const child = spawn(clientBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        const timer = setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`mcp-cpp-oauth-e2e ${args.join(' ')} did not end in ${timeoutMs} ms; stderr: ${stderr}`));
        }, timeoutMs);
        child.on('error', reject);
        child.on('close', (status) => {
            clearTimeout(timer);
            if (status !== 0) return reject(new Error(`mcp-cpp-oauth-e2e ${args.join(' ')} exited ${status}: ${stderr}`));
            resolve({ ...JSON.parse(stdout.trim().split('\n').pop()), stderr });
        });
    });
}

// The browser: follows the authorization URL through the interaction (cookies kept) and then the
// redirect to the client's loopback listener; resolves with the listener's answer.
async function browse(url) {
    const cookies = new Map();
    let next = new URL(url);
    for (let hop = 0; hop < 20; hop++) {
        const response = await fetch(next, {
            redirect: 'manual',
            headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const line of response.headers.getSetCookie()) {
            const [pair] = line.split(';');
            const at = pair.indexOf('=');
            cookies.set(pair.slice(0, at), pair.slice(at + 1));
        }
        if (next.hostname === '127.0.0.1' && next.pathname === '/callback') return response;
        const location = response.headers.get('location');
        if (!location) throw new Error(`the authorization stopped at ${next} with ${response.status}`);
        next = new URL(location, next);
    }
    throw new Error('too many redirects');
}

// A minimal 2025-11-25 MCP server with no authorization, recording the Authorization headers it
// is sent.
async function recordingServer() {
    const seen = [];
    const server = createServer((req, res) => {
        seen.push(req.headers.authorization ?? null);
        if (req.method !== 'POST') {
            res.writeHead(405).end();
            return;
        }
        let body = '';
        req.on('data', (d) => (body += d));
        req.on('end', () => {
            const message = JSON.parse(body);
            if (message.id === undefined) return res.writeHead(202).end();
            const answer = (result) => {
                res.writeHead(200, { 'content-type': 'application/json' });
                res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...result }));
            };
            if (message.method === 'initialize') {
                return answer({ result: { protocolVersion: '2025-11-25', capabilities: { tools: {} },
                    serverInfo: { name: 'recorder', version: '1.0.0' } } });
            }
            if (message.method === 'tools/list') {
                return answer({ result: { tools: [{ name: 'recorded', inputSchema: { type: 'object' } }] } });
            }
            return answer({ error: { code: -32601, message: 'Method not found' } });
        });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${server.address().port}/mcp`, seen, close: () => server.close() };
}

describe('mcp::Client authorizes itself against mcp-cpp-demo and an OAuth 2.1 authorization server', () => {
    let as;
    let demo;
    let shortLived;
    let expiring;
    before(async () => {
        as = await AuthorizationServer.start();
        // Every request needs notes:read (the 401's scope); add_note needs notes:write as well.
        demo = await HttpDemo.start(['--auth-issuer', as.issuer, '--auth-scopes', 'notes:read', '--auth-leeway', '0s']);
        shortLived = await AuthorizationServer.start({ accessTokenTtl: 2 });
        expiring = await HttpDemo.start(['--auth-issuer', shortLived.issuer, '--auth-scopes', 'notes:read',
            '--auth-leeway', '0s']);
    });
    after(async () => {
        await demo?.close();
        await expiring?.close();
        await as?.close();
        await shortLived?.close();
    });

    test('authorization code with PKCE after dynamic registration, the challenge\'s scope asked for', TEST, async () => {
        const r = await run(['code', demo.url]);
        assert.equal(r.echo, 'hello');
        assert.deepEqual(r.issued, { authorization_code: 1 });
        assert.ok(r.scopes[0].split(' ').includes('notes:read'), r.scopes[0]);
        assert.doesNotMatch(r.stderr, /Bearer |access_token|refresh_token/, 'no token in the client\'s log');
    });

    test('a tool that needs more scope: 403 insufficient_scope, a step-up with the union, the call succeeds', TEST, async () => {
        const r = await run(['step-up', demo.url]);
        assert.equal(r.echo, 'hello');
        assert.equal(r.add_note_error, false);
        assert.deepEqual(r.issued, { authorization_code: 2 });
        const second = r.scopes[1].split(' ');
        assert.ok(second.includes('notes:read') && second.includes('notes:write'), r.scopes[1]);
    });

    test('client credentials with a pre-registered secret', TEST, async () => {
        const r = await run(['client-credentials', demo.url, SERVICE_CLIENT.id, SERVICE_CLIENT.secret]);
        assert.equal(r.echo, 'hello');
        assert.deepEqual(r.issued, { client_credentials: 1 });
    });

    test('an expired token is refreshed unseen, and 64 threads meeting an expired one cost one refresh', TEST, async () => {
        const r = await run(['expiry', expiring.url, '3']);
        assert.equal(r.first, 'first');
        assert.equal(r.after_expiry, 'after expiry');
        assert.equal(r.concurrent_ok, 64);
        assert.equal(r.concurrent_failed, 0);
        // One authorization, then one refresh per expiry: the single call's, and the 64 threads'.
        assert.deepEqual(r.issued, { authorization_code: 1, refresh_token: 2 });
    });

    test('mcp-cpp-client --oauth prints the URL and takes the browser\'s redirect on 127.0.0.1', TEST, async () => {
        const binary = process.env.MCP_CPP_CLIENT;
        assert.ok(binary && existsSync(binary), 'MCP_CPP_CLIENT must name the mcp-cpp-client binary (ctest sets it)');
        const child = spawn(binary, ['--url', demo.url, '--oauth', 'tools/call', 'echo', 'text=through the browser'],
            { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        const printed = new Promise((resolve) => {
            child.stderr.on('data', (d) => {
                stderr += d;
                const m = stderr.match(/open:\n\s+(\S+)\n/);
                if (m) resolve(m[1]);
            });
        });
        const exited = new Promise((resolve) => child.on('close', resolve));
        const url = await printed;
        assert.equal(new URL(url).searchParams.get('code_challenge_method'), 'S256');
        const landing = await browse(url);
        assert.equal(landing.status, 200);
        assert.match(await landing.text(), /authorized/);
        assert.equal(await exited, 0, stderr);
        assert.equal(stdout, 'through the browser\n');
    });

    test('in a ClientGroup, a server\'s token never reaches another server', TEST, async () => {
        const other = await recordingServer();
        try {
            const r = await run(['group', demo.url, other.url]);
            assert.equal(r.echo, 'through the group');
            assert.ok(r.tools.includes('recorded') && r.tools.includes('echo'), r.tools.join(','));
            assert.equal(r.issued.authorization_code, 1);
            assert.ok(other.seen.length > 0, 'the other server was reached');
            assert.deepEqual(other.seen.filter((a) => a !== null), [], 'an Authorization header reached the other server');
        } finally {
            other.close();
        }
    });
});
