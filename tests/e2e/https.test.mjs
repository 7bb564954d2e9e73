// End-to-end: mcp-cpp-demo serving HTTPS itself (--tls-cert/--tls-key): the official SDK clients
// over it, TLS versions below 1.2 refused, a certificate reloaded on SIGHUP while an open
// connection keeps its own, client certificates (--tls-client-ca), the OAuth flows of both SDKs
// against an HTTPS resource, and an authorization server on HTTPS trusted through --auth-ca-file.
// Certificates come from the openssl command, made per run.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/https.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';

import { Agent } from 'undici';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';

import { AuthorizationServer } from './authorization_server.mjs';
import { certificateMaker } from './certificates.mjs';
import { HttpDemo, modernHeaders, modernRequest, waitUntil } from './helpers.mjs';
import { sdkV1Flow, sdkV2Flow } from './oauth_flows.mjs';

const TEST = { timeout: 60_000 };
const dir = mkdtempSync(join(tmpdir(), 'mcp-https-'));
const file = (name) => join(dir, name);

const { makeCa, makeCert } = certificateMaker(dir);

const ca = makeCa('test-ca');
const caPem = readFileSync(file(`${ca}.pem`));
const trusting = new Agent({ connect: { ca: caPem } });
const fetchTrusting = (url, init) => fetch(url, { ...init, dispatcher: trusting });

function tlsArgs(cert) {
    return ['--tls-cert', cert.cert, '--tls-key', cert.key];
}

// The server certificate's serial on a new connection, and the connection.
function handshake(port, options = {}) {
    return new Promise((resolve, reject) => {
        const socket = tlsConnect({ host: '127.0.0.1', port, ca: caPem, ...options }, () =>
            resolve({ socket, serial: socket.getPeerCertificate().serialNumber }),
        );
        // With TLS 1.3 the server may refuse after the client's handshake is done: keep the reason.
        socket.on('error', (e) => {
            socket.failure = e;
            reject(e);
        });
    });
}

// One HTTP/1.1 request on an open TLS connection; resolves with the status line, rejects with
// the reason the connection ended.
function requestOn(socket, port) {
    return new Promise((resolve, reject) => {
        socket.once('data', (chunk) => resolve(chunk.toString('latin1').split('\r\n')[0]));
        socket.once('close', () => reject(socket.failure ?? new Error('closed without an answer')));
        socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
    });
}

describe('HTTPS served by mcp-cpp-demo', () => {
    const server = makeCert(ca, 'server', 'serverAuth');
    let demo;
    before(async () => {
        demo = await HttpDemo.start(tlsArgs(server), { scheme: 'https' });
    });
    after(async () => {
        await demo?.close();
    });

    test('serves the SDK v1 client (2025-11-25) and the v2 client (2026-07-28)', TEST, async () => {
        const v1 = new ClientV1({ name: 'https-v1', version: '1' });
        await v1.connect(new TransportV1(new URL(demo.url), { fetch: fetchTrusting }));
        assert.deepEqual((await v1.callTool({ name: 'echo', arguments: { text: 'tls' } })).content, [
            { type: 'text', text: 'tls' },
        ]);
        await v1.close();
        const v2 = new ClientV2({ name: 'https-v2', version: '1' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
        await v2.connect(new TransportV2(new URL(demo.url), { fetch: fetchTrusting }));
        assert.equal(v2.getNegotiatedProtocolVersion(), '2026-07-28');
        assert.equal((await v2.callTool({ name: 'echo', arguments: { text: 'tls' } })).content[0].text, 'tls');
        await v2.close();
    });

    test('refuses TLS 1.1 and accepts 1.2 and 1.3', TEST, async () => {
        // The client allows 1.1 (security level 0): a failed handshake is the server's refusal.
        const old = spawnSync('openssl', ['s_client', '-connect', `127.0.0.1:${demo.port}`, '-tls1_1', '-cipher',
            'DEFAULT@SECLEVEL=0'], { input: '', encoding: 'utf8', timeout: 10_000 });
        assert.notEqual(old.status, 0, 'a TLS 1.1 handshake must fail');
        assert.match(old.stdout + old.stderr, /protocol version|unsupported protocol|wrong version/i);
        for (const version of ['TLSv1.2', 'TLSv1.3']) {
            const { socket } = await handshake(demo.port, { minVersion: version, maxVersion: version });
            assert.equal(socket.getProtocol(), version);
            socket.destroy();
        }
    });

    test('reloads its certificate on SIGHUP; an open connection keeps the old one', TEST, async () => {
        const before = await handshake(demo.port);
        const replacement = makeCert(ca, 'server-next', 'serverAuth');
        writeFileSync(server.cert, readFileSync(replacement.cert));
        writeFileSync(server.key, readFileSync(replacement.key));
        demo.signal('SIGHUP');
        let after;
        for (let i = 0; i < 100; i++) {
            after = await handshake(demo.port);
            if (after.serial !== before.serial) break;
            after.socket.destroy();
            await new Promise((r) => setTimeout(r, 50));
        }
        assert.notEqual(after.serial, before.serial, 'a new connection sees the new certificate');
        assert.match(await requestOn(before.socket, demo.port), /^HTTP\/1\.1 [45]\d\d/, 'the old connection still serves');
        before.socket.destroy();
        after.socket.destroy();
        assert.equal(demo.exitInfo, undefined, 'SIGHUP did not end the server');
    });

    test('keeps serving when a reload finds a broken certificate', TEST, async () => {
        const { serial } = await handshake(demo.port);
        writeFileSync(server.cert, 'not a certificate');
        demo.signal('SIGHUP');
        await new Promise((r) => setTimeout(r, 300));
        const again = await handshake(demo.port);
        assert.equal(again.serial, serial);
        again.socket.destroy();
        assert.match(demo.stderr, /TLS reload failed/);
    });
});

describe('client certificates (--tls-client-ca)', () => {
    const server = makeCert(ca, 'mtls-server', 'serverAuth');
    const clientCa = makeCa('client-ca');
    const client = makeCert(clientCa, 'client', 'clientAuth');
    let demo;
    before(async () => {
        demo = await HttpDemo.start([...tlsArgs(server), '--tls-client-ca', file(`${clientCa}.pem`)], { scheme: 'https' });
    });
    after(async () => {
        await demo?.close();
    });

    test('refuses a client without a certificate and serves one with', TEST, async () => {
        const without = await handshake(demo.port)
            .then(({ socket }) => requestOn(socket, demo.port).finally(() => socket.destroy()))
            .catch((e) => e);
        assert.ok(without instanceof Error, `a client without a certificate must be refused, got ${without}`);
        assert.match(String(without), /certificate required|handshake failure/);
        const { socket } = await handshake(demo.port, { cert: readFileSync(client.cert), key: readFileSync(client.key) });
        assert.match(await requestOn(socket, demo.port), /^HTTP\/1\.1 /);
        socket.destroy();
    });
});

describe('OAuth against an HTTPS resource', () => {
    let as;
    let demo;
    before(async () => {
        as = await AuthorizationServer.start();
        const server = makeCert(ca, 'oauth-server', 'serverAuth');
        demo = await HttpDemo.start([...tlsArgs(server), '--auth-issuer', as.issuer, '--auth-scopes', 'notes:read'], {
            scheme: 'https',
        });
    });
    after(async () => {
        await demo?.close();
        await as?.close();
    });

    test('the SDK v1 flow, step-up included', TEST, () => sdkV1Flow(demo.url, { fetch: fetchTrusting }));
    test('the SDK v2 flow on 2026-07-28', TEST, () => sdkV2Flow(demo.url, { fetch: fetchTrusting }));
});

describe('an authorization server on HTTPS (--auth-ca-file)', () => {
    const AUDIENCE = 'https://mcp.example.test/mcp';
    const otherCa = makeCa('other-ca');
    let as;
    before(async () => {
        const cert = makeCert(ca, 'as-server', 'serverAuth');
        as = await AuthorizationServer.start({ tls: { cert: readFileSync(cert.cert), key: readFileSync(cert.key) } });
    });
    after(async () => {
        await as?.close();
    });

    // The demo fetches the issuer's metadata and keys over HTTPS, verifying its certificate against
    // the roots it is given: the test CA, the system's (which do not know it), another CA.
    const cases = [
        ['trusted through --auth-ca-file', ['--auth-ca-file', file(`${ca}.pem`)], 200],
        ['unknown to the system roots', [], 503],
        ['signed by a CA other than --auth-ca-file', ['--auth-ca-file', file(`${otherCa}.pem`)], 503],
    ];
    for (const [what, args, status] of cases) {
        test(`answers ${status} when the issuer's certificate is ${what}`, TEST, async () => {
            const demo = await HttpDemo.start(['--auth-issuer', as.issuer, '--auth-audience', AUDIENCE, ...args]);
            try {
                const token = await as.forge({ aud: AUDIENCE });
                const message = modernRequest(1, 'tools/call', { name: 'echo', arguments: { text: 'tls' } });
                const response = await fetch(demo.url, {
                    method: 'POST',
                    headers: { ...modernHeaders(message), authorization: `Bearer ${token}` },
                    body: JSON.stringify(message),
                });
                assert.equal(response.status, status, await response.text());
                // The failure is logged as the fetch fails, on the demo's own schedule: wait for it.
                if (status === 503)
                    await waitUntil(() => /certificate verify failed/.test(demo.stderr), 10_000, 'the TLS failure in the log');
            } finally {
                await demo.close();
            }
        });
    }
});
