// End-to-end: mcp-cpp-demo with its store on a redis-server that speaks TLS only
// (--store rediss://…?tls-ca-file=…, docs/adr/0025-redis-tls.md): a 2025-11-25 session of the SDK
// client over HTTP, stored in that Redis; a node given the wrong CA stops at startup, saying why;
// and the same through a sentinel that speaks TLS only too (rediss-sentinel://: the node learns the
// master from the sentinel, both over TLS). Certificates come from the openssl command, made per run.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/redis_tls.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { certificateMaker } from './certificates.mjs';
import { redisServerBinary } from './cluster.mjs';
import { demoBinary, freePort, HttpDemo, sleep, waitUntil } from './helpers.mjs';

const TEST = { timeout: 60_000 };
const dir = mkdtempSync(join(tmpdir(), 'mcp-redis-tls-'));
const file = (name) => join(dir, name);

const { makeCa, makeCert } = certificateMaker(dir);

before(() => {
    makeCa('ca');
    makeCa('other-ca');
    makeCert('ca', 'redis', 'serverAuth');
});
after(() => rmSync(dir, { recursive: true, force: true }));

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
    return execFileSync('redis-cli', ['--tls', '--cacert', file('ca.pem'), '-p', String(port), ...args],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

// TLS settings of a server, and of a sentinel, with the certificate `redis` of the CA `ca`.
const tlsFiles = () => ['tls-cert-file', file('redis.pem'), 'tls-key-file', file('redis.key'), 'tls-ca-cert-file', file('ca.pem'),
    'tls-auth-clients', 'no'];

// A redis-server on `port` that speaks TLS only; resolves once it accepts connections.
async function startTlsRedis(port) {
    const flags = tlsFiles().map((word, i) => (i % 2 === 0 ? `--${word}` : word));
    const child = spawn(redisServerBinary(), ['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1', ...flags,
        '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    for (let i = 0; i < 200 && !(await accepts(port)); ++i) await sleep(25);
    return child;
}

describe('the store over TLS (rediss://)', () => {
    let redis;
    let port;
    let demo;

    before(async () => {
        port = await freePort();
        redis = await startTlsRedis(port);
        const store = `rediss://127.0.0.1:${port}/0?tls-ca-file=${encodeURIComponent(file('ca.pem'))}`;
        demo = await HttpDemo.start(['--store', store]);
    });
    after(async () => {
        await demo?.close();
        redis?.kill('SIGKILL');
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

describe('the store through a sentinel over TLS (rediss-sentinel://)', () => {
    let master;
    let masterPort;
    let sentinel;
    let demo;

    before(async () => {
        masterPort = await freePort();
        master = await startTlsRedis(masterPort);
        // A sentinel (redis-server --sentinel: Debian's redis-server binary is the sentinel too)
        // that speaks TLS only, to clients and to the master it watches (tls-replication).
        const sentinelPort = await freePort();
        const sentinelDir = file('sentinel');
        mkdirSync(sentinelDir, { recursive: true });
        const conf = join(sentinelDir, 'sentinel.conf');
        const tls = tlsFiles();
        writeFileSync(conf, ['port 0', `tls-port ${sentinelPort}`, 'bind 127.0.0.1', 'daemonize no', `dir ${sentinelDir}`,
            'logfile ""', ...[0, 2, 4, 6].map((i) => `${tls[i]} ${tls[i + 1]}`), 'tls-replication yes',
            `sentinel monitor mcp-master 127.0.0.1 ${masterPort} 1`, ''].join('\n'));
        sentinel = spawn(redisServerBinary(), [conf, '--sentinel'], { stdio: 'ignore' });
        // Until the sentinel answers over TLS and has reached the master over TLS.
        await waitUntil(() => {
            try {
                const state = redisCli(sentinelPort, 'SENTINEL', 'MASTER', 'mcp-master').split('\n').map((l) => l.trim());
                return state[state.indexOf('flags') + 1] === 'master' && state[state.indexOf('port') + 1] === String(masterPort);
            } catch {
                return false;
            }
        }, 20_000, 'the TLS sentinel to see the TLS master');
        const store = `rediss-sentinel://127.0.0.1:${sentinelPort}/mcp-master/0?tls-ca-file=${encodeURIComponent(file('ca.pem'))}`;
        demo = await HttpDemo.start(['--store', store]);
    });
    after(async () => {
        await demo?.close();
        sentinel?.kill('SIGKILL');
        master?.kill('SIGKILL');
    });

    test('serves a 2025-11-25 session whose record is in the master the sentinel names', TEST, async () => {
        const client = new Client({ name: 'redis-sentinel-tls', version: '1' });
        const transport = new StreamableHTTPClientTransport(new URL(demo.url));
        await client.connect(transport);
        assert.ok(transport.sessionId, 'a 2025 session');
        for (const text of ['through a sentinel', 'over tls']) {
            const result = await client.callTool({ name: 'echo', arguments: { text } });
            assert.deepEqual(result.content, [{ type: 'text', text }]);
        }
        assert.equal(redisCli(masterPort, 'EXISTS', `mcp:s:{${transport.sessionId}}`).trim(), '1');
        await client.close();
    });
});
