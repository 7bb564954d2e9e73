// End-to-end: mcp-cpp-demo with its store on a redis-server that speaks TLS only
// (--store rediss://…?tls-ca-file=…, docs/adr/0025-redis-tls.md): a 2025-11-25 session of the SDK
// client over HTTP, stored in that Redis; and a node given the wrong CA stops at startup, saying why.
// Certificates come from the openssl command, made per run.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/redis_tls.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { certificateMaker } from './certificates.mjs';
import { redisServerBinary } from './cluster.mjs';
import { demoBinary, freePort, HttpDemo, sleep } from './helpers.mjs';

const TEST = { timeout: 60_000 };
const dir = mkdtempSync(join(tmpdir(), 'mcp-redis-tls-'));
const file = (name) => join(dir, name);

const { makeCa, makeCert } = certificateMaker(dir);

async function accepts(port) {
    return new Promise((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
            socket.destroy();
            resolve(true);
        });
        socket.once('error', () => resolve(false));
    });
}

function redisCli(port, ...args) {
    return execFileSync('redis-cli', ['--tls', '--cacert', file('ca.pem'), '-p', String(port), ...args], { encoding: 'utf8' });
}

describe('the store over TLS (rediss://)', () => {
    let redis;
    let port;
    let demo;

    before(async () => {
        makeCa('ca');
        makeCa('other-ca');
        makeCert('ca', 'redis', 'serverAuth');
        port = await freePort();
        redis = spawn(redisServerBinary(), ['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1',
            '--tls-cert-file', file('redis.pem'), '--tls-key-file', file('redis.key'), '--tls-ca-cert-file', file('ca.pem'),
            '--tls-auth-clients', 'no', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
        for (let i = 0; i < 200 && !(await accepts(port)); ++i) await sleep(25);
        const store = `rediss://127.0.0.1:${port}/0?tls-ca-file=${encodeURIComponent(file('ca.pem'))}`;
        demo = await HttpDemo.start(['--store', store]);
    });
    after(async () => {
        await demo?.close();
        redis?.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
    });

    test('serves a 2025-11-25 session whose record is in the TLS Redis', TEST, async () => {
        const client = new Client({ name: 'redis-tls', version: '1' });
        const transport = new StreamableHTTPClientTransport(new URL(demo.url));
        await client.connect(transport);
        assert.equal(transport.protocolVersion, '2025-11-25');
        assert.ok(transport.sessionId, 'a 2025 session');
        const result = await client.callTool({ name: 'echo', arguments: { text: 'over tls' } });
        assert.deepEqual(result.content, [{ type: 'text', text: 'over tls' }]);
        assert.equal(redisCli(port, 'EXISTS', `mcp:s:{${transport.sessionId}}`).trim(), '1');
        await client.close();
    });

    test('a node given another CA stops at startup and says why', TEST, () => {
        const store = `rediss://127.0.0.1:${port}/0?tls-ca-file=${encodeURIComponent(file('other-ca.pem'))}`;
        const started = Date.now();
        const run = spawnSync(demoBinary(), ['--http', '127.0.0.1:0', '--store', store], { encoding: 'utf8', timeout: 20_000 });
        assert.notEqual(run.status, 0, 'it exits with an error');
        assert.match(run.stderr, /certificate refused/);
        assert.ok(Date.now() - started < 10_000, 'within seconds, not a hang');
    });
});
