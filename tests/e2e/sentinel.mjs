// Helpers of the Sentinel failover test: a Redis master and one replica (Debian's redis-server)
// watched by three sentinels (Debian's redis-sentinel), all on loopback ports of their own, with
// passwords on both kinds of server; where the master is now, killing it, and waiting for the
// sentinels to promote the replica. Every wait is bounded; close() leaves no process behind.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { RedisServer, RespConnection } from './cluster.mjs';
import { freePort, waitUntil, withTimeout } from './helpers.mjs';

export const MASTER_NAME = 'mcp-master';

// Debian's redis-sentinel (or $REDIS_SENTINEL). A missing one fails the suite, naming the package.
export function redisSentinelBinary() {
    const candidates = process.env.REDIS_SENTINEL ? [process.env.REDIS_SENTINEL] : ['/usr/bin/redis-sentinel', '/usr/local/bin/redis-sentinel'];
    const found = candidates.find((p) => existsSync(p));
    assert.ok(found, `redis-sentinel is not installed (looked for ${candidates.join(', ')}): `
        + 'the failover test needs it; run scripts/install-deps.sh --test (Debian package redis-sentinel) or set REDIS_SENTINEL');
    return found;
}

// One sentinel process with a configuration file of its own (Sentinel rewrites it as it learns).
class Sentinel {
    static async start({ masterPort, masterPassword, password, downAfterMs, failoverTimeoutMs }) {
        let lastError;
        for (let attempt = 0; attempt < 3; ++attempt) {
            const sentinel = new Sentinel(await freePort(), password);
            try {
                await sentinel.#launch({ masterPort, masterPassword, downAfterMs, failoverTimeoutMs });
                return sentinel;
            } catch (e) {
                lastError = e;
                await sentinel.close();
            }
        }
        throw lastError;
    }

    constructor(port, password) {
        this.port = port;
        this.password = password;
        this.dir = mkdtempSync(join(tmpdir(), 'mcp-cpp-sentinel-'));
        this.log = '';
        this.child = undefined;
        this.exitInfo = undefined;
    }

    async #launch({ masterPort, masterPassword, downAfterMs, failoverTimeoutMs }) {
        const conf = join(this.dir, 'sentinel.conf');
        writeFileSync(conf, [
            `port ${this.port}`,
            'bind 127.0.0.1',
            'daemonize no',
            `dir ${this.dir}`,
            'logfile ""',
            `requirepass ${this.password}`,
            `sentinel sentinel-pass ${this.password}`,
            `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${masterPort} 2`,
            `sentinel auth-pass ${MASTER_NAME} ${masterPassword}`,
            `sentinel down-after-milliseconds ${MASTER_NAME} ${downAfterMs}`,
            `sentinel failover-timeout ${MASTER_NAME} ${failoverTimeoutMs}`,
            `sentinel parallel-syncs ${MASTER_NAME} 1`,
            '',
        ].join('\n'));
        const child = spawn(redisSentinelBinary(), [conf], { stdio: ['ignore', 'pipe', 'pipe'] });
        this.child = child;
        this.exit = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
        this.exit.then((info) => {
            this.exitInfo = info;
        });
        for (const s of [child.stdout, child.stderr]) {
            s.setEncoding('utf8').on('data', (d) => {
                if (this.log.length < 256 * 1024) this.log += d;
            });
        }
        await waitUntil(async () => {
            if (this.exitInfo) throw new Error(`redis-sentinel exited (${JSON.stringify(this.exitInfo)}):\n${this.log.slice(-2000)}`);
            try {
                return (await this.command('PING')) === 'PONG';
            } catch {
                return false;
            }
        }, 10_000, `redis-sentinel on port ${this.port} to answer PING`);
    }

    async command(...args) {
        const conn = await RespConnection.connect(this.port, 1000, this.password);
        try {
            return await conn.command(...args);
        } finally {
            conn.close();
        }
    }

    // [host, port] of the master as this sentinel sees it.
    async master() {
        const [host, port] = await this.command('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME);
        return { host, port: Number(port) };
    }

    // SENTINEL MASTER's fields as an object.
    async masterState() {
        const flat = await this.command('SENTINEL', 'MASTER', MASTER_NAME);
        const out = {};
        for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]] = flat[i + 1];
        return out;
    }

    async close() {
        if (this.child && !this.exitInfo) {
            this.child.kill('SIGKILL');
            await withTimeout(this.exit, 5000, 'redis-sentinel to die after SIGKILL').catch(() => {});
        }
        rmSync(this.dir, { recursive: true, force: true });
    }
}

// A master, a replica and three sentinels (quorum 2). downAfterMs is how long the master must be
// silent before the sentinels call it down: the largest part of the failover's duration.
export class SentinelGroup {
    static async start({ password = 'master-pw', sentinelPassword = 'sentinel-pw', downAfterMs = 1000, failoverTimeoutMs = 5000 } = {}) {
        const group = new SentinelGroup(password, sentinelPassword);
        try {
            // Either server may be the master: each logs in to the other, and syncs a new
            // replica at once rather than after the default 5 s.
            const auth = ['--masterauth', password, '--repl-diskless-sync-delay', '0'];
            const master = await RedisServer.start({ args: auth, password });
            group.servers.push(master);
            const replica = await RedisServer.start({ args: [...auth, '--replicaof', '127.0.0.1', String(master.port)], password });
            group.servers.push(replica);
            await waitUntil(async () => (await replica.command('INFO', 'replication')).includes('master_link_status:up'),
                10_000, 'the replica to sync with the master');
            const started = await Promise.allSettled([0, 1, 2].map(() => Sentinel.start({ masterPort: master.port,
                masterPassword: password, password: sentinelPassword, downAfterMs, failoverTimeoutMs })));
            group.sentinels.push(...started.filter((r) => r.status === 'fulfilled').map((r) => r.value));
            const failed = started.find((r) => r.status === 'rejected');
            if (failed) throw failed.reason;
            // Each sentinel knows the replica and the two other sentinels before anything fails.
            await Promise.all(group.sentinels.map((s) => waitUntil(async () => {
                const state = await s.masterState();
                return Number(state['num-slaves']) === 1 && Number(state['num-other-sentinels']) === 2;
            }, 20_000, `sentinel ${s.port} to see the replica and the other sentinels`)));
        } catch (e) {
            await group.close();
            throw e;
        }
        return group;
    }

    constructor(password, sentinelPassword) {
        this.password = password;
        this.sentinelPassword = sentinelPassword;
        this.servers = [];    // RedisServer: the master first, then the replica
        this.sentinels = [];
    }

    // The --store URL: the nodes log in to the master and to the sentinels.
    url(db = 0) {
        const hosts = this.sentinels.map((s) => `127.0.0.1:${s.port}`).join(',');
        return `redis-sentinel://:${encodeURIComponent(this.password)}@${hosts}/${MASTER_NAME}/${db}`
            + `?sentinel-password=${encodeURIComponent(this.sentinelPassword)}`;
    }

    // The RedisServer the sentinels (the first that answers) call master.
    async master() {
        for (const s of this.sentinels) {
            try {
                const { port } = await s.master();
                const server = this.servers.find((r) => r.port === port);
                if (server) return server;
            } catch {
                // this sentinel is away: ask the next
            }
        }
        throw new Error('no sentinel names a master');
    }

    async replica() {
        const master = await this.master();
        return this.servers.find((r) => r !== master);
    }

    // Until the replica has every write the master had when this was called.
    async waitReplicated(timeoutMs = 10_000) {
        const master = await this.master();
        const replica = await this.replica();
        const offset = (info, field) => Number(new RegExp(`${field}:(\\d+)`).exec(info)?.[1] ?? -1);
        const target = offset(await master.command('INFO', 'replication'), 'master_repl_offset');
        await waitUntil(async () => offset(await replica.command('INFO', 'replication'), 'slave_repl_offset') >= target,
            timeoutMs, `the replica to reach replication offset ${target}`);
    }

    // Until every sentinel names a master other than `old` and that server says it is one.
    async waitPromoted(old, timeoutMs = 30_000) {
        await waitUntil(async () => {
            for (const s of this.sentinels) {
                if ((await s.master()).port === old.port) return false;
            }
            const now = await this.master();
            return (await now.command('ROLE'))[0] === 'master';
        }, timeoutMs, `the sentinels to promote a replica in place of port ${old.port}`);
        return this.master();
    }

    logs() {
        return this.sentinels.map((s) => `--- sentinel ${s.port}:\n${s.log.slice(-1500)}`).join('\n')
            + this.servers.map((r) => `\n--- redis ${r.port}:\n${r.log.slice(-800)}`).join('');
    }

    async close() {
        await Promise.all(this.sentinels.map((s) => s.close()));
        await Promise.all(this.servers.map((r) => r.close()));
    }
}

