// Shared helpers of the end-to-end tests: where the demo binary is, bounded waits, PNG decoding.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

// The server under test: set by ctest (tests/e2e/CMakeLists.txt), or by hand for `node --test`.
export function demoBinary() {
    const path = process.env.MCP_CPP_DEMO;
    assert.ok(path, 'MCP_CPP_DEMO must name the mcp-cpp-demo binary (ctest sets it)');
    assert.ok(existsSync(path), `MCP_CPP_DEMO=${path} does not exist: build the mcp-cpp-demo target first`);
    return path;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
