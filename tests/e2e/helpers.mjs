// Shared helpers of the end-to-end tests: where the demo binary is, bounded waits, PNG decoding,
// the demo over Streamable HTTP, a recording fetch, SSE parsing and the 2026-07-28 envelope.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect as netConnect, createServer as createNetServer } from 'node:net';
import { inflateSync } from 'node:zlib';

// A program under test, named by `variable`: set by ctest (tests/e2e/CMakeLists.txt), or by hand
// for `node --test`.
export function binary(variable, target) {
    const path = process.env[variable];
    assert.ok(path, `${variable} must name the ${target} binary (ctest sets it)`);
    assert.ok(existsSync(path), `${variable}=${path} does not exist: build the ${target} target first`);
    return path;
}

export const demoBinary = () => binary('MCP_CPP_DEMO', 'mcp-cpp-demo');

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// How many times slower and bigger the server under test is than a plain build: scripts/tsan.sh
// sets MCP_E2E_SCALE for ThreadSanitizer, the sanitize test preset for ASan at -O0. Waits that must
// outlast the server's work, and bounds on its memory, are multiplied by it (and the tests say so).
export const SCALE = Number(process.env.MCP_E2E_SCALE || 1);
if (SCALE !== 1) console.log(`MCP_E2E_SCALE=${SCALE}: waits for the server and its memory bounds are ${SCALE} times longer`);

// Polls `check` until it returns a truthy value, failing after `timeoutMs` with `what` in the message.
export async function waitUntil(check, timeoutMs, what) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const value = await check();
        if (value) return value;
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await sleep(10);
    }
}

// Rejects with a clear message when `promise` does not settle within `timeoutMs`.
export function withTimeout(promise, timeoutMs, what) {
    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const CRC_TABLE = (() => {
    const table = new Uint32Array(256);
    for (let i = 0; i < 256; ++i) {
        let c = i;
        for (let k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        table[i] = c >>> 0;
    }
    return table;
})();

function crc32(bytes) {
    let crc = 0xffffffff;
    for (const b of bytes) crc = CRC_TABLE[(crc ^ b) & 0xff] ^ (crc >>> 8);
    return (crc ^ 0xffffffff) >>> 0;
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// Decodes an 8-bit RGB or RGBA, non-interlaced PNG strictly: signature, chunk CRCs, IHDR first,
// IEND last, zlib checksum, every scanline filter. Returns {width, height, channels, pixel(x, y)}.
export function decodePng(buf) {
    assert.ok(buf.length >= 8 && buf.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature');
    let pos = 8;
    const chunks = [];
    while (pos < buf.length) {
        assert.ok(pos + 12 <= buf.length, 'PNG chunk header runs past the end');
        const length = buf.readUInt32BE(pos);
        const type = buf.toString('latin1', pos + 4, pos + 8);
        const body = buf.subarray(pos + 8, pos + 8 + length);
        assert.equal(body.length, length, `PNG chunk ${type} is truncated`);
        const crc = buf.readUInt32BE(pos + 8 + length);
        assert.equal(crc, crc32(buf.subarray(pos + 4, pos + 8 + length)), `CRC of PNG chunk ${type}`);
        chunks.push({ type, body });
        pos += 12 + length;
    }
    assert.equal(chunks[0]?.type, 'IHDR', 'the first PNG chunk is IHDR');
    assert.equal(chunks.at(-1)?.type, 'IEND', 'the last PNG chunk is IEND');
    const ihdr = chunks[0].body;
    const width = ihdr.readUInt32BE(0);
    const height = ihdr.readUInt32BE(4);
    const [depth, colorType, , , interlace] = ihdr.subarray(8, 13);
    assert.equal(depth, 8, 'bit depth');
    assert.ok(colorType === 2 || colorType === 6, `colour type ${colorType} (want RGB or RGBA)`);
    assert.equal(interlace, 0, 'interlace');
    const channels = colorType === 2 ? 3 : 4;
    const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.body)));
    const stride = width * channels;
    assert.equal(raw.length, height * (stride + 1), 'decompressed image size');

    const pixels = Buffer.alloc(height * stride);
    for (let y = 0; y < height; ++y) {
        const filter = raw[y * (stride + 1)];
        const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
        for (let i = 0; i < stride; ++i) {
            const a = i >= channels ? pixels[y * stride + i - channels] : 0;
            const b = y > 0 ? pixels[(y - 1) * stride + i] : 0;
            const c = y > 0 && i >= channels ? pixels[(y - 1) * stride + i - channels] : 0;
            let predicted;
            switch (filter) {
                case 0: predicted = 0; break;
                case 1: predicted = a; break;
                case 2: predicted = b; break;
                case 3: predicted = (a + b) >> 1; break;
                case 4: {
                    const p = a + b - c;
                    const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
                    predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
                    break;
                }
                default: assert.fail(`PNG row ${y} has unknown filter type ${filter}`);
            }
            pixels[y * stride + i] = (line[i] + predicted) & 0xff;
        }
    }
    const pixel = (x, y) => [...pixels.subarray(y * stride + x * channels, y * stride + (x + 1) * channels)];
    return { width, height, channels, pixel };
}

// A strict checker for the JSON Schema subset tools' outputSchema use here (type, properties,
// required, items, enum). Returns a list of problems, empty when `value` fits.
export function schemaProblems(schema, value, path = '$') {
    const problems = [];
    const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
    if (schema.type) {
        const actual = typeOf(value);
        const ok = schema.type === actual || (schema.type === 'number' && actual === 'integer');
        if (!ok) return [`${path}: expected ${schema.type}, got ${actual}`];
    }
    if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
        problems.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
    }
    if (schema.type === 'object') {
        for (const key of schema.required ?? []) {
            if (!(key in value)) problems.push(`${path}: missing required property ${key}`);
        }
        for (const [key, sub] of Object.entries(schema.properties ?? {})) {
            if (key in value) problems.push(...schemaProblems(sub, value[key], `${path}.${key}`));
        }
        if (schema.additionalProperties === false) {
            for (const key of Object.keys(value)) {
                if (!(key in (schema.properties ?? {}))) problems.push(`${path}: unexpected property ${key}`);
            }
        }
    }
    if (schema.type === 'array' && schema.items) {
        value.forEach((item, i) => problems.push(...schemaProblems(schema.items, item, `${path}[${i}]`)));
    }
    return problems;
}

// A demo server driven through raw stdin/stdout lines, for what no SDK would send. Every wait is
// bounded; close() (call it from an after hook or finally block) always leaves no process behind.
export class RawServer {
    constructor(args = [], { env = {} } = {}) {
        this.child = spawn(demoBinary(), args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
        this.lines = [];  // {raw, msg (undefined when not JSON), taken}
        this.stderr = '';
        this.waiters = new Set();
        this.exit = new Promise((resolve) => {
            this.child.once('close', (code, signal) => resolve({ code, signal }));
        });
        this.exitInfo = undefined;
        this.exit.then((info) => {
            this.exitInfo = info;
            this.#wake();
        });
        let partial = '';
        this.child.stdout.setEncoding('utf8');
        this.child.stdout.on('data', (chunk) => {
            partial += chunk;
            let nl;
            while ((nl = partial.indexOf('\n')) >= 0) {
                const raw = partial.slice(0, nl);
                partial = partial.slice(nl + 1);
                let msg;
                try {
                    msg = JSON.parse(raw);
                } catch {
                    msg = undefined;
                }
                this.lines.push({ raw, msg, taken: false });
            }
            this.#wake();
        });
        this.child.stdout.on('end', () => {
            if (partial) this.lines.push({ raw: partial, msg: undefined, taken: false, unterminated: true });
            partial = '';
            this.#wake();
        });
        this.child.stderr.setEncoding('utf8');
        this.child.stderr.on('data', (chunk) => {
            if (this.stderr.length < 1024 * 1024) this.stderr += chunk;
        });
        this.child.stdin.on('error', () => {});  // EPIPE once the server is gone: the waits report it
    }

    #wake() {
        for (const w of [...this.waiters]) w();
    }

    // Writes one line (a string as is, anything else as JSON) and resolves once it is handed to the pipe.
    send(message, timeoutMs = 10_000) {
        const line = (typeof message === 'string' ? message : JSON.stringify(message)) + '\n';
        return this.write(line, timeoutMs);
    }

    write(bytes, timeoutMs = 10_000) {
        const written = new Promise((resolve, reject) => {
            this.child.stdin.write(bytes, (err) => (err ? reject(err) : resolve()));
        });
        return withTimeout(written, timeoutMs, `the server to read ${bytes.length} bytes`);
    }

    endInput() {
        this.child.stdin.end();
    }

    // The first line not yet taken that satisfies `pred`, marked taken; fails after timeoutMs.
    take(pred, timeoutMs = 5000, what = 'a matching line') {
        return new Promise((resolve, reject) => {
            const check = () => {
                const line = this.lines.find((l) => !l.taken && pred(l));
                if (line) {
                    line.taken = true;
                    done();
                    resolve(line);
                } else if (this.exitInfo) {
                    done();
                    reject(new Error(`server exited (${JSON.stringify(this.exitInfo)}) before ${what}\n${this.#context()}`));
                }
            };
            const timer = setTimeout(() => {
                done();
                reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${this.#context()}`));
            }, timeoutMs);
            const done = () => {
                clearTimeout(timer);
                this.waiters.delete(check);
            };
            this.waiters.add(check);
            check();
        });
    }

    // The response (result or error) whose id is `id`, compared with its JSON type.
    response(id, timeoutMs = 5000) {
        return this.take(
            (l) => l.msg && !('method' in l.msg) && 'id' in l.msg && l.msg.id === id && ('result' in l.msg || 'error' in l.msg),
            timeoutMs, `the response to id ${JSON.stringify(id)}`);
    }

    // The next line not yet taken, whatever it is.
    next(timeoutMs = 5000) {
        return this.take(() => true, timeoutMs, 'the next line');
    }

    untaken() {
        return this.lines.filter((l) => !l.taken);
    }

    async request(id, method, params, timeoutMs = 5000) {
        await this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
        return (await this.response(id, timeoutMs)).msg;
    }

    async initialize(protocolVersion = '2025-11-25') {
        const init = await this.request('init', 'initialize', {
            protocolVersion,
            capabilities: {},
            clientInfo: { name: 'mcp-cpp-e2e-raw', version: '1.0.0' },
        });
        if (!init.result) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
        await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        return init.result;
    }

    // Waits for the process to exit by itself; fails (and kills it) after timeoutMs.
    async exited(timeoutMs = 10_000) {
        try {
            return await withTimeout(this.exit, timeoutMs, 'the server to exit');
        } catch (e) {
            this.child.kill('SIGKILL');
            throw e;
        }
    }

    // Ends stdin, then SIGTERM and SIGKILL if the server lingers. Always resolves.
    async close() {
        if (this.exitInfo) return this.exitInfo;
        try {
            this.child.stdin.end();
        } catch {
            // already closed
        }
        const wait = (ms) => Promise.race([this.exit, sleep(ms).then(() => undefined)]);
        let info = await wait(3000);
        if (!info) {
            this.child.kill('SIGTERM');
            info = await wait(2000);
        }
        if (!info) {
            this.child.kill('SIGKILL');
            info = await wait(2000);
        }
        return info;
    }

    #context() {
        const tail = this.lines.slice(-5).map((l) => `  ${l.taken ? ' ' : '*'} ${l.raw.slice(0, 300)}`).join('\n');
        return `last stdout lines (* = not taken):\n${tail || '  (none)'}\nstderr tail:\n${this.stderr.slice(-1500)}`;
    }
}

// Runs the demo with `args` and stdin at EOF, collecting its output; killed after timeoutMs.
export function runDemo(args, timeoutMs = 10_000) {
    return new Promise((resolve, reject) => {
        const child = spawn(demoBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
        child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
        const timer = setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`mcp-cpp-demo ${args.join(' ')} did not exit within ${timeoutMs} ms`));
        }, timeoutMs);
        child.once('error', (e) => {
            clearTimeout(timer);
            reject(e);
        });
        child.once('close', (code, signal) => {
            clearTimeout(timer);
            resolve({ code, signal, stdout, stderr });
        });
    });
}

// ---------------------------------------------------------------------------------------------
// Streamable HTTP: a demo server on a free loopback port, a recording fetch, SSE parsing.

// A TCP port on 127.0.0.1 that nothing listens on right now, outside the kernel's ephemeral
// range (below it, or above it when it starts low): servers restarted on their port (Redis in the
// fault tests) cannot lose it to an outgoing connection meanwhile.
const testPorts = (() => {
    let [low, high] = [32768, 60999];
    try {
        const [l, h] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
        if (Number.isInteger(l) && Number.isInteger(h)) [low, high] = [l, h];
    } catch {
        // not Linux: the defaults
    }
    return low - 20000 >= 1000 ? [20000, low] : [high + 1, 65536];
})();

function listensOn(port) {
    return new Promise((resolve) => {
        const srv = createNetServer();
        srv.unref();
        srv.once('error', () => resolve(false));
        srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
}

export async function freePort() {
    const [low, high] = testPorts;
    for (let attempt = 0; attempt < 200; attempt++) {
        const port = low + Math.floor(Math.random() * (high - low));
        if (await listensOn(port)) return port;
    }
    throw new Error('no free loopback port outside the ephemeral range');
}

// Resolves with the error of a TCP connection attempt to port (undefined when it connected);
// fails after timeoutMs, so a listener that accepts and never answers cannot hang a test.
export function tryConnect(port, timeoutMs = 3000) {
    return new Promise((resolve, reject) => {
        const socket = netConnect({ host: '127.0.0.1', port });
        const timer = setTimeout(() => {
            socket.destroy();
            reject(new Error(`a TCP connection attempt to port ${port} neither connected nor failed within ${timeoutMs} ms`));
        }, timeoutMs);
        socket.once('connect', () => {
            clearTimeout(timer);
            socket.destroy();
            resolve(undefined);
        });
        socket.once('error', (e) => {
            clearTimeout(timer);
            resolve(e);
        });
    });
}

// mcp-cpp-demo serving Streamable HTTP on 127.0.0.1:<free port>. start() resolves once the
// server said it is serving; close() (call it from an after hook) leaves no process behind.
export class HttpDemo {
    // `port`: a port chosen beforehand (the test needed the URL first); tried once. `scheme`:
    // https when args make the demo serve TLS. `binary`: another mcp::run program than the demo.
    static async start(args = [], { env = {}, attempts = 3, port, scheme = 'http', binary } = {}) {
        let lastError;
        for (let i = 0; i < (port ? 1 : attempts); ++i) {
            const demo = new HttpDemo(port ?? (await freePort()), args, env, scheme, binary);
            try {
                await demo.#ready();
                return demo;
            } catch (e) {
                lastError = e;
                await demo.close();
                // Another process may have taken the port between freePort() and the bind: retry.
                if (!/exited/.test(String(e))) break;
            }
        }
        throw lastError;
    }

    constructor(port, args, env, scheme = 'http', binary = demoBinary()) {
        this.port = port;
        this.url = `${scheme}://127.0.0.1:${port}/mcp`;
        this.args = ['--http', `127.0.0.1:${port}`, ...args];
        this.child = spawn(binary, this.args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
        this.stderr = '';
        this.exitInfo = undefined;
        this.exit = new Promise((resolve) => this.child.once('close', (code, signal) => resolve({ code, signal })));
        this.exit.then((info) => {
            this.exitInfo = info;
        });
        this.child.stderr.setEncoding('utf8').on('data', (chunk) => {
            if (this.stderr.length < 1024 * 1024) this.stderr += chunk;
        });
    }

    async #ready(timeoutMs = 10_000) {
        const banner = `serving MCP on ${this.url}`;
        await waitUntil(() => {
            if (this.stderr.includes(banner)) return true;
            if (this.exitInfo) {
                throw new Error(`mcp-cpp-demo ${this.args.join(' ')} exited (${JSON.stringify(this.exitInfo)}) before serving:\n${this.stderr}`);
            }
            return false;
        }, timeoutMs, `mcp-cpp-demo to print "${banner}"`);
    }

    signal(name) {
        if (!this.exitInfo) this.child.kill(name);
    }

    // Waits for the process to exit by itself; fails (and kills it) after timeoutMs.
    async exited(timeoutMs = 10_000) {
        try {
            return await withTimeout(this.exit, timeoutMs, 'the HTTP server to exit');
        } catch (e) {
            this.child.kill('SIGKILL');
            throw e;
        }
    }

    // SIGTERM, then SIGKILL if the server lingers. Always resolves.
    async close() {
        if (this.exitInfo) return this.exitInfo;
        const wait = (ms) => Promise.race([this.exit, sleep(ms).then(() => undefined)]);
        this.child.kill('SIGTERM');
        let info = await wait(5000);
        if (!info) {
            this.child.kill('SIGKILL');
            info = await wait(2000);
        }
        return info;
    }

    stderrTail(chars = 2000) {
        return this.stderr.slice(-chars);
    }
}

// Splits a text/event-stream body into events {id, event, data, retry}; comment lines are
// dropped, multi-line data joined with \n, a trailing partial event kept only when `complete`.
export function parseSse(text, { complete = false } = {}) {
    const events = [];
    const blocks = text.replace(/\r\n?/g, '\n').split('\n\n');
    const whole = complete ? blocks : blocks.slice(0, -1);
    for (const block of whole) {
        if (!block) continue;
        const ev = {};
        const data = [];
        for (const line of block.split('\n')) {
            if (line === '' || line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            let value = colon < 0 ? '' : line.slice(colon + 1);
            if (value.startsWith(' ')) value = value.slice(1);
            if (field === 'data') data.push(value);
            else if (field === 'id' || field === 'event' || field === 'retry') ev[field] = value;
        }
        if (data.length) ev.data = data.join('\n');
        if (Object.keys(ev).length) events.push(ev);
    }
    return events;
}

// The JSON-RPC messages of SSE events (events without data, like priming events, skipped).
export const sseMessages = (events) => events.filter((e) => e.data).map((e) => JSON.parse(e.data));

// A fetch for SDK transports that records every exchange: the request (method, headers, body)
// and the response (status, headers, body text as it streams). The body handed on is a
// pass-through of the original one: cancelling it closes the connection as it would unwrapped.
// `intercept(exchange, chunkText)` returning true cuts the connection after that chunk.
export class HttpRecorder {
    constructor({ intercept } = {}) {
        this.exchanges = [];
        this.intercept = intercept;
        this.fetch = this.#fetch.bind(this);
    }

    async #fetch(input, init = {}) {
        const request = new Request(input, init);
        const requestBody = init.body === undefined || init.body === null ? undefined : String(init.body);
        const exchange = {
            method: request.method,
            url: request.url,
            requestHeaders: Object.fromEntries(request.headers),
            requestBody,
            message: requestBody === undefined ? undefined : JSON.parse(requestBody),
            status: undefined,
            responseHeaders: undefined,
            body: '',
            ended: false,
            error: undefined,
        };
        this.exchanges.push(exchange);
        let response;
        try {
            response = await fetch(input, init);
        } catch (e) {
            exchange.error = e;
            exchange.ended = true;
            throw e;
        }
        exchange.status = response.status;
        exchange.responseHeaders = Object.fromEntries(response.headers);
        if (!response.body) {
            exchange.ended = true;
            return response;
        }
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        const intercept = this.intercept;
        const body = new ReadableStream({
            async pull(controller) {
                if (exchange.cut) {
                    // Cut after the consumer took the chunk that asked for it (erroring the stream
                    // at once would discard that chunk): close the connection, fail the read.
                    exchange.ended = true;
                    await reader.cancel().catch(() => {});
                    controller.error(new Error('connection cut by the test'));
                    return;
                }
                let chunk;
                try {
                    chunk = await reader.read();
                } catch (e) {
                    exchange.error = e;
                    exchange.ended = true;
                    controller.error(e);
                    return;
                }
                if (chunk.done) {
                    exchange.body += decoder.decode();
                    exchange.ended = true;
                    controller.close();
                    return;
                }
                const text = decoder.decode(chunk.value, { stream: true });
                exchange.body += text;
                controller.enqueue(chunk.value);
                if (!exchange.cut && intercept?.(exchange, text)) exchange.cut = true;
            },
            cancel(reason) {
                exchange.ended = true;
                exchange.cancelled = true;
                return reader.cancel(reason);
            },
        });
        return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    }

    // The exchanges whose request body is a JSON-RPC message matching pred (e.g. by method).
    find(pred) {
        return this.exchanges.filter((x) => x.message !== undefined && pred(x.message));
    }

    // The POST exchange that carried the request with this method and predicate on params.
    posted(method, pred = () => true) {
        return this.find((m) => m.method === method && pred(m.params ?? {}));
    }

    events(exchange) {
        return parseSse(exchange.body, { complete: exchange.ended });
    }

    // Every JSON-RPC message the server sent in a response body (JSON or SSE), with its exchange.
    received() {
        const out = [];
        for (const x of this.exchanges) {
            const type = (x.responseHeaders?.['content-type'] ?? '').split(';')[0].trim();
            if (type === 'text/event-stream') {
                for (const m of sseMessages(this.events(x))) out.push({ exchange: x, message: m });
            } else if (type === 'application/json' && x.ended && x.body) {
                out.push({ exchange: x, message: JSON.parse(x.body) });
            }
        }
        return out;
    }
}

// Wraps an SDK transport so every JSON-RPC message it hands to the client and every one the
// client sends is recorded in wire.received / wire.sent (in order).
export function tapTransport(transport) {
    const wire = { received: [], sent: [] };
    let inner;
    Object.defineProperty(transport, 'onmessage', {
        configurable: true,
        get: () => inner,
        set: (fn) => {
            inner = fn && ((message, extra) => {
                wire.received.push(message);
                fn(message, extra);
            });
        },
    });
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
        wire.sent.push(message);
        return send(message, options);
    };
    return wire;
}

// ---------------------------------------------------------------------------------------------
// The 2026-07-28 wire by hand: the _meta envelope and the headers a request must carry.
export const MODERN = '2026-07-28';
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export function modernRequest(id, method, params = {}, extraMeta = {}) {
    return {
        jsonrpc: '2.0',
        id,
        method,
        params: {
            ...params,
            _meta: {
                [META_PROTOCOL_VERSION]: MODERN,
                [META_CLIENT_INFO]: { name: 'mcp-cpp-e2e-raw', version: '1.0.0' },
                [META_CLIENT_CAPABILITIES]: {},
                ...extraMeta,
                ...(params._meta ?? {}),
            },
        },
    };
}

export function modernHeaders(message) {
    const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': message.method,
    };
    if (message.method === 'tools/call' || message.method === 'prompts/get') headers['mcp-name'] = message.params.name;
    if (message.method === 'resources/read') headers['mcp-name'] = message.params.uri;
    return headers;
}

// Reads an SSE response body incrementally: next(pred) resolves with the next event whose
// message satisfies pred (events without data are kept in `all` but never matched).
export class SseReader {
    constructor(response) {
        this.response = response;
        this.reader = response.body.getReader();
        this.decoder = new TextDecoder();
        this.text = '';
        this.events = [];
        this.consumed = 0;
        this.done = false;
        this.error = undefined;  // set when the stream ended by a broken connection
    }

    async #more() {
        let value;
        let done;
        try {
            ({ value, done } = await this.reader.read());
        } catch (e) {
            // The connection broke (reset, or closed mid-chunk): the stream is over.
            this.error = e;
            done = true;
        }
        if (done) {
            this.text += this.decoder.decode();
            this.done = true;
        } else {
            this.text += this.decoder.decode(value, { stream: true });
        }
        this.events = parseSse(this.text, { complete: this.done });
    }

    // The next event carrying a JSON-RPC message that satisfies pred; fails after timeoutMs or at the end.
    async next(pred = () => true, timeoutMs = 5000, what = 'an SSE event') {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            while (this.consumed < this.events.length) {
                const ev = this.events[this.consumed++];
                if (!ev.data) continue;
                const message = JSON.parse(ev.data);
                if (pred(message)) return { event: ev, message };
            }
            if (this.done) {
                const how = this.error ? ` (${this.error.message}${this.error.cause ? `: ${this.error.cause.message}` : ''})` : '';
                throw new Error(`the SSE stream ended${how} before ${what}; it held:\n${this.text.slice(-2000)}`);
            }
            const left = deadline - Date.now();
            if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the stream held:\n${this.text.slice(-2000)}`);
            await withTimeout(this.#more(), left, what);
        }
    }

    // Everything until the stream ends (bounded).
    async rest(timeoutMs = 5000) {
        const deadline = Date.now() + timeoutMs;
        while (!this.done) {
            const left = deadline - Date.now();
            if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for the SSE stream to end`);
            await withTimeout(this.#more(), left, 'the end of the SSE stream');
        }
        return this.events;
    }

    async cancel() {
        try {
            await this.reader.cancel();
        } catch {
            // already closed
        }
    }
}
