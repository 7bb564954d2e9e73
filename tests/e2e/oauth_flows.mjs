// The official SDK clients' own OAuth support against mcp-cpp-demo: start with no token, follow
// the 401 to the protected resource metadata, discover the authorization server, register,
// authorize with PKCE (TestOAuthClient plays the browser), call a notes:read tool, be refused the
// notes:write tool with 403 insufficient_scope, step up, and succeed. `fetch` lets HTTPS tests
// trust their own CA.
import assert from 'node:assert/strict';

import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError as UnauthorizedV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import {
    Client as ClientV2,
    StreamableHTTPClientTransport as TransportV2,
    UnauthorizedError as UnauthorizedV2,
} from '@modelcontextprotocol/client';

import { TestOAuthClient } from './authorization_server.mjs';

// SDK v1 (@modelcontextprotocol/sdk 1.32.2), 2025-11-25 with a session.
export async function sdkV1Flow(url, { fetch } = {}) {
    const oauth = new TestOAuthClient();
    const client = new ClientV1({ name: 'e2e-v1', version: '1.0.0' });
    const connect = () => new TransportV1(new URL(url), { authProvider: oauth, ...(fetch ? { fetch } : {}) });
    await assert.rejects(client.connect(connect()), UnauthorizedV1);
    assert.equal(oauth.requestedScopes, 'notes:read', 'the scope of the 401 challenge');
    const transport = connect();
    await transport.finishAuth(oauth.codes.at(-1).code);
    await client.connect(transport);
    const stats = await client.callTool({ name: 'word_stats', arguments: { text: 'one two two' } });
    assert.equal(stats.structuredContent.words, 3);
    await assert.rejects(client.callTool({ name: 'add_note', arguments: { slug: 'v1', body: 'x' } }), UnauthorizedV1);
    assert.equal(oauth.requestedScopes, 'notes:read notes:write', 'the scope of the 403 challenge');
    await transport.finishAuth(oauth.codes.at(-1).code);
    const added = await client.callTool({ name: 'add_note', arguments: { slug: 'v1', body: 'x' } });
    assert.equal(added.isError, undefined);
    await client.close();
}

// SDK v2 (@modelcontextprotocol/client 2.4.0), which speaks 2026-07-28 to this server.
export async function sdkV2Flow(url, { fetch } = {}) {
    const oauth = new TestOAuthClient();
    const client = new ClientV2({ name: 'e2e-v2', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
    const connect = () => new TransportV2(new URL(url), { authProvider: oauth, ...(fetch ? { fetch } : {}) });
    await assert.rejects(client.connect(connect()), UnauthorizedV2);
    const transport = connect();
    await transport.finishAuth(oauth.codes.at(-1).code, oauth.codes.at(-1).iss);
    await client.connect(transport);
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const stats = await client.callTool({ name: 'word_stats', arguments: { text: 'one two' } });
    assert.equal(stats.structuredContent.words, 2);
    await assert.rejects(client.callTool({ name: 'add_note', arguments: { slug: 'v2', body: 'x' } }), UnauthorizedV2);
    assert.match(oauth.requestedScopes, /notes:write/);
    await transport.finishAuth(oauth.codes.at(-1).code, oauth.codes.at(-1).iss);
    const added = await client.callTool({ name: 'add_note', arguments: { slug: 'v2', body: 'x' } });
    assert.equal(added.isError, undefined);
    await client.close();
}
