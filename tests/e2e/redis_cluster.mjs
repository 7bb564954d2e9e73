// Helpers of the Redis Cluster test: six Debian redis-servers in cluster mode on loopback ports of
// their own (three masters, a replica each, made by `redis-cli --cluster create`, a password on
// every server, a 1 s cluster-node-timeout), the --store URL, which server is a master now,
// killing one and waiting for its replica to take over, and moving slots with
// `redis-cli --cluster reshard`; and three masters that speak TLS only, cluster bus included.
// Every wait is bounded; close() leaves no process behind.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { certificateMaker } from './certificates.mjs';
import { redisServerBinary, RedisServer } from './cluster.mjs';
import { freePort, waitUntil, withTimeout } from './helpers.mjs';

const NODE_TIMEOUT_MS = 1000;

// redis-cli with the cluster's password (and `tls`: its arguments); resolves with its output,
// rejects when it fails or takes longer than `timeoutMs`.
function redisCli(args, password, timeoutMs, tls = []) {
    return withTimeout(new Promise((resolve, reject) => {
        const child = spawn('redis-cli', [...tls, '--no-auth-warning', '-a', password, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        for (const s of [child.stdout, child.stderr]) s.setEncoding('utf8').on('data', (d) => { if (out.length < 1 << 20) out += d; });
        child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`redis-cli ${args.slice(0, 2).join(' ')} failed (${code}):\n${out.slice(-3000)}`))));
    }), timeoutMs, `redis-cli ${args.slice(0, 2).join(' ')}`);
}

export class RedisClusterGroup {
    // replicas: per master (the test's 1; the bench's 0, three masters alone).
    static async start({ password = 'cluster-pw', replicas = 1 } = {}) {
        const group = new RedisClusterGroup(password);
        try {
            for (let i = 0; i < 3 * (1 + replicas); ++i) {
                const args = ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf',
                    '--cluster-node-timeout', String(NODE_TIMEOUT_MS), '--cluster-port', String(await freePort()),
                    '--cluster-replica-validity-factor', '0', '--masterauth', password, '--repl-diskless-sync-delay', '0'];
                group.servers.push(await RedisServer.start({ args, password }));
            }
            await redisCli(['--cluster', 'create', ...group.servers.map((s) => `127.0.0.1:${s.port}`),
                '--cluster-replicas', String(replicas), '--cluster-yes'], password, 60_000);
            await group.waitHealthy();
        } catch (e) {
            await group.close();
            throw e;
        }
        return group;
    }

    constructor(password) {
        this.password = password;
        this.servers = [];
    }

    // Two of the servers as seeds: the nodes ask them for the rest.
    url() {
        const seeds = this.servers.slice(0, 2).map((s) => `127.0.0.1:${s.port}`).join(',');
        return `redis-cluster://:${encodeURIComponent(this.password)}@${seeds}`;
    }

    running() {
        return this.servers.filter((s) => s.running);
    }

    // The servers that are masters now, each with its node id.
    async masters() {
        const out = [];
        for (const s of this.running()) {
            const role = await s.command('ROLE').catch(() => undefined);
            if (role?.[0] === 'master') out.push({ server: s, id: await s.command('CLUSTER', 'MYID') });
        }
        return out;
    }

    // Until every running server says the cluster is ok, every slot has a master that is up, and
    // every replica of a running master is in sync.
    async waitHealthy(timeoutMs = 30_000) {
        await waitUntil(async () => {
            for (const s of this.running()) {
                const info = await s.command('CLUSTER', 'INFO').catch(() => '');
                if (!info.includes('cluster_state:ok') || !info.includes('cluster_slots_ok:16384')) return false;
            }
            for (const s of this.running()) {
                const replication = await s.command('INFO', 'replication').catch(() => '');
                if (replication.includes('role:slave') && !replication.includes('master_link_status:up')) return false;
            }
            return true;
        }, timeoutMs, 'the Redis Cluster to be healthy');
    }

    // SIGKILLs a master; resolves, with its server, once its replica serves its slots.
    async killMaster() {
        const [{ server }] = await this.masters();
        await server.stop('SIGKILL');
        await this.waitHealthy(NODE_TIMEOUT_MS + 30_000);
        return server;
    }

    // Moves `slots` slots from one master to another, live.
    async reshard(slots) {
        const masters = await this.masters();
        assert.ok(masters.length >= 2, 'two masters to move slots between');
        const [from, to] = masters;
        await redisCli(['--cluster', 'reshard', `127.0.0.1:${to.server.port}`, '--cluster-from', from.id, '--cluster-to', to.id,
            '--cluster-slots', String(slots), '--cluster-yes', '--cluster-pipeline', '100'], this.password, 120_000);
        await this.waitHealthy();
    }

    logs() {
        return this.servers.map((r) => `\n--- redis ${r.port}:\n${r.log.slice(-800)}`).join('');
    }

    async close() {
        await Promise.all(this.servers.map((r) => r.close()));
    }
}

// Three masters without replicas, TLS only (clients, cluster bus), a CA and a certificate for
// 127.0.0.1 made per run.
export class TlsRedisCluster {
    static async start({ password = 'cluster-pw' } = {}) {
        const group = new TlsRedisCluster(password);
        try {
            const { makeCa, makeCert } = certificateMaker(group.dir);
            makeCa('ca');
            makeCert('ca', 'redis', 'serverAuth,clientAuth');
            for (let i = 0; i < 3; ++i) await group.#launch();
            await redisCli(['--cluster', 'create', ...group.ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0',
                '--cluster-yes'], password, 60_000, group.tlsArgs());
            await waitUntil(async () => {
                for (const port of group.ports) {
                    const info = await redisCli(['-p', String(port), 'CLUSTER', 'INFO'], password, 5000, group.tlsArgs()).catch(() => '');
                    if (!info.includes('cluster_state:ok')) return false;
                }
                return true;
            }, 30_000, 'the TLS Redis Cluster to be healthy');
        } catch (e) {
            await group.close();
            throw e;
        }
        return group;
    }

    constructor(password) {
        this.password = password;
        this.dir = mkdtempSync(join(tmpdir(), 'mcp-cpp-redis-cluster-tls-'));
        this.ports = [];
        this.children = [];
        this.log = '';
    }

    file(name) {
        return join(this.dir, name);
    }

    tlsArgs() {
        return ['--tls', '--cacert', this.file('ca.pem')];
    }

    async #launch() {
        const port = await freePort();
        const child = spawn(redisServerBinary(), ['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1',
            '--tls-cert-file', this.file('redis.pem'), '--tls-key-file', this.file('redis.key'),
            '--tls-ca-cert-file', this.file('ca.pem'), '--tls-auth-clients', 'no', '--tls-cluster', 'yes',
            '--tls-replication', 'yes', '--cluster-enabled', 'yes', '--cluster-port', String(await freePort()), '--cluster-node-timeout', '1000', '--requirepass', this.password,
            '--masterauth', this.password, '--save', '', '--appendonly', 'no', '--dir', this.dir, '--daemonize', 'no',
            '--logfile', '', '--cluster-config-file', `nodes-${port}.conf`], { stdio: ['ignore', 'pipe', 'pipe'] });
        for (const s of [child.stdout, child.stderr]) s.setEncoding('utf8').on('data', (d) => { if (this.log.length < 1 << 18) this.log += d; });
        this.children.push(child);
        this.ports.push(port);
        await waitUntil(async () => (await redisCli(['-p', String(port), 'PING'], this.password, 5000, this.tlsArgs()).catch(() => ''))
            .includes('PONG'), 10_000, `the TLS redis-server on port ${port} to answer`);
    }

    // The --store URL: TLS, this run's CA.
    url() {
        return `rediss-cluster://:${encodeURIComponent(this.password)}@127.0.0.1:${this.ports[0]}`
            + `?tls-ca-file=${encodeURIComponent(this.file('ca.pem'))}`;
    }

    async close() {
        for (const child of this.children) {
            if (child.exitCode === null && child.signalCode === null) {
                const gone = new Promise((resolve) => child.once('close', resolve));
                child.kill('SIGKILL');
                await withTimeout(gone, 5000, 'a TLS redis-server to die');
            }
        }
        rmSync(this.dir, { recursive: true, force: true });
    }
}
