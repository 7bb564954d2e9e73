// Helpers of the multi-node end-to-end tests (cluster, cluster_faults): a real redis-server on a
// loopback port of its own (no persistence, no system service), a raw RESP connection to look at
// its keys, mcp-cpp server nodes sharing it (--store redis://…) and one key ring (MCP_SECRET),
// and a 2025-11-25 client that sends each HTTP request to the next node in turn.
// Every wait is bounded; close() always leaves no process behind (SIGKILL at the end).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
    demoBinary,
    freePort,
    MODERN,
    modernHeaders,
    modernRequest,
    parseSse,
    sleep,
    SseReader,
    sseMessages,
    tryConnect,
    waitUntil,
    withTimeout,
} from './helpers.mjs';

export const LEGACY = '2025-11-25';
const ACCEPT = 'application/json, text/event-stream';

// ---------------------------------------------------------------------------------------------
// Binaries.

// Debian's redis-server (or $REDIS_SERVER). A missing one fails the suite: it is a test
// dependency, not an optional one.
export function redisServerBinary() {
    const candidates = process.env.REDIS_SERVER ? [process.env.REDIS_SERVER] : ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];
    const found = candidates.find((p) => existsSync(p));
    assert.ok(found, `redis-server is not installed (looked for ${candidates.join(', ')}): `
        + 'the cluster tests need it; run scripts/install-deps.sh --test (Debian package redis-server) or set REDIS_SERVER');
    return found;
}

export function probeBinary() {
    const path = process.env.MCP_CPP_PROBE;
    assert.ok(path, 'MCP_CPP_PROBE must name the mcp-cpp-probe binary (ctest sets it)');
    assert.ok(existsSync(path), `MCP_CPP_PROBE=${path} does not exist: build the mcp-cpp-probe target first`);
    return path;
}

// A key ring every node of a cluster shares: one standard-base64 32-byte key (ADR 0008).
export const newSecret = () => randomBytes(32).toString('base64');

// ---------------------------------------------------------------------------------------------
// RESP: a minimal Redis client over one socket (RESP2 replies), enough to look at keys.

export class RespError extends Error {}

// Parses one reply at buf[pos]; returns [value, next position], or undefined when incomplete.
function parseReply(buf, pos) {
    if (pos >= buf.length) return undefined;
    const eol = buf.indexOf('\r\n', pos, 'latin1');
    if (eol < 0) return undefined;
    const type = String.fromCharCode(buf[pos]);
    const line = buf.toString('utf8', pos + 1, eol);
    const after = eol + 2;
    switch (type) {
        case '+': return [line, after];
        case '-': return [new RespError(line), after];
        case ':': return [Number(line), after];
        case '$': {
            const n = Number(line);
            if (n < 0) return [null, after];
            if (buf.length < after + n + 2) return undefined;
            return [buf.toString('utf8', after, after + n), after + n + 2];
        }
        case '*': {
            const n = Number(line);
            if (n < 0) return [null, after];
            const items = [];
            let p = after;
            for (let i = 0; i < n; ++i) {
                const r = parseReply(buf, p);
                if (!r) return undefined;
                items.push(r[0]);
                p = r[1];
            }
            return [items, p];
        }
        default:
            throw new Error(`unexpected RESP reply type ${JSON.stringify(type)} in ${JSON.stringify(buf.toString('latin1', pos, pos + 80))}`);
    }
}

const encodeCommand = (args) => {
    const parts = [`*${args.length}\r\n`];
    for (const a of args) {
        const s = String(a);
        parts.push(`$${Buffer.byteLength(s)}\r\n${s}\r\n`);
    }
    return parts.join('');
};

export class RespConnection {
    // With a password, the connection logs in (AUTH) before it is handed out.
    static async connect(port, timeoutMs = 3000, password = undefined) {
        const conn = await RespConnection.#open(port, timeoutMs);
        if (password !== undefined) {
            try {
                await conn.command('AUTH', password);
            } catch (e) {
                conn.close();
                throw e;
            }
        }
        return conn;
    }

    static #open(port, timeoutMs) {
        return new Promise((resolve, reject) => {
            const socket = netConnect({ host: '127.0.0.1', port });
            const timer = setTimeout(() => {
                socket.destroy();
                reject(new Error(`connecting to Redis on port ${port} took more than ${timeoutMs} ms`));
            }, timeoutMs);
            socket.once('connect', () => {
                clearTimeout(timer);
                resolve(new RespConnection(socket));
            });
            socket.once('error', (e) => {
                clearTimeout(timer);
                reject(e);
            });
        });
    }

    constructor(socket) {
        this.socket = socket;
        this.buffer = Buffer.alloc(0);
        this.waiting = [];  // {resolve, reject} in command order
        this.closedError = undefined;
        socket.on('data', (chunk) => {
            this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
            let pos = 0;
            for (;;) {
                const r = this.waiting.length ? parseReply(this.buffer, pos) : undefined;
                if (!r) break;
                pos = r[1];
                this.waiting.shift().resolve(r[0]);
            }
            this.buffer = this.buffer.subarray(pos);
        });
        const fail = (e) => {
            this.closedError = e ?? new Error('the Redis connection closed');
            for (const w of this.waiting.splice(0)) w.reject(this.closedError);
        };
        socket.on('error', fail);
        socket.on('close', () => fail(this.closedError));
    }

    // Replies in order; error replies are RespError values, not rejections.
    pipeline(commands, timeoutMs = 10_000) {
        if (this.closedError) return Promise.reject(this.closedError);
        const replies = commands.map(() => new Promise((resolve, reject) => this.waiting.push({ resolve, reject })));
        this.socket.write(commands.map(encodeCommand).join(''));
        return withTimeout(Promise.all(replies), timeoutMs, `Redis to answer ${commands.length} command(s) (${commands[0]?.[0]} …)`);
    }

    async command(...args) {
        const [reply] = await this.pipeline([args]);
        if (reply instanceof RespError) throw reply;
        return reply;
    }

    close() {
        this.socket.destroy();
    }
}

// ---------------------------------------------------------------------------------------------
// redis-server on 127.0.0.1:<free port>, no persistence, its files in a temporary directory.

export class RedisServer {
    // args: more redis-server options (e.g. --replicaof); password: its requirepass, which the
    // test's own connections log in with.
    static async start({ port, args = [], password } = {}) {
        const binary = redisServerBinary();
        let lastError;
        for (let attempt = 0; attempt < 3; ++attempt) {
            const server = new RedisServer(binary, port ?? await freePort(), { args, password });
            try {
                await server.#launch();
                return server;
            } catch (e) {
                lastError = e;
                await server.close();
                if (port !== undefined) break;  // a fixed port: no point in another
            }
        }
        throw lastError;
    }

    constructor(binary, port, { args = [], password } = {}) {
        this.binary = binary;
        this.port = port;
        this.extraArgs = password ? [...args, '--requirepass', password] : args;
        this.password = password;
        this.url = `redis://${password ? `:${encodeURIComponent(password)}@` : ''}127.0.0.1:${port}/0`;
        this.dir = mkdtempSync(join(tmpdir(), 'mcp-cpp-redis-'));
        this.child = undefined;
        this.log = '';
        this.conn = undefined;
    }

    get running() {
        return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
    }

    async #launch(timeoutMs = 10_000) {
        // --save "" --appendonly no: nothing persists on its own. SHUTDOWN SAVE (shutdownSave)
        // still writes dump.rdb to `dir`, read back by the next launch: a planned restart.
        const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
            '--dir', this.dir, '--dbfilename', 'dump.rdb', '--daemonize', 'no', '--logfile', '', '--loglevel', 'notice',
            ...this.extraArgs];
        const child = spawn(this.binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        this.child = child;
        const exit = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
        child.exitInfo = undefined;
        child.exitPromise = exit;
        exit.then((info) => {
            child.exitInfo = info;
        });
        for (const s of [child.stdout, child.stderr]) {
            s.setEncoding('utf8').on('data', (d) => {
                if (this.log.length < 256 * 1024) this.log += d;
            });
        }
        await waitUntil(async () => {
            if (child.exitInfo) throw new Error(`redis-server exited (${JSON.stringify(child.exitInfo)}) before serving:\n${this.log.slice(-2000)}`);
            try {
                const conn = await RespConnection.connect(this.port, 1000, this.password);
                const pong = await conn.command('PING').finally(() => conn.close());
                return pong === 'PONG';
            } catch {
                return false;
            }
        }, timeoutMs, `redis-server on port ${this.port} to answer PING`);
    }

    // Starts it again on the same port (after stop()); the nodes are expected to reconnect.
    async restart() {
        assert.ok(!this.running, 'restart() after stop()');
        let lastError;
        for (let attempt = 0; attempt < 5; ++attempt) {
            try {
                await this.#launch();
                return;
            } catch (e) {
                lastError = e;
                await this.#kill('SIGKILL');
                await sleep(200);  // the port may linger for a moment
            }
        }
        throw lastError;
    }

    async #kill(signal, timeoutMs = 5000) {
        this.conn?.close();
        this.conn = undefined;
        const child = this.child;
        if (!child || child.exitInfo) return child?.exitInfo;
        child.kill(signal);
        let info = await Promise.race([child.exitPromise, sleep(timeoutMs).then(() => undefined)]);
        if (!info) {
            child.kill('SIGKILL');
            info = await withTimeout(child.exitPromise, 5000, 'redis-server to die after SIGKILL');
        }
        return info;
    }

    // SIGTERM (Redis saves nothing: --save "") or SIGKILL; resolves once the process is gone and
    // the port refuses connections.
    async stop(signal = 'SIGTERM') {
        const info = await this.#kill(signal);
        await waitUntil(async () => (await tryConnect(this.port, 1000)) !== undefined, 5000, `port ${this.port} to refuse connections`);
        return info;
    }

    // A planned restart: the data set is written to dump.rdb, then the process exits.
    async shutdownSave() {
        const conn = await RespConnection.connect(this.port, 3000, this.password);
        try {
            await conn.pipeline([['SHUTDOWN', 'SAVE']], 10_000).catch(() => {});  // the connection closes instead of a reply
        } finally {
            conn.close();
        }
        this.conn?.close();
        this.conn = undefined;
        await withTimeout(this.child.exitPromise, 10_000, 'redis-server to exit after SHUTDOWN SAVE');
        await waitUntil(async () => (await tryConnect(this.port, 1000)) !== undefined, 5000, `port ${this.port} to refuse connections`);
    }

    // SIGSTOP / SIGCONT: Redis stops answering without closing its connections.
    pause() {
        this.child.kill('SIGSTOP');
    }

    resume() {
        this.child.kill('SIGCONT');
    }

    async #connection() {
        if (!this.conn || this.conn.closedError) this.conn = await RespConnection.connect(this.port, 3000, this.password);
        return this.conn;
    }

    async command(...args) {
        return (await this.#connection()).command(...args);
    }

    async pipeline(commands, timeoutMs) {
        return (await this.#connection()).pipeline(commands, timeoutMs);
    }

    dbsize() {
        return this.command('DBSIZE');
    }

    // Every key (SCAN, so the server is never blocked).
    async keys(match = '*') {
        const out = new Set();
        let cursor = '0';
        do {
            const [next, batch] = await this.command('SCAN', cursor, 'MATCH', match, 'COUNT', 1000);
            for (const k of batch) out.add(k);
            cursor = next;
        } while (cursor !== '0');
        return [...out].sort();
    }

    // [{key, type, pttl}] for every key; pttl -1 = no expiry, -2 = gone meanwhile.
    async keysWithTtl(match = '*') {
        const keys = await this.keys(match);
        const out = [];
        for (let i = 0; i < keys.length; i += 500) {
            const batch = keys.slice(i, i + 500);
            const replies = await this.pipeline(batch.flatMap((k) => [['PTTL', k], ['TYPE', k]]));
            batch.forEach((key, j) => out.push({ key, pttl: replies[2 * j], type: replies[2 * j + 1] }));
        }
        return out;
    }

    // `redis-cli` is not needed, but when present it gives the same count (a cross-check).
    dbsizeViaCli() {
        const auth = this.password ? ['--no-auth-warning', '-a', this.password] : [];
        const r = spawnSync('redis-cli', ['-p', String(this.port), ...auth, 'DBSIZE'], { encoding: 'utf8', timeout: 5000 });
        return r.status === 0 ? Number(r.stdout.trim()) : undefined;
    }

    async close() {
        if (this.child && !this.child.exitInfo) {
            this.child.kill('SIGCONT');  // a paused server cannot die of SIGTERM
            await this.#kill('SIGKILL').catch(() => {});
        }
        this.conn?.close();
        rmSync(this.dir, { recursive: true, force: true });
    }
}

// ---------------------------------------------------------------------------------------------
// Server nodes: mcp-cpp-demo (or mcp-cpp-probe) serving Streamable HTTP on 127.0.0.1:<free port>.

export class ClusterNode {
    // store: a redis:// URL, or undefined for the default (memory). secret: MCP_SECRET's value.
    static async start({ name, binary = demoBinary(), store, secret, args = [], env = {}, attempts = 3 } = {}) {
        let lastError;
        for (let i = 0; i < attempts; ++i) {
            const node = new ClusterNode(name, binary, await freePort(), { store, secret, args, env });
            try {
                await node.#ready();
                return node;
            } catch (e) {
                lastError = e;
                await node.close();
                // Another process may have taken the port between freePort() and the bind: retry.
                if (!/address already in use|bind/i.test(node.stderr)) break;
            }
        }
        throw lastError;
    }

    constructor(name, binary, port, { store, secret, args, env }) {
        this.name = name ?? `node:${port}`;
        this.binary = binary;
        this.port = port;
        this.url = `http://127.0.0.1:${port}/mcp`;
        this.args = ['--http', `127.0.0.1:${port}`, ...(store ? ['--store', store] : []), ...args];
        const childEnv = { ...process.env, ...env };
        delete childEnv.MCP_SECRET;
        delete childEnv.MCP_SECRET_FILE;
        if (secret !== undefined) childEnv.MCP_SECRET = secret;
        this.child = spawn(binary, this.args, { stdio: ['ignore', 'ignore', 'pipe'], env: childEnv });
        this.stderr = '';
        this.exitInfo = undefined;
        this.exit = new Promise((resolve) => this.child.once('close', (code, signal) => resolve({ code, signal })));
        this.exit.then((info) => {
            this.exitInfo = info;
        });
        this.child.stderr.setEncoding('utf8').on('data', (chunk) => {
            if (this.stderr.length < 4 * 1024 * 1024) this.stderr += chunk;
        });
    }

    get alive() {
        return this.exitInfo === undefined;
    }

    async #ready(timeoutMs = 15_000) {
        const banner = `serving MCP on ${this.url}`;
        await waitUntil(() => {
            if (this.stderr.includes(banner)) return true;
            if (this.exitInfo) {
                throw new Error(`${this.binary} ${this.args.join(' ')} exited (${JSON.stringify(this.exitInfo)}) before serving:\n${this.stderr.slice(-3000)}`);
            }
            return false;
        }, timeoutMs, `${this.name} to print "${banner}"`);
    }

    // SIGKILL, and wait (bounded) for the process to be gone.
    async kill() {
        if (this.exitInfo) return this.exitInfo;
        this.child.kill('SIGKILL');
        return withTimeout(this.exit, 5000, `${this.name} to die after SIGKILL`);
    }

    // SIGTERM, then SIGKILL if it lingers (or at once with { force: true }). Always resolves.
    async close({ force = false } = {}) {
        if (this.exitInfo) return this.exitInfo;
        const wait = (ms) => Promise.race([this.exit, sleep(ms).then(() => undefined)]);
        let info;
        if (!force) {
            this.child.kill('SIGTERM');
            info = await wait(5000);
        }
        if (!info) {
            this.child.kill('SIGKILL');
            info = await wait(5000);
        }
        return info;
    }

    stderrTail(chars = 3000) {
        return this.stderr.slice(-chars);
    }
}

// `count` nodes sharing `store` (a redis:// URL, or undefined) and one secret, named A, B, C…
export async function startNodes(count, { store, secret = newSecret(), binary, args = [], env = {} } = {}) {
    const names = 'ABCDEFGH';
    const nodes = [];
    try {
        for (let i = 0; i < count; ++i) {
            nodes.push(await ClusterNode.start({ name: names[i], binary, store, secret, args, env }));
        }
    } catch (e) {
        await Promise.all(nodes.map((n) => n.close({ force: true })));
        throw e;
    }
    return { nodes, secret, close: ({ force } = {}) => Promise.all(nodes.map((n) => n.close({ force }))) };
}

// A node's stderr for a failure message.
export const tails = (nodes, chars = 1500) => nodes.map((n) => `--- ${n.name} (${n.url}) stderr:\n${n.stderrTail(chars)}`).join('\n');

// Wraps a test so that its failure carries what explains most cluster bugs: the nodes' stderr
// (`tails(nodes())`) and whatever `more()` adds. Both are called on failure only: the cluster is
// started after the tests are declared.
export const withNodeLogs = (nodes, { chars = 1500, more = () => '' } = {}) => (fn) => async () => {
    try {
        await fn();
    } catch (e) {
        e.message += `\n${tails(nodes(), chars)}${more()}`;
        throw e;
    }
};

// ---------------------------------------------------------------------------------------------
// Raw HTTP.

// Reads a response body entirely (bounded), and parses it: JSON or SSE.
export async function readBody(res, timeoutMs = 10_000, what = 'the response body') {
    const text = await withTimeout(res.text(), timeoutMs, what);
    const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
    let messages = [];
    let events = [];
    if (type === 'text/event-stream') {
        events = parseSse(text, { complete: true });
        messages = sseMessages(events);
    } else if (type === 'application/json' && text) {
        const parsed = JSON.parse(text);
        messages = Array.isArray(parsed) ? parsed : [parsed];
    }
    return { status: res.status, headers: res.headers, type, text, events, messages };
}

// The response (result or error) with this id among messages.
export const responseOf = (messages, id) => messages.find((m) => !('method' in m) && m.id === id && ('result' in m || 'error' in m));

// A 2026-07-28 stateless request to one node: {status, message, text}.
export async function modernCall(url, id, method, params = {}, { caps = {}, headers = {}, timeoutMs = 10_000 } = {}) {
    const msg = modernRequest(id, method, params, { 'io.modelcontextprotocol/clientCapabilities': caps });
    const res = await fetch(url, {
        method: 'POST',
        headers: { ...modernHeaders(msg), ...headers },
        body: JSON.stringify(msg),
        signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await readBody(res, timeoutMs, `the answer to ${method} from ${url}`);
    return { status: res.status, message: responseOf(body.messages, id), messages: body.messages, text: body.text };
}

// The demo's per-node counters (demo://server/stats), read statelessly from that very node.
export async function nodeStats(node) {
    const r = await modernCall(node.url, `stats-${Date.now()}`, 'resources/read', { uri: 'demo://server/stats' });
    assert.equal(r.status, 200, `stats of ${node.name}: ${r.text}`);
    return JSON.parse(r.message.result.contents[0].text);
}

export { MODERN };

// ---------------------------------------------------------------------------------------------
// A 2025-11-25 client that sends every HTTP request to the next node in turn (round robin), as
// a load balancer without sticky sessions would. A request may name its node ({ node }); the
// rotation then continues after that node. `history` records [node name, what] per request.

let idCounter = 0;

export class RoundRobinSession {
    constructor(nodes, { capabilities = {}, clientName = 'mcp-cpp-e2e-cluster' } = {}) {
        this.nodes = nodes;
        this.cursor = 0;
        this.capabilities = capabilities;
        this.clientName = clientName;
        this.sessionId = undefined;
        this.history = [];
        this.controllers = new Set();  // every open stream, aborted by close()
    }

    // The node for the next request: the one asked for, or the next in turn.
    pick(node) {
        if (node) {
            this.cursor = (this.nodes.indexOf(node) + 1) % this.nodes.length;
            return node;
        }
        const chosen = this.nodes[this.cursor % this.nodes.length];
        this.cursor = (this.cursor + 1) % this.nodes.length;
        return chosen;
    }

    nextId(prefix = 'r') {
        return `${prefix}-${++idCounter}`;
    }

    headers(extra = {}) {
        const h = { 'content-type': 'application/json', accept: ACCEPT, ...extra };
        if (this.sessionId) {
            h['mcp-session-id'] = this.sessionId;
            h['mcp-protocol-version'] = LEGACY;
        }
        return h;
    }

    // Sends one JSON-RPC message by POST to a node; resolves with the fetch Response as soon as
    // its head arrived (the body may stream) and the node it went to.
    async postRaw(message, { node, headers = {}, timeoutMs = 10_000, signal } = {}) {
        const target = this.pick(node);
        const what = message.method ?? `response to ${message.id}`;
        this.history.push([target.name, what]);
        const controller = new AbortController();
        this.controllers.add(controller);
        const timer = setTimeout(() => controller.abort(new Error(`no response head from ${target.name} within ${timeoutMs} ms`)), timeoutMs);
        signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
        try {
            const res = await fetch(target.url, {
                method: 'POST', headers: this.headers(headers), body: JSON.stringify(message), signal: controller.signal,
            });
            return { res, node: target, controller };
        } finally {
            clearTimeout(timer);
        }
    }

    // A request answered in full (JSON, or SSE read to its end, bounded).
    async request(method, params, { node, timeoutMs = 10_000, id = this.nextId(method.replace(/\W/g, '')) } = {}) {
        const message = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
        const { res, node: target, controller } = await this.postRaw(message, { node, timeoutMs });
        try {
            const body = await readBody(res, timeoutMs, `the answer to ${method} from ${target.name}`);
            return { ...body, id, node: target, message: responseOf(body.messages, id) };
        } finally {
            this.controllers.delete(controller);
        }
    }

    // A request whose answer streams (SSE): { id, node, res, reader (SseReader), abort() }.
    async stream(method, params, { node, timeoutMs = 10_000, id = this.nextId(method.replace(/\W/g, '')) } = {}) {
        const message = { jsonrpc: '2.0', id, method, params };
        const { res, node: target, controller } = await this.postRaw(message, { node, timeoutMs });
        return { id, node: target, res, status: res.status, reader: res.body ? new SseReader(res) : undefined, abort: () => controller.abort() };
    }

    // A notification or a response to the server: the HTTP status (202 expected) and body text.
    async send(message, { node, timeoutMs = 10_000 } = {}) {
        const { res, node: target, controller } = await this.postRaw(message, { node, timeoutMs });
        try {
            const text = await withTimeout(res.text(), timeoutMs, `the answer to a POST on ${target.name}`);
            return { status: res.status, text, node: target };
        } finally {
            this.controllers.delete(controller);
        }
    }

    notify(method, params, options) {
        return this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }, options);
    }

    // initialize, then notifications/initialized (on the next node).
    async initialize({ node, capabilities = this.capabilities } = {}) {
        const init = await this.request('initialize', {
            protocolVersion: LEGACY,
            capabilities,
            clientInfo: { name: this.clientName, version: '1.0.0' },
        }, { node, id: this.nextId('init') });
        assert.equal(init.status, 200, `initialize on ${init.node.name}: ${init.status} ${init.text}`);
        assert.ok(init.message?.result, `initialize result: ${init.text}`);
        const sid = init.headers.get('mcp-session-id');
        assert.ok(sid, 'initialize answered an Mcp-Session-Id');
        this.sessionId = sid;
        const initialized = await this.notify('notifications/initialized');
        assert.equal(initialized.status, 202, `notifications/initialized on ${initialized.node.name}: ${initialized.text}`);
        return init;
    }

    // GET: the session's standalone stream (or a resumption with Last-Event-ID).
    async get({ node, lastEventId, timeoutMs = 10_000 } = {}) {
        const target = this.pick(node);
        this.history.push([target.name, lastEventId ? 'GET (Last-Event-ID)' : 'GET']);
        const controller = new AbortController();
        this.controllers.add(controller);
        const timer = setTimeout(() => controller.abort(new Error(`no GET response head from ${target.name} within ${timeoutMs} ms`)), timeoutMs);
        const headers = { accept: 'text/event-stream', 'mcp-session-id': this.sessionId, 'mcp-protocol-version': LEGACY };
        if (lastEventId) headers['last-event-id'] = lastEventId;
        try {
            const res = await fetch(target.url, { headers, signal: controller.signal });
            const ok = res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
            return {
                node: target,
                status: res.status,
                res,
                reader: ok ? new SseReader(res) : undefined,
                text: ok ? undefined : await withTimeout(res.text(), timeoutMs, 'the GET error body'),
                abort: () => controller.abort(),
            };
        } finally {
            clearTimeout(timer);
        }
    }

    async delete({ node, timeoutMs = 10_000 } = {}) {
        const target = this.pick(node);
        this.history.push([target.name, 'DELETE']);
        const res = await fetch(target.url, {
            method: 'DELETE',
            headers: { 'mcp-session-id': this.sessionId, 'mcp-protocol-version': LEGACY },
            signal: AbortSignal.timeout(timeoutMs),
        });
        return { status: res.status, text: await res.text(), node: target };
    }

    // Asserts that no two consecutive HTTP requests went to the same node.
    assertSwitchedEveryTime() {
        for (let i = 1; i < this.history.length; ++i) {
            assert.notEqual(this.history[i][0], this.history[i - 1][0],
                `requests ${i - 1} and ${i} went to the same node: ${JSON.stringify(this.history)}`);
        }
    }

    close() {
        for (const c of this.controllers) c.abort();
        this.controllers.clear();
    }
}

// The text of a tools/call result (first block), asserting it is text.
export function toolText(message, what = 'the tool call') {
    assert.ok(message, `${what}: no response`);
    assert.equal(message.error, undefined, `${what}: ${JSON.stringify(message.error)}`);
    assert.equal(message.result?.content?.[0]?.type, 'text', `${what}: ${JSON.stringify(message)}`);
    return message.result.content[0].text;
}

// Runs `fn` over `items` with at most `limit` at once; resolves with the results in order.
export async function mapLimit(items, limit, fn) {
    const results = new Array(items.length);
    let next = 0;
    const worker = async () => {
        while (next < items.length) {
            const i = next++;
            results[i] = await fn(items[i], i);
        }
    };
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
    return results;
}

// ---------------------------------------------------------------------------------------------
// A round-robin HTTP load balancer in front of nodes, for clients that take one URL (the SDKs): each
// POST goes to the next node in turn (GETs and DELETEs take turns of their own, so that a session's
// standalone stream does not change which node the next POST reaches). `history` records
// {node, what} per POST: the JSON-RPC method, "response" for an answer to the server, and
// " (retry)" for a 2026 request carrying inputResponses. A node that cannot be reached is a 502.

export class RoundRobinBalancer {
    static async start(nodes) {
        const balancer = new RoundRobinBalancer(nodes);
        await new Promise((resolve) => balancer.server.listen(0, '127.0.0.1', resolve));
        balancer.url = `http://127.0.0.1:${balancer.server.address().port}/mcp`;
        return balancer;
    }

    constructor(nodes) {
        this.nodes = nodes;
        this.posts = 0;
        this.others = 0;
        this.history = [];
        this.server = createHttpServer((req, res) => {
            this.#forward(req, res).catch(() => res.destroy());
        });
    }

    // The POSTs of `what` (a method, "response"), in order.
    postsOf(what) {
        return this.history.filter((h) => h.what === what || h.what === `${what} (retry)`);
    }

    static #describe(body) {
        try {
            const m = JSON.parse(body);
            if (!m || Array.isArray(m)) return 'batch';
            if (!('method' in m)) return 'response';
            return m.params?.inputResponses ? `${m.method} (retry)` : m.method;
        } catch {
            return 'not JSON';
        }
    }

    async #forward(req, res) {
        const chunks = [];
        for await (const chunk of req) chunks.push(chunk);
        const body = Buffer.concat(chunks);
        const post = req.method === 'POST';
        const node = this.nodes[(post ? this.posts++ : this.others++) % this.nodes.length];
        if (post) this.history.push({ node: node.name, what: RoundRobinBalancer.#describe(body.toString('utf8')) });
        const headers = { ...req.headers };
        for (const h of ['host', 'connection', 'content-length', 'transfer-encoding']) delete headers[h];
        const controller = new AbortController();
        res.on('close', () => controller.abort());
        let upstream;
        try {
            upstream = await fetch(node.url, { method: req.method, headers, body: post ? body : undefined, signal: controller.signal });
        } catch {
            res.writeHead(502, { 'content-type': 'text/plain' });
            res.end(`node ${node.name} cannot be reached`);
            return;
        }
        const out = {};
        upstream.headers.forEach((value, name) => {
            if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) out[name] = value;
        });
        res.writeHead(upstream.status, out);
        try {
            if (upstream.body) for await (const chunk of upstream.body) res.write(chunk);
        } catch {
            // the client or the node went away mid-stream
        }
        res.end();
    }

    close() {
        this.server.closeAllConnections();
        return new Promise((resolve) => this.server.close(() => resolve()));
    }
}

// A note name no other test of this process uses.
let slugCounter = 0;
export const freshSlug = (prefix) => `${prefix}-${process.pid % 10000}-${++slugCounter}`;
