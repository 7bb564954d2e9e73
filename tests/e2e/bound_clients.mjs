// Clients of the fairness tests (http_fairness, cluster_fairness), each from a source address of
// its own: Linux routes all of 127.0.0.0/8 to lo, so binding a socket's local address to
// 127.0.0.2, 127.0.0.3… makes as many clients as the server can tell apart. They speak raw
// HTTP/1.1 (node:http and node:net), as a hostile client would; every wait is bounded.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';

import { modernHeaders, modernRequest, parseSse, sseMessages, SseReader, withTimeout } from './helpers.mjs';

export const LEGACY = '2025-11-25';
const ACCEPT = 'application/json, text/event-stream';

// The n-th client address, n from 0: 127.0.0.2 … 127.0.0.254, then 127.0.1.2 …
export function clientAddress(n) {
    return `127.0.${Math.floor(n / 253)}.${2 + (n % 253)}`;
}

// A response whose head came: its status and headers, its body still to read.
export class Answer {
    constructor(res) {
        this.res = res;
        this.status = res.statusCode;
        this.headers = res.headers;
        this.streaming = (res.headers['content-type'] ?? '').startsWith('text/event-stream');
    }

    // The body read to its end: its text and the JSON-RPC messages in it.
    async whole(timeoutMs = 10_000) {
        const chunks = [];
        const ended = new Promise((resolve, reject) => {
            this.res.on('data', (c) => chunks.push(c));
            this.res.on('end', resolve);
            this.res.on('error', reject);
        });
        await withTimeout(ended, timeoutMs, `the body of a ${this.status} answer`);
        const text = Buffer.concat(chunks).toString('utf8');
        const messages = this.streaming ? sseMessages(parseSse(text, { complete: true })) : text ? [JSON.parse(text)] : [];
        return { status: this.status, headers: this.headers, text, messages };
    }

    // The body as events, read as they come (an SSE stream that stays open).
    events() {
        return new SseReader({ body: Readable.toWeb(this.res) });
    }

    // The connection goes: for 2026 that cancels, for 2025 it does not.
    close() {
        this.res.destroy();
    }
}

export class BoundClient {
    constructor(url, localAddress) {
        this.url = new URL(url);
        this.localAddress = localAddress;
        this.sessionId = undefined;
        this.nextId = 1;
    }

    // One request on a connection of its own, answered once the head comes.
    open(method, headers, body, timeoutMs = 10_000) {
        const answer = new Promise((resolve, reject) => {
            const req = http.request({
                host: this.url.hostname,
                port: this.url.port,
                path: this.url.pathname,
                method,
                headers: { host: this.url.host, ...headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) },
                localAddress: this.localAddress,
                agent: false,
            }, (res) => resolve(new Answer(res)));
            req.on('error', reject);
            if (body) req.write(body);
            req.end();
        });
        return withTimeout(answer, timeoutMs, `the head of the answer to ${method} from ${this.localAddress}`);
    }

    async exchange(method, headers, body, timeoutMs = 10_000) {
        return (await this.open(method, headers, body, timeoutMs)).whole(timeoutMs);
    }

    // ---- 2025-11-25: a session.
    legacyHeaders() {
        return {
            'content-type': 'application/json',
            accept: ACCEPT,
            'mcp-protocol-version': LEGACY,
            ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}),
        };
    }

    // initialize (and notifications/initialized unless `halfOpen`); the answer.
    async initialize({ capabilities = {}, halfOpen = false } = {}) {
        const r = await this.exchange('POST', { 'content-type': 'application/json', accept: ACCEPT }, JSON.stringify({
            jsonrpc: '2.0', id: 0, method: 'initialize',
            params: { protocolVersion: LEGACY, capabilities, clientInfo: { name: `client-${this.localAddress}`, version: '1' } },
        }));
        if (r.status !== 200) return r;
        this.sessionId = r.headers['mcp-session-id'];
        if (!halfOpen) {
            const ack = await this.exchange('POST', this.legacyHeaders(), JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
            assert.equal(ack.status, 202, `notifications/initialized from ${this.localAddress}: ${ack.text}`);
        }
        return r;
    }

    // A request in the session, its answer's head come (the body may be a stream).
    call(method, params = {}) {
        const id = this.nextId++;
        return this.open('POST', this.legacyHeaders(), JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    }

    // The session's GET stream.
    getStream() {
        return this.open('GET', { accept: 'text/event-stream', 'mcp-session-id': this.sessionId, 'mcp-protocol-version': LEGACY });
    }

    // ---- 2026-07-28: stateless requests.
    modern(method, params = {}, capabilities = {}) {
        const message = modernRequest(this.nextId++, method, params, { 'io.modelcontextprotocol/clientCapabilities': capabilities });
        return this.open('POST', modernHeaders(message), JSON.stringify(message));
    }

    // subscriptions/listen for tool list changes: the answer's head (200 and a stream, or a refusal).
    listen() {
        return this.modern('subscriptions/listen', { notifications: { toolsListChanged: true } });
    }
}

// `n` initialize requests pipelined on one kept-alive connection from `localAddress`, none followed
// by anything else: how many answers of each status, whether every refusal said Retry-After, and
// the session ids given.
export async function floodInitialize(url, localAddress, n, timeoutMs = 30_000) {
    const target = new URL(url);
    const body = JSON.stringify({
        jsonrpc: '2.0', id: 1, method: 'initialize',
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
    });
    const request = `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\n`
        + `Accept: ${ACCEPT}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const socket = net.connect({ host: target.hostname, port: Number(target.port), localAddress });
    socket.on('error', () => {});
    const statuses = new Map();
    const sessions = [];
    let retryAfterEverywhere = true;
    let buffer = Buffer.alloc(0);
    const done = new Promise((resolve, reject) => {
        let answered = 0;
        socket.on('data', (chunk) => {
            buffer = Buffer.concat([buffer, chunk]);
            for (;;) {
                const end = buffer.indexOf('\r\n\r\n');
                if (end < 0) return;
                const head = buffer.subarray(0, end).toString('latin1');
                const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? NaN);
                if (Number.isNaN(length)) return reject(new Error(`an answer without Content-Length: ${head}`));
                if (buffer.length < end + 4 + length) return;
                const status = Number(head.slice(9, 12));
                statuses.set(status, (statuses.get(status) ?? 0) + 1);
                if (status === 200) sessions.push(/\r\nmcp-session-id: (\S+)/i.exec(head)[1]);
                else if (!/\r\nretry-after: \d+/i.test(head)) retryAfterEverywhere = false;
                buffer = buffer.subarray(end + 4 + length);
                if (++answered === n) return resolve();
            }
        });
        socket.on('close', () => reject(new Error(`the connection closed after ${answered} of ${n} answers`)));
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    // In batches, so that the kernel's buffers and the server's reads keep pace.
    for (let sent = 0; sent < n; sent += 500) socket.write(request.repeat(Math.min(500, n - sent)));
    try {
        await withTimeout(done, timeoutMs, `${n} answers to initialize from ${localAddress}`);
    } finally {
        socket.destroy();
    }
    return { statuses, sessions, retryAfterEverywhere };
}

// The value of a series in a Prometheus text exposition (0 when absent).
export function seriesValue(exposition, name, labels = {}) {
    for (const line of exposition.split('\n')) {
        if (!line.startsWith(name)) continue;
        const m = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
        if (!m || m[1] !== name) continue;
        const have = Object.fromEntries((m[2] ?? '').split(',').filter(Boolean).map((kv) => {
            const [k, v] = kv.split('=');
            return [k, v.replace(/^"|"$/g, '')];
        }));
        if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
    }
    return 0;
}
