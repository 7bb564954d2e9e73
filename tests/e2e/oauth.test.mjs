// End-to-end: mcp-cpp-demo as an OAuth 2.1 resource server in front of a real authorization
// server (oidc-provider, authorization_server.mjs). The official SDK clients' own OAuth support
// (v1 auth() and v2's) start with no token, follow the 401 to the protected resource metadata,
// discover the authorization server, register, authorize with PKCE, call a tool, are refused a
// notes:write tool with 403 insufficient_scope, step up and succeed. Raw requests check the
// metadata, the challenges, hostile tokens, introspection, session binding, key rotation and an
// authorization server that is down.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/oauth.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { AuthorizationServer, INTROSPECTION_CLIENT } from './authorization_server.mjs';
import { sdkV1Flow, sdkV2Flow } from './oauth_flows.mjs';
import { RedisServer, startNodes } from './cluster.mjs';
import { freePort, HttpDemo, modernHeaders, modernRequest, RawServer, waitUntil } from './helpers.mjs';

const TEST = { timeout: 60_000 };

const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

function post(url, token, body = initialize, headers = {}) {
    return fetch(url, {
        method: 'POST',
        headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...headers,
        },
        body: JSON.stringify(body),
    });
}

// The WWW-Authenticate parameters of a response, as a map.
function challenge(response) {
    const header = response.headers.get('www-authenticate') ?? '';
    assert.match(header, /^Bearer /, `a Bearer challenge, got "${header}"`);
    return Object.fromEntries([...header.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
}

// A 2026-07-28 request (no session) with a bearer token.
function postModern(url, token, id, method, params = {}) {
    const message = modernRequest(id, method, params);
    return fetch(url, {
        method: 'POST',
        headers: { ...modernHeaders(message), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(message),
    });
}

// The names a 2026-07-28 list request returns to this token.
async function listed(url, token, method, key, field = 'name') {
    const response = await postModern(url, token, 1, method);
    assert.equal(response.status, 200, await response.clone().text());
    return (await response.json()).result[key].map((item) => item[field]).sort();
}

function callTool(id, name, args = {}) {
    return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

async function session(url, token) {
    const response = await post(url, token);
    assert.equal(response.status, 200, await response.text());
    const id = response.headers.get('mcp-session-id');
    await post(url, token, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id });
    return id;
}

describe('mcp-cpp-demo as an OAuth resource server', () => {
    let as;
    let demo;
    // Heads up to 48 KiB: room for a token over the verifier's 16 KiB limit. Everything the server
    // logs is logged (trace), so that "tokens never reach the log" is checked against all of it.
    const demoArgs = () => [
        '--auth-issuer', as.issuer, '--auth-scopes', 'notes:read', '--auth-resource-name', 'Notes',
        '--max-header-bytes', '48KiB', '--log-level', 'trace',
    ];

    before(async () => {
        as = await AuthorizationServer.start();
        demo = await HttpDemo.start(demoArgs());
    });
    after(async () => {
        await demo?.close();
        await as?.close();
    });

    test('serves its protected resource metadata at both well-known locations', TEST, async () => {
        for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
            const response = await fetch(`http://127.0.0.1:${demo.port}${path}`);
            assert.equal(response.status, 200, path);
            const metadata = await response.json();
            assert.equal(metadata.resource, demo.url);
            assert.deepEqual(metadata.authorization_servers, [as.issuer]);
            assert.deepEqual(metadata.scopes_supported, ['notes:read', 'notes:write']);
            assert.deepEqual(metadata.bearer_methods_supported, ['header']);
            assert.equal(metadata.resource_name, 'Notes');
        }
    });

    test('answers a request without a token 401 with a challenge naming the metadata and the scope', TEST, async () => {
        const response = await post(demo.url);
        assert.equal(response.status, 401);
        const params = challenge(response);
        assert.equal(params.resource_metadata, `http://127.0.0.1:${demo.port}/.well-known/oauth-protected-resource/mcp`);
        assert.equal(params.scope, 'notes:read');
        assert.equal(params.error, undefined, 'no error when no token was presented (RFC 6750 §3.1)');
    });

    test('refuses hostile tokens with 401 invalid_token', TEST, async () => {
        const now = Math.floor(Date.now() / 1000);
        const good = await as.forge({ aud: demo.url });
        const [h, p, s] = good.split('.');
        const flipped = `${h}.${p}.${s[0] === 'A' ? 'B' : 'A'}${s.slice(1)}`;
        const publicJwk = JSON.stringify({ ...as.signing.jwk, d: undefined });
        const { createHmac } = await import('node:crypto');
        const hsHeader = Buffer.from(JSON.stringify({ alg: 'HS256', kid: as.signing.jwk.kid })).toString('base64url');
        const hs = `${hsHeader}.${p}.${createHmac('sha256', publicJwk).update(`${hsHeader}.${p}`).digest('base64url')}`;
        const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${p}.`;
        const otherAs = await AuthorizationServer.start();
        const cases = {
            expired: await as.forge({ aud: demo.url, iat: now - 7200, exp: now - 3600 }),
            'not yet valid': await as.forge({ aud: demo.url, nbf: now + 3600 }),
            'wrong issuer': await as.forge({ aud: demo.url, iss: 'https://evil.example.com' }),
            'wrong audience': await as.forge({ aud: 'https://other.example.com/mcp' }),
            "another resource's token": await as.serviceToken(`http://127.0.0.1:${demo.port}/other`, 'notes:read'),
            'signed by another server': await otherAs.forge({ aud: demo.url, iss: as.issuer }, { kid: 'nowhere' }),
            'alg none': none,
            'HS256 with the public key': hs,
            'a flipped signature byte': flipped,
            oversized: `${h}.${'A'.repeat(17 * 1024)}.${s}`,
            malformed: 'not.a.jwt',
            'bad characters': 'abc def',
        };
        await otherAs.close();
        for (const [what, token] of Object.entries(cases)) {
            const response = await post(demo.url, token);
            assert.equal(response.status, 401, `${what}: ${await response.text()}`);
            const params = challenge(response);
            assert.equal(params.error, 'invalid_token', what);
            assert.ok(params.error_description, `${what}: an error_description`);
            assert.ok(!response.headers.get('www-authenticate').includes(token.slice(0, 40)), `${what}: the token is not echoed`);
        }
        assert.equal((await post(demo.url, good)).status, 200, 'the untampered token is accepted');
        assert.match(demo.stderr, /POST \/mcp/, 'the requests were logged');
        for (const token of [good, ...Object.values(cases)]) {
            const tail = token.slice(-24);
            assert.ok(tail.length < 8 || !demo.stderr.includes(tail), `no token reaches the log: ${tail}`);
        }
    });

    test('checks the scopes a tool declares, in both eras, and lists only what the token may use', TEST, async () => {
        const reader = await as.serviceToken(demo.url, 'notes:read');
        const id = await session(demo.url, reader);
        const headers = { 'mcp-session-id': id };
        const list = await (await post(demo.url, reader, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers)).json();
        const names = list.result.tools.map((t) => t.name);
        assert.ok(names.includes('word_stats') && !names.includes('add_note'), names.join(','));

        const ok = await post(demo.url, reader, callTool(3, 'word_stats', { text: 'a b' }), headers);
        assert.equal(ok.status, 200);
        const refused = await post(demo.url, reader, callTool(4, 'add_note', { slug: 's', body: 'b' }), headers);
        assert.equal(refused.status, 403, 'the 2025 POST carrying the call');
        const params = challenge(refused);
        assert.equal(params.error, 'insufficient_scope');
        assert.equal(params.scope, 'notes:read notes:write');
        assert.equal((await refused.json()).error.code, -32003);

        const modern = modernRequest(5, 'tools/call', { name: 'add_note', arguments: { slug: 's', body: 'b' } });
        const stateless = await fetch(demo.url, {
            method: 'POST',
            headers: { ...modernHeaders(modern), authorization: `Bearer ${reader}` },
            body: JSON.stringify(modern),
        });
        assert.equal(stateless.status, 403, 'the 2026 request');
        assert.equal(challenge(stateless).error, 'insufficient_scope');

        const writer = await as.serviceToken(demo.url, 'notes:read notes:write');
        const allowed = await post(demo.url, writer, callTool(6, 'add_note', { slug: 's', body: 'b' }), {
            'mcp-session-id': await session(demo.url, writer),
        });
        assert.equal(allowed.status, 200);
    });

    test('the demo declares notes:write on the tools that change notes and notes:read on the rest', TEST, async () => {
        const reader = await as.serviceToken(demo.url, 'notes:read');
        const both = await as.serviceToken(demo.url, 'notes:read notes:write');
        const everyTool = await listed(demo.url, both, 'tools/list', 'tools');
        const writers = ['add_note', 'delete_note', 'draft_note'];
        assert.deepEqual(await listed(demo.url, reader, 'tools/list', 'tools'), everyTool.filter((t) => !writers.includes(t)));
        assert.ok(writers.every((t) => everyTool.includes(t)), everyTool.join(','));
        for (const [method, key, field] of [['prompts/list', 'prompts', 'name'], ['resources/list', 'resources', 'uri'],
            ['resources/templates/list', 'resourceTemplates', 'uriTemplate']]) {
            const all = await listed(demo.url, both, method, key, field);
            assert.ok(all.length > 0, method);
            assert.deepEqual(await listed(demo.url, reader, method, key, field), all, `${method}: notes:read is enough`);
        }
    });

    test('refuses a token without the scopes every request needs with 403', TEST, async () => {
        const response = await post(demo.url, await as.serviceToken(demo.url, 'notes:write'));
        assert.equal(response.status, 403);
        assert.equal(challenge(response).error, 'insufficient_scope');
    });

    test("gives another principal's token 404 on a session", TEST, async () => {
        const alice = await as.forge({ aud: demo.url, sub: 'alice' });
        const bob = await as.forge({ aud: demo.url, sub: 'bob' });
        const id = await session(demo.url, alice);
        const hijack = await post(demo.url, bob, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id });
        assert.equal(hijack.status, 404);
        const own = await post(demo.url, alice, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-session-id': id });
        assert.equal(own.status, 200);
    });

    test('official SDK v1 client: 401, discovery, registration, PKCE, 403, step-up (2025-11-25)', TEST, () =>
        sdkV1Flow(demo.url));
    test('official SDK v2 client: the same flow on the 2026-07-28 wire', TEST, () => sdkV2Flow(demo.url));
});

describe('lists that show everything, and what subscriptions and completions need', () => {
    let as;
    let demo;
    before(async () => {
        as = await AuthorizationServer.start();
        demo = await HttpDemo.start(['--auth-issuer', as.issuer, '--auth-list-unauthorized', 'show',
            '--auth-resource-documentation', 'https://docs.example.com/notes']);
    });
    after(async () => {
        await demo?.close();
        await as?.close();
    });

    test('names its documentation in the metadata', TEST, async () => {
        const metadata = await (await fetch(`http://127.0.0.1:${demo.port}/.well-known/oauth-protected-resource/mcp`)).json();
        assert.equal(metadata.resource_documentation, 'https://docs.example.com/notes');
        assert.equal(metadata.resource_name, undefined, 'not configured, not served');
    });

    test('--auth-list-unauthorized show lists every tool, and each use still needs its scope', TEST, async () => {
        const nothing = await as.forge({ aud: demo.url, sub: 'carol', scope: '' });
        const tools = await listed(demo.url, nothing, 'tools/list', 'tools');
        assert.ok(tools.includes('add_note') && tools.includes('word_stats'), tools.join(','));
        const uses = [
            ['tools/call', { name: 'word_stats', arguments: {} }, 'notes:read'],
            ['tools/call', { name: 'add_note', arguments: {} }, 'notes:write'],
            ['prompts/get', { name: 'summarize', arguments: { text: 'x' } }, 'notes:read'],
            ['resources/read', { uri: 'demo://server/stats' }, 'notes:read'],
            ['resources/read', { uri: 'demo://notes/welcome' }, 'notes:read'],
        ];
        for (const [method, params, scope] of uses) {
            const refused = await postModern(demo.url, nothing, 2, method, params);
            const what = `${method} ${params.name ?? params.uri}`;
            assert.equal(refused.status, 403, what);
            assert.equal(challenge(refused).scope, scope, what);
        }
    });

    test('subscribing to a note and completing note names need notes:read', TEST, async () => {
        const nothing = await as.forge({ aud: demo.url, sub: 'dave', scope: '' });
        const id = await session(demo.url, nothing);
        const headers = { 'mcp-session-id': id };
        const subscribe = { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'demo://notes/welcome' } };
        const refused = await post(demo.url, nothing, subscribe, headers);
        assert.equal(refused.status, 403);
        assert.equal(challenge(refused).error, 'insufficient_scope');
        assert.equal(challenge(refused).scope, 'notes:read');
        const complete = {
            jsonrpc: '2.0', id: 3, method: 'completion/complete',
            params: { ref: { type: 'ref/resource', uri: 'demo://notes/{slug}' }, argument: { name: 'slug', value: '' } },
        };
        assert.equal((await post(demo.url, nothing, complete, headers)).status, 403);

        const reader = await as.forge({ aud: demo.url, sub: 'erin', scope: 'notes:read' });
        const own = { 'mcp-session-id': await session(demo.url, reader) };
        assert.equal((await post(demo.url, reader, subscribe, own)).status, 200);
        const values = (await (await post(demo.url, reader, complete, own)).json()).result.completion.values;
        assert.ok(values.includes('welcome'), values.join(','));
    });
});

describe('--rate-limit, per principal', () => {
    let as;
    let demo;
    before(async () => {
        as = await AuthorizationServer.start();
        // One request now, the next in 100 s: no test waits that long.
        demo = await HttpDemo.start(['--auth-issuer', as.issuer, '--rate-limit', '0.01/s']);
    });
    after(async () => {
        await demo?.close();
        await as?.close();
    });

    test('answers a principal over its rate 429 with Retry-After and a JSON-RPC error; others go on', TEST, async () => {
        const alice = await as.forge({ aud: demo.url, sub: 'alice' });
        const bob = await as.forge({ aud: demo.url, sub: 'bob' });
        const call = (token, id) => postModern(demo.url, token, id, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
        assert.equal((await call(alice, 1)).status, 200);
        const limited = await call(alice, 2);
        assert.equal(limited.status, 429);
        const retryAfter = Number(limited.headers.get('retry-after'));
        assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 100, `Retry-After ${retryAfter}`);
        const body = await limited.json();
        assert.equal(body.id, 2);
        assert.equal(body.error.code, -32029);
        assert.equal((await call(bob, 3)).status, 200, "another principal's budget is its own");
    });
});

describe('stdio: the principal comes from the environment', () => {
    const addNote = { name: 'add_note', arguments: { slug: 's', body: 'b' } };

    test('MCP_STDIO_SUBJECT and MCP_STDIO_SCOPES are checked like a token', TEST, async () => {
        const server = new RawServer([], { env: { MCP_STDIO_SUBJECT: 'alice', MCP_STDIO_SCOPES: 'notes:read' } });
        try {
            await server.initialize();
            const tools = (await server.request(1, 'tools/list')).result.tools.map((t) => t.name);
            assert.ok(tools.includes('word_stats') && !tools.includes('add_note'), tools.join(','));
            const refused = await server.request(2, 'tools/call', addNote);
            assert.equal(refused.error?.code, -32003, JSON.stringify(refused));
            assert.deepEqual(refused.error.data.requiredScopes, ['notes:write']);
            const stats = await server.request(3, 'tools/call', { name: 'word_stats', arguments: { text: 'a b' } });
            assert.equal(stats.result.structuredContent.words, 2);
        } finally {
            await server.close();
        }
    });

    test('without them a stdio server is anonymous and checks no scopes', TEST, async () => {
        const server = new RawServer([]);
        try {
            await server.initialize();
            const added = await server.request(1, 'tools/call', addNote);
            assert.ok(added.result && !added.result.isError, JSON.stringify(added));
        } finally {
            await server.close();
        }
    });
});

describe('two nodes with Redis', () => {
    const PUBLIC = 'http://mcp.example.test/mcp';  // the balancer's URL: one resource, every node
    let as;
    let redis;
    let cluster;
    before(async () => {
        as = await AuthorizationServer.start();
        redis = await RedisServer.start();
        cluster = await startNodes(2, { store: redis.url, args: ['--auth-issuer', as.issuer, '--public-url', PUBLIC] });
    });
    after(async () => {
        await cluster?.close();
        await redis?.close();
        await as?.close();
    });

    test("a session is its principal's on every node", TEST, async () => {
        const [a, b] = cluster.nodes;
        const alice = await as.forge({ aud: PUBLIC, sub: 'alice' });
        const bob = await as.forge({ aud: PUBLIC, sub: 'bob' });
        const id = await session(a.url, alice);
        const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
        assert.equal((await post(b.url, bob, list, { 'mcp-session-id': id })).status, 404, 'another token on node B');
        assert.equal((await post(b.url, alice, list, { 'mcp-session-id': id })).status, 200, 'the same token on node B');
    });
});

describe('a key rotation at the authorization server', () => {
    // Its own server: an unknown kid fetches the keys again at most every 10 s, and the hostile
    // tokens above use one.
    test('is followed: a token signed with the new key is accepted', TEST, async () => {
        const as = await AuthorizationServer.start();
        const demo = await HttpDemo.start(['--auth-issuer', as.issuer]);
        try {
            assert.equal((await post(demo.url, await as.serviceToken(demo.url, 'notes:read'))).status, 200);
            await as.rotate();
            const token = await as.serviceToken(demo.url, 'notes:read');
            assert.equal(JSON.parse(Buffer.from(token.split('.')[0], 'base64url')).kid, 'k2');
            assert.equal((await post(demo.url, token)).status, 200);
        } finally {
            await demo.close();
            await as.close();
        }
    });
});

describe('--auth-jwks-uri and --auth-leeway', () => {
    // An issuer no one can resolve: only skipping discovery lets its tokens through.
    const ISSUER = 'https://issuer.invalid';
    test('take the keys from the URI given, with the clock skew given', TEST, async () => {
        const as = await AuthorizationServer.start();
        const demo = await HttpDemo.start(['--auth-issuer', ISSUER, '--auth-jwks-uri', `${as.issuer}/jwks`, '--auth-leeway', '5m']);
        try {
            const now = Math.floor(Date.now() / 1000);
            const late = await as.forge({ aud: demo.url, iss: ISSUER, iat: now - 600, exp: now - 120 });
            assert.equal((await post(demo.url, late)).status, 200, 'expired 2 minutes ago, within 5 minutes of leeway');
            const older = await as.forge({ aud: demo.url, iss: ISSUER, iat: now - 900, exp: now - 600 });
            assert.equal((await post(demo.url, older)).status, 401, 'expired 10 minutes ago');
            assert.equal((await post(demo.url, await as.forge({ aud: demo.url }))).status, 401, "the AS's own issuer is not this one");
        } finally {
            await demo.close();
            await as.close();
        }
    });
});

describe('opaque tokens, by introspection', () => {
    let as;
    let demo;
    before(async () => {
        const port = await freePort();
        as = await AuthorizationServer.start({ opaqueResources: [`http://127.0.0.1:${port}/mcp`] });
        const dir = mkdtempSync(join(tmpdir(), 'mcp-oauth-'));
        const credentials = join(dir, 'client');
        writeFileSync(credentials, `${INTROSPECTION_CLIENT.id}:${INTROSPECTION_CLIENT.secret}\n`);
        demo = await HttpDemo.start(['--auth-issuer', as.issuer, '--auth-client-credentials-file', credentials], {
            port,
        });
    });
    after(async () => {
        await demo?.close();
        await as?.close();
    });

    test('accepts an active token and refuses an unknown one', TEST, async () => {
        const token = await as.serviceToken(demo.url, 'notes:read');
        assert.equal(token.split('.').length, 1, 'an opaque token');
        assert.equal((await post(demo.url, token)).status, 200);
        const unknown = await post(demo.url, 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
        assert.equal(unknown.status, 401);
        assert.equal(challenge(unknown).error, 'invalid_token');
    });

    test('--auth-introspection-url, without an issuer to discover', TEST, async () => {
        const credentials = join(mkdtempSync(join(tmpdir(), 'mcp-oauth-')), 'client');
        writeFileSync(credentials, `${INTROSPECTION_CLIENT.id}:${INTROSPECTION_CLIENT.secret}\n`);
        const port = await freePort();
        as.opaqueResources.add(`http://127.0.0.1:${port}/mcp`);
        const direct = await HttpDemo.start(['--auth-introspection-url', `${as.issuer}/token/introspection`,
            '--auth-client-credentials-file', credentials], { port });
        try {
            const token = await as.serviceToken(direct.url, 'notes:read');
            assert.equal(token.split('.').length, 1, 'an opaque token');
            assert.equal((await post(direct.url, token)).status, 200);
            assert.equal((await post(direct.url, 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status, 401);
        } finally {
            await direct.close();
        }
    });
});

describe('an authorization server that is down', () => {
    test('gives 503 with Retry-After, then recovers once it is back', TEST, async () => {
        const port = await freePort();
        const demo = await HttpDemo.start(['--auth-issuer', `http://127.0.0.1:${port}`]);
        let as;
        try {
            const down = await post(demo.url, 'e30.e30.e30');
            assert.equal(down.status, 503);
            assert.ok(down.headers.get('retry-after'));
            for (let i = 0; i < 10; i++) assert.equal((await post(demo.url, 'e30.e30.e30')).status, 503);
            // A warning per attempt to reach it (at most one a second), not one per request.
            assert.ok(!demo.stderr.includes('bearer token not checked'), demo.stderr);
            const attempts = demo.stderr.match(/token verification:/g)?.length ?? 0;
            assert.ok(attempts >= 1 && attempts < 11, `${attempts} warnings for 11 requests:\n${demo.stderr}`);
            as = await AuthorizationServer.start({ port });
            const token = await as.forge({ aud: demo.url });
            await waitUntil(async () => (await post(demo.url, token)).status === 200, 15_000, 'the server to recover');
        } finally {
            await demo.close();
            await as?.close();
        }
    });
});

describe('a hostile authorization server', () => {
    // Serves the metadata of `issuer` and whatever `jwks` answers for the keys.
    async function fakeIssuer(jwks, { metadataIssuer } = {}) {
        const port = await freePort();
        const issuer = `http://127.0.0.1:${port}`;
        const server = createServer((req, res) => {
            if (req.url === '/.well-known/oauth-authorization-server') {
                res.setHeader('content-type', 'application/json');
                res.end(JSON.stringify({ issuer: metadataIssuer ?? issuer, jwks_uri: `${issuer}/jwks` }));
            } else if (req.url === '/jwks') {
                jwks(res);
            } else {
                res.statusCode = 404;
                res.end();
            }
        });
        await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
        return { issuer, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
    }

    const cases = {
        'metadata for another issuer': [(res) => res.end('{"keys":[]}'), { metadataIssuer: 'https://evil.example.com' }],
        'keys that are not JSON': [(res) => res.end('<html>')],
        'keys larger than 1 MiB': [(res) => res.end(JSON.stringify({ keys: [], pad: 'x'.repeat(2 * 1024 * 1024) }))],
        'keys that never come': [() => {}],
        'an error status': [(res) => { res.statusCode = 500; res.end(); }],
    };
    for (const [what, [jwks, options]] of Object.entries(cases)) {
        test(`is answered 503, not 401, without holding up the I/O thread: ${what}`, TEST, async () => {
            const fake = await fakeIssuer(jwks, options);
            const demo = await HttpDemo.start(['--auth-issuer', fake.issuer]);
            try {
                let settled = false;
                const pending = post(demo.url, 'e30.e30.e30').finally(() => {
                    settled = true;
                });
                // While the check waits for the authorization server, the I/O thread serves others.
                const metadata = await fetch(`http://127.0.0.1:${demo.port}/.well-known/oauth-protected-resource`);
                assert.equal(metadata.status, 200);
                if (what === 'keys that never come') assert.equal(settled, false, 'the check was still waiting');
                const response = await pending;
                assert.equal(response.status, 503, await response.text());
                assert.equal(demo.exitInfo, undefined);
            } finally {
                await demo.close();
                await fake.close();
            }
        });
    }
});

