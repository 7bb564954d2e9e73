// Hostile HTTP input against the real demo binary: every limit of the HTTP transport, each shown
// to hold while the server keeps serving everyone else.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { after, describe, test } from 'node:test';

import { SCALE, demoBinary, freePort, parseSse, sleep, sseMessages, waitUntil, withTimeout } from './helpers.mjs';

const ACCEPT = 'application/json, text/event-stream';
const servers = [];

// Starts the demo over HTTP with extra flags; resolves once it answers.
async function startServer(...flags) {
    const port = await freePort();
    const child = spawn(demoBinary(), ['--http', `127.0.0.1:${port}`, '--log-level', 'warn', ...flags], {
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const server = { child, port, url: `http://127.0.0.1:${port}/mcp`, stderr: () => stderr };
    servers.push(server);
    await waitUntil(
        async () => {
            if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
            return (await fetch(server.url, { method: 'GET' }).catch(() => null)) !== null;
        },
        5000,
        'the server to listen',
    );
    return server;
}

after(async () => {
    for (const s of servers) {
        if (s.child.exitCode === null) s.child.kill('SIGKILL');
    }
});

const modernMeta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'hostile', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
};

// A 2026-07-28 request with its routing headers.
function modern(server, method, params = {}, id = 1, extra = {}) {
    const name = params.name ?? params.uri;
    return fetch(server.url, {
        method: 'POST',
        headers: {
            'content-type': 'application/json',
            accept: ACCEPT,
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': method,
            ...(name ? { 'mcp-name': name } : {}),
            ...extra,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: modernMeta } }),
    });
}

async function echoWorks(server, text = 'still serving') {
    const res = await modern(server, 'tools/call', { name: 'echo', arguments: { text } });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.result.content[0].text, text);
}

async function initialize(server) {
    const res = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT },
        body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'h', version: '1' } },
        }),
    });
    return res;
}

// Sends raw bytes on a fresh connection; resolves with everything received until the server
// closes (or `timeoutMs` passes, then `timedOut` is true).
function raw(port, chunks, { timeoutMs = 3000, gapMs = 0 } = {}) {
    return new Promise((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        let data = '';
        let done = false;
        const finish = (timedOut) => {
            if (done) return;
            done = true;
            socket.destroy();
            resolve({ data, timedOut });
        };
        const timer = setTimeout(() => finish(true), timeoutMs);
        socket.on('data', (d) => (data += d.toString('latin1')));
        socket.on('close', () => {
            clearTimeout(timer);
            finish(false);
        });
        socket.on('error', () => {});
        socket.on('connect', async () => {
            for (const c of chunks) {
                if (socket.destroyed) return;
                socket.write(c);
                if (gapMs) await sleep(gapMs);
            }
        });
    });
}

describe('DNS rebinding', () => {
    test('a foreign Host or Origin is refused with 403 in both eras', async () => {
        const server = await startServer();
        for (const headers of [{ host: 'evil.example.com' }, { origin: 'http://evil.example.com' }, { origin: 'null' }]) {
            const res = await raw(server.port, [
                `POST /mcp HTTP/1.1\r\nHost: ${headers.host ?? `127.0.0.1:${server.port}`}\r\n` +
                    (headers.origin ? `Origin: ${headers.origin}\r\n` : '') +
                    `Content-Type: application/json\r\nAccept: ${ACCEPT}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
            ]);
            assert.match(res.data, /^HTTP\/1\.1 403/, JSON.stringify(headers));
        }
        const ok = await modern(server, 'server/discover', {}, 1, { origin: `http://localhost:${server.port}` });
        assert.equal(ok.status, 200);
    });

    test('two Host or two Origin headers get 400, whatever their values', async () => {
        const server = await startServer();
        for (const extra of ['Host: evil.example\r\n', 'Origin: http://127.0.0.1\r\nOrigin: http://evil.example\r\n']) {
            const res = await raw(server.port, [`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Connection: close\r\n\r\n`]);
            assert.match(res.data, /^HTTP\/1\.1 400 /, extra);
            assert.match(res.data, /more than one Host or Origin/, extra);
        }
        await echoWorks(server);
    });

    test('--allowed-hosts admits a configured name', async () => {
        const server = await startServer('--allowed-hosts', 'mcp.internal,127.0.0.1');
        const res = await raw(server.port, [
            `GET /mcp HTTP/1.1\r\nHost: mcp.internal:${server.port}\r\nConnection: close\r\n\r\n`,
        ]);
        assert.match(res.data, /^HTTP\/1\.1 405/);  // past the host check; GET without a session is 405
    });
});

describe('request limits', () => {
    test('a body over --max-message-bytes gets 413 and the server keeps serving', async () => {
        const server = await startServer('--max-message-bytes', '1KiB');
        const res = await modern(server, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(4000) } });
        assert.equal(res.status, 413);
        assert.equal((await res.json()).error.code, -32600);
        await echoWorks(server);
    });

    test('a head over --max-header-bytes gets 431', async () => {
        const server = await startServer('--max-header-bytes', '2KiB');
        const res = await raw(server.port, [
            `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`,
        ]);
        assert.match(res.data, /^HTTP\/1\.1 431/);
        await echoWorks(server);
    });

    test('nesting deeper than the limit is a parse error', async () => {
        const server = await startServer();
        const res = await fetch(server.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: ACCEPT },
            body: '['.repeat(100000),
        });
        assert.equal(res.status, 400);
        const body = await res.json();
        assert.equal(body.error.code, -32700);
        assert.equal(body.id, null);
    });

    test('malformed JSON, batches, wrong media types', async () => {
        const server = await startServer();
        const post = (body, headers = {}) =>
            fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body });
        let res = await post('{"jsonrpc":"2.0","id":1,');
        assert.equal(res.status, 400);
        assert.equal((await res.json()).error.code, -32700);
        res = await post('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
        assert.equal(res.status, 400);
        assert.equal((await res.json()).error.code, -32600);
        res = await post('{}', { accept: 'application/json' });
        assert.equal(res.status, 406);
        res = await post('{}', { 'content-type': 'text/plain' });
        assert.equal(res.status, 415);
        res = await raw(server.port, ['GARBAGE\r\n\r\n']);
        assert.equal(res.timedOut, false);  // the server hung up on it
        await echoWorks(server);
    });
});

describe('malformed HTTP', () => {
    const head = (extra) =>
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\nConnection: close\r\n${extra}\r\n`;
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const chunked = (rest) => head('Transfer-Encoding: chunked\r\n') + `${ping.length.toString(16)}\r\n${ping}\r\n${rest}`;
    const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

    test('bad framing gets 400 with a JSON-RPC error, and the server keeps serving', async () => {
        const server = await startServer();
        const cases = {
            'Content-Length and Transfer-Encoding': head('Content-Length: 5\r\nTransfer-Encoding: chunked\r\n') + `${ping.length.toString(16)}\r\n${ping}\r\n0\r\n\r\n`,
            'a negative Content-Length': head('Content-Length: -1\r\n'),
            'two different Content-Lengths': head('Content-Length: 5\r\nContent-Length: 6\r\n'),
            'a bad chunk size': head('Transfer-Encoding: chunked\r\n') + 'zz\r\n',
        };
        for (const [what, request] of Object.entries(cases)) {
            const res = await raw(server.port, [request]);
            assert.match(res.data, /^HTTP\/1\.1 400 /, what);
            const body = JSON.parse(res.data.slice(res.data.indexOf('\r\n\r\n') + 4));
            assert.equal(body.error.code, -32600, what);
            assert.equal(body.id, null, what);
            assert.match(body.error.message, /malformed HTTP/, what);
        }
        await echoWorks(server);
    });

    test('trailers and chunk lines are bounded: a 64 KiB trailer field or an endless chunk extension is cut, not buffered', async () => {
        const server = await startServer();
        // A trailer field of 64 KiB once made the HTTP parser throw outside the connection (a crash).
        for (const size of [65535, 1 << 20]) {
            const res = await raw(server.port, [chunked(`0\r\nX-Trailer: ${'a'.repeat(size)}\r\n\r\n`)]);
            assert.equal(res.timedOut, false, `a ${size} byte trailer field: the connection ends`);
            // The 400 may be lost to the reset of a connection closed with unread bytes.
            if (res.data) assert.match(res.data, /^HTTP\/1\.1 400 /);
            assert.equal(server.child.exitCode, null, `still running after a ${size} byte trailer field`);
        }
        const before = rssKiB(server.child.pid);
        const res = await raw(server.port, [head('Transfer-Encoding: chunked\r\n') + '5;ext=', ...Array(64).fill('a'.repeat(1 << 20))], { timeoutMs: 10_000 });
        assert.equal(res.timedOut, false, 'an endless chunk extension ends the connection');
        const grown = rssKiB(server.child.pid) - before;
        assert.ok(grown < 16 * 1024, `64 MiB of chunk extension grew the server by ${grown} KiB`);
        await echoWorks(server);
    });

    test('Expect: 100-continue for another path gets 404 at once, its body unread', async () => {
        const server = await startServer();
        const res = await raw(server.port, [
            `POST /elsewhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000000\r\nExpect: 100-continue\r\n\r\n`,
        ]);
        assert.equal(res.timedOut, false, 'answered without waiting for the body');
        assert.match(res.data, /^HTTP\/1\.1 404 /);
        assert.doesNotMatch(res.data, /100 Continue/);
        // On the endpoint the client is asked for its body.
        const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
        const ok = await raw(server.port, [
            `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\nConnection: close\r\n`
            + `Content-Length: ${ping.length}\r\nExpect: 100-continue\r\n\r\n`, ping], { gapMs: 100 });
        assert.match(ok.data, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 400 /);  // no session: the body was read
        assert.match(ok.data, /"id":1,/);
    });

    test('header bytes quoted in an error stay valid UTF-8', async () => {
        const server = await startServer();
        const res = await modern(server, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, 1, { 'mcp-name': '=?base64?gP8=?=' });
        assert.equal(res.status, 400);
        const text = new TextDecoder('utf-8', { fatal: true }).decode(await res.arrayBuffer());  // throws on invalid UTF-8
        const body = JSON.parse(text);
        assert.equal(body.error.code, -32020);
        assert.match(body.error.message, /\uFFFD/);
    });

    test('--max-header-bytes above 60 KiB is refused at startup (the parser cannot hold larger fields)', () => {
        const r = spawnSync(demoBinary(), ['--http', '127.0.0.1:0', '--max-header-bytes', '1MiB'], { encoding: 'utf8', timeout: 10_000 });
        assert.equal(r.status, 2, r.stderr);
        assert.match(r.stderr, /max-header-bytes/);
    });
});

describe('slow and idle clients', () => {
    test('a slowloris head is cut at --header-timeout without delaying others', async () => {
        const server = await startServer('--header-timeout', '500ms');
        const bytes = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(40)}\r\n`.split('');
        const slow = raw(server.port, bytes, { gapMs: 50, timeoutMs: 5000 });
        const started = Date.now();
        await echoWorks(server);  // served while the slow client trickles
        const result = await slow;
        assert.equal(result.timedOut, false, 'the server closed the slow connection');
        assert.ok(Date.now() - started < 4000);
        assert.doesNotMatch(result.data, /200 OK/);
    });

    test('a body that never arrives is cut at --body-timeout', async () => {
        const server = await startServer('--body-timeout', '300ms');
        const result = await raw(
            server.port,
            [`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\nContent-Length: 100\r\n\r\n{"a"`],
            { timeoutMs: 3000 },
        );
        assert.equal(result.timedOut, false);
    });

    test('an idle keep-alive connection is closed at --idle-timeout', async () => {
        const server = await startServer('--idle-timeout', '300ms');
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta } });
        const result = await raw(
            server.port,
            [`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\nContent-Length: ${body.length}\r\n\r\n${body}`],
            { timeoutMs: 3000 },
        );
        assert.match(result.data, /^HTTP\/1\.1 200/);
        assert.equal(result.timedOut, false, 'closed after the idle timeout');
    });

    test('a client that stops reading is dropped at --write-timeout; others are served', async () => {
        // Big enough to overflow the kernel's socket buffers on both ends of the loopback.
        const server = await startServer('--write-timeout', '300ms', '--max-message-bytes', '64MiB');
        const text = 'y'.repeat(40 * 1024 * 1024);
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text }, _meta: modernMeta } });
        const socket = net.connect(server.port, '127.0.0.1');
        socket.on('error', () => {});
        await new Promise((r) => socket.on('connect', r));
        socket.pause();  // read nothing while the server answers
        socket.write(
            `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\n` +
                `MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: echo\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
        );
        socket.write(body);
        await sleep(3000 * SCALE);  // well past the write timeout, once the server has the answer ready
        await echoWorks(server);
        // Now read: what the kernels buffered arrives, then the connection ends short of the answer.
        let received = 0;
        socket.on('data', (d) => (received += d.length));
        const closed = new Promise((r) => socket.on('close', r));
        socket.resume();
        await withTimeout(closed, 10000 * SCALE, 'the dropped connection to end');
        assert.ok(received < text.length, `received ${received} bytes: the whole answer was written`);
        await echoWorks(server);
    });

    test('connections dropped mid-request do not hurt the server', async () => {
        const server = await startServer();
        for (let i = 0; i < 50; ++i) {
            const s = net.connect(server.port, '127.0.0.1');
            s.on('error', () => {});
            s.on('connect', () => {
                s.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"`);
                s.resetAndDestroy();
            });
        }
        await sleep(200);
        await echoWorks(server);
    });
});

// Splits what a server wrote on one connection into HTTP responses, strictly, knowing what each
// request was: a response to HEAD ends at its head (a body after it is no response, and fails
// here); one to HTTP/1.0 is never chunked (its body, unless a length says otherwise, ends with the
// connection); 1xx, 204 and 304 have no body; anything else to HTTP/1.1 has a length or chunks.
// `asked`: [{ head, version }] in request order. Fails on anything left over.
function responsesOf(data, asked) {
    const responses = [];
    let at = 0;
    let index = 0;
    while (at < data.length) {
        assert.ok(index < asked.length, `bytes after the answers to ${asked.length} requests: ${JSON.stringify(data.slice(at, at + 200))}`);
        const end = data.indexOf('\r\n\r\n', at);
        assert.ok(end >= 0, `an unfinished head: ${JSON.stringify(data.slice(at, at + 200))}`);
        const [statusLine, ...lines] = data.slice(at, end).split('\r\n');
        const m = /^HTTP\/1\.([01]) (\d{3}) [^\r\n]*$/.exec(statusLine);
        assert.ok(m, `not a status line: ${JSON.stringify(statusLine)} (after ${responses.length} responses)`);
        const headers = {};
        for (const line of lines) {
            const colon = line.indexOf(':');
            assert.ok(colon > 0, `not a header field: ${JSON.stringify(line)}`);
            const name = line.slice(0, colon).toLowerCase();
            assert.ok(!(name in headers), `header ${name} twice`);
            headers[name] = line.slice(colon + 1).trim();
        }
        const status = Number(m[2]);
        const { head, version } = asked[index];
        const response = { status, version: `1.${m[1]}`, headers, body: '' };
        at = end + 4;
        const chunked = /chunked/i.test(headers['transfer-encoding'] ?? '');
        if (version === '1.0') {
            assert.equal(response.version, '1.0', `an HTTP/1.0 request is answered in HTTP/1.0: ${statusLine}`);
            assert.ok(!chunked, `a chunked answer to HTTP/1.0: ${statusLine}`);
            assert.ok(status !== 100, 'a 100 Continue to HTTP/1.0');
        }
        if (status >= 100 && status < 200) {
            responses.push(response);
            continue;  // an interim answer: the final one follows
        }
        if (head || status === 204 || status === 304) {
            // nothing follows the head
        } else if (chunked) {
            for (;;) {
                const lineEnd = data.indexOf('\r\n', at);
                assert.ok(lineEnd >= 0, 'an unfinished chunk size line');
                const size = parseInt(data.slice(at, lineEnd), 16);
                assert.ok(/^[0-9a-f]+$/i.test(data.slice(at, lineEnd)) && size >= 0, `a bad chunk size line ${JSON.stringify(data.slice(at, lineEnd))}`);
                at = lineEnd + 2;
                if (size === 0) {
                    assert.equal(data.slice(at, at + 2), '\r\n', 'the last chunk ends with an empty line');
                    at += 2;
                    break;
                }
                response.body += data.slice(at, at + size);
                assert.equal(data.slice(at + size, at + size + 2), '\r\n', 'a chunk ends with CRLF');
                at += size + 2;
            }
        } else if ('content-length' in headers) {
            const length = Number(headers['content-length']);
            assert.ok(data.length - at >= length, `a body shorter than its Content-Length ${length}`);
            response.body = data.slice(at, at + length);
            at += length;
        } else {
            assert.equal(version, '1.0', `an answer to HTTP/1.1 without a length or chunks: ${statusLine}`);
            response.body = data.slice(at);  // until the connection ended
            at = data.length;
        }
        responses.push(response);
        ++index;
    }
    return responses;
}

// One request on a connection of its own, answered and closed: the response, parsed strictly.
async function exchange(port, request, { head = request.startsWith('HEAD '), timeoutMs = 3000 } = {}) {
    const version = /^[A-Z]+ \S+ HTTP\/(1\.[01])\r\n/.exec(request)?.[1] ?? '1.1';
    const res = await raw(port, [request], { timeoutMs });
    assert.equal(res.timedOut, false, `the server closed the connection after answering ${JSON.stringify(request.slice(0, 60))}`);
    const responses = responsesOf(res.data, [{ head, version }]);
    assert.equal(responses.length, 1, `one answer to ${JSON.stringify(request.slice(0, 60))}: ${JSON.stringify(res.data)}`);
    return responses[0];
}

describe('HTTP/1.x framing', () => {
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';

    test('an answer to HEAD ends at its head, whatever the status, on the endpoint and the metrics listener', async () => {
        const metricsPort = await freePort();
        const server = await startServer('--max-header-bytes', '2KiB', '--max-message-bytes', '1KiB',
            '--metrics', `127.0.0.1:${metricsPort}`);
        const close = 'Connection: close\r\n';
        const cases = [
            [405, `HEAD /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${close}\r\n`],
            [403, `HEAD /mcp HTTP/1.1\r\nHost: evil.example\r\n${close}\r\n`],
            [403, `HEAD /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\n${close}\r\n`],
            [400, `HEAD /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n${close}\r\n`],
            [400, `HEAD /mcp HTTP/1.0\r\n\r\n`],  // no Host
            [404, `HEAD /elsewhere HTTP/1.1\r\nHost: 127.0.0.1\r\n${close}\r\n`],
            [431, `HEAD /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`],
            [413, `HEAD /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4000\r\n\r\n`],
            [400, `HEAD /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n`],
            [404, `HEAD /elsewhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n`],
        ];
        for (const [status, request] of cases) {
            const response = await exchange(server.port, request);
            assert.equal(response.status, status, request.slice(0, 80));
            assert.ok('content-length' in response.headers, `the length a GET would have had is said: ${request.slice(0, 80)}`);
        }
        // Kept alive after a HEAD answer: the next answer starts right after its head.
        const res = await raw(server.port, [`HEAD /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${close}\r\n`]);
        assert.deepEqual(responsesOf(res.data, [{ head: true, version: '1.1' }, { head: false, version: '1.1' }]).map((r) => r.status), [405, 405]);
        for (const [status, path] of [[200, '/metrics'], [200, '/healthz'], [200, '/readyz'], [404, '/nope']]) {
            const response = await exchange(metricsPort, `HEAD ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${close}\r\n`);
            assert.equal(response.status, status, path);
        }
        await echoWorks(server);
    });

    test('HTTP/1.0 is never answered chunked: plain answers, event streams, GET streams and resumptions end with the connection', async () => {
        const metricsPort = await freePort();
        const server = await startServer('--metrics', `127.0.0.1:${metricsPort}`, '--max-header-bytes', '2KiB',
            '--max-message-bytes', '1KiB');
        const post10 = (body, headers = '') =>
            `POST /mcp HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\n${headers}` +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
        const modernBody = (id, method, params) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...modernMeta, ...params._meta } } });
        const modernHead = (method, name) => `MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: ${method}\r\n${name ? `Mcp-Name: ${name}\r\n` : ''}`;

        // Plain JSON, kept alive when asked: two answers on one connection.
        const echo = modernBody(1, 'tools/call', { name: 'echo', arguments: { text: 'one' } });
        const twice = await raw(server.port, [post10(echo, modernHead('tools/call', 'echo') + 'Connection: keep-alive\r\n') +
            post10(echo, modernHead('tools/call', 'echo'))]);
        const plain = responsesOf(twice.data, [{ head: false, version: '1.0' }, { head: false, version: '1.0' }]);
        assert.equal(plain.length, 2, twice.data);
        assert.equal(plain[0].headers.connection, 'keep-alive');
        assert.equal(JSON.parse(plain[1].body).result.content[0].text, 'one');

        // A 2026 call with progress: an event stream, unframed, ended by the close, even when
        // keep-alive was asked.
        const counted = await exchange(server.port, post10(
            modernBody(2, 'tools/call', { name: 'slow_count', arguments: { to: 3, step_ms: 10 }, _meta: { progressToken: 't' } }),
            modernHead('tools/call', 'slow_count') + 'Connection: keep-alive\r\n'));
        assert.equal(counted.headers['content-type'], 'text/event-stream');
        assert.equal(counted.headers.connection, undefined);
        const messages = sseMessages(parseSse(counted.body, { complete: true }));
        assert.deepEqual(messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress), [1, 2, 3]);
        assert.equal(messages.at(-1).result.content[0].text, 'Counted to 3');

        // 2025: a call's stream, then its resumption, both over HTTP/1.0.
        const sid = (await initialize(server)).headers.get('mcp-session-id');
        const inSession = `Mcp-Session-Id: ${sid}\r\nMCP-Protocol-Version: 2025-11-25\r\n`;
        const call = await exchange(server.port, post10(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call',
            params: { name: 'slow_count', arguments: { to: 2, step_ms: 10 }, _meta: { progressToken: 3 } } }), inSession));
        assert.equal(call.headers['content-type'], 'text/event-stream');
        const ids = parseSse(call.body, { complete: true }).filter((e) => e.id).map((e) => e.id);
        assert.ok(ids.length >= 2, call.body);
        const resumed = await exchange(server.port, `GET /mcp HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n${inSession}Last-Event-ID: ${ids[0]}\r\n\r\n`);
        assert.equal(resumed.status, 200);
        assert.match(sseMessages(parseSse(resumed.body, { complete: true })).at(-1).result.content[0].text, /Counted to 2/);

        // 2025: the session's GET stream, live: an event arrives unframed.
        const subscribe = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': sid },
            body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'resources/subscribe', params: { uri: 'demo://notes/framing' } }) });
        assert.equal(subscribe.status, 200);
        const socket = net.connect(server.port, '127.0.0.1');
        socket.on('error', () => {});
        let streamed = '';
        socket.on('data', (d) => (streamed += d.toString('latin1')));
        socket.write(`GET /mcp HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n${inSession}\r\n`);
        try {
            await waitUntil(() => streamed.includes('\r\n\r\n'), 3000, 'the GET stream head');
            const add = await modern(server, 'tools/call', { name: 'add_note', arguments: { slug: 'framing', body: 'x' } });
            assert.equal(add.status, 200);
            await waitUntil(() => streamed.includes('notifications/resources/updated'), 3000, 'the update on the GET stream');
            const head = streamed.slice(0, streamed.indexOf('\r\n\r\n'));
            assert.match(head, /^HTTP\/1\.0 200 /);
            assert.doesNotMatch(head, /transfer-encoding|keep-alive/i);
            const body = streamed.slice(head.length + 4);
            assert.match(body, /^retry: \d+\n/, 'the priming event first, no chunk size line before it');
            assert.doesNotMatch(body, /^[0-9a-f]+\r$/m, 'no chunk size line between events');
        } finally {
            socket.destroy();
        }

        // Guards' errors and the metrics listener, in HTTP/1.0.
        for (const [status, request] of [[403, 'POST /mcp HTTP/1.0\r\nHost: evil.example\r\nContent-Length: 0\r\n\r\n'],
            [404, 'GET /elsewhere HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n'], [405, 'PUT /mcp HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n'],
            [400, 'GET /mcp HTTP/1.0\r\nHost: 127.0.0.1\r\nMcp-Session-Id: x\r\nAccept: text/event-stream\r\nContent-Length: -1\r\n\r\n'],
            [413, 'POST /mcp HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Length: 4000\r\n\r\n'],
            [431, `GET /mcp HTTP/1.0\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`]]) {
            assert.equal((await exchange(server.port, request)).status, status, request);
        }
        const scraped = await exchange(metricsPort, 'GET /metrics HTTP/1.0\r\n\r\n');
        assert.equal(scraped.status, 200);
        assert.match(scraped.body, /mcp_http_responses_total/);
        // No 100 Continue to HTTP/1.0: the expectation is ignored.
        const expecting = await raw(server.port, [post10(ping, 'Expect: 100-continue\r\n')]);
        assert.equal(responsesOf(expecting.data, [{ head: false, version: '1.0' }])[0].status, 400);  // no session
        await echoWorks(server);
    });
});

describe('caps', () => {
    test('--max-connections closes connections beyond the cap, and frees them again', async () => {
        const server = await startServer('--max-connections', '3');
        const held = [];
        for (let i = 0; i < 3; ++i) {
            const s = net.connect(server.port, '127.0.0.1');
            s.on('error', () => {});
            await new Promise((r) => s.on('connect', r));
            held.push(s);
        }
        await sleep(100);
        const refused = await raw(server.port, ['GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'], { timeoutMs: 2000 });
        assert.equal(refused.data, '');
        assert.equal(refused.timedOut, false);
        for (const s of held) s.destroy();
        await waitUntil(async () => (await modern(server, 'server/discover').catch(() => null))?.status === 200, 3000,
            'a connection slot to free up');
    });

    test('--max-sessions refuses initialize with 503 when full', async () => {
        const server = await startServer('--max-sessions', '2');
        assert.equal((await initialize(server)).status, 200);
        assert.equal((await initialize(server)).status, 200);
        const third = await initialize(server);
        assert.equal(third.status, 503);
        assert.ok(third.headers.get('retry-after'));
        await echoWorks(server);  // the stateless era needs no session
    });

    test('--max-streams-per-session refuses a second GET stream with 429', async () => {
        const server = await startServer('--max-streams-per-session', '1');
        const sid = (await initialize(server)).headers.get('mcp-session-id');
        const controller = new AbortController();
        const first = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid }, signal: controller.signal });
        assert.equal(first.status, 200);
        const second = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid } });
        assert.equal(second.status, 429);
        controller.abort();
        // The slot frees when the first GET's connection ends.
        const third = await waitUntil(async () => {
            const res = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid } });
            if (res.status === 200) return res;
            await res.body?.cancel();
            return null;
        }, 5000, 'a GET to be accepted once the first closed');
        await third.body.cancel();
    });

    test('--max-streams-per-session counts GET connections, not the POST responses of calls in flight', async () => {
        const server = await startServer('--max-streams-per-session', '1');
        const sid = (await initialize(server)).headers.get('mcp-session-id');
        const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
        const controller = new AbortController();
        const calls = await Promise.all([1, 2, 3].map((id) => fetch(server.url, {
            method: 'POST',
            headers,
            body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow_count', arguments: { to: 50, step_ms: 100 }, _meta: { progressToken: id } } }),
            signal: controller.signal,
        })));
        for (const c of calls) assert.equal(c.headers.get('content-type'), 'text/event-stream', 'each call streams its progress');
        const listen = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid }, signal: controller.signal });
        assert.equal(listen.status, 200, 'three calls in flight leave the one GET slot free');
        controller.abort();
    });

    test('--max-listen-streams refuses a listen beyond the cap with 503', async () => {
        const server = await startServer('--max-listen-streams', '1');
        const controller = new AbortController();
        const first = await fetch(server.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: modernMeta } }),
            signal: controller.signal,
        });
        assert.equal(first.status, 200);
        const second = await modern(server, 'subscriptions/listen', { notifications: { toolsListChanged: true } }, 'b');
        assert.equal(second.status, 503);
        controller.abort();
        await sleep(100);
        // The slot frees when the first stream closes.
        const controller2 = new AbortController();
        const third = await waitUntil(async () => {
            const r = await fetch(server.url, {
                method: 'POST',
                headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
                body: JSON.stringify({ jsonrpc: '2.0', id: 'c', method: 'subscriptions/listen', params: { notifications: {}, _meta: modernMeta } }),
                signal: controller2.signal,
            });
            return r.status === 200 ? r : null;
        }, 3000, 'the listen slot to free up');
        assert.equal(third.status, 200);
        controller2.abort();
    });

    test('--max-subscriptions bounds the URIs of one listen, and each URI is at most 8 KiB', async () => {
        const server = await startServer('--max-subscriptions', '2');
        let res = await modern(server, 'subscriptions/listen', { notifications: { resourceSubscriptions: ['a://1', 'a://2', 'a://3'] } });
        assert.equal(res.status, 400);
        assert.equal((await res.json()).error.code, -32602);
        res = await modern(server, 'subscriptions/listen', { notifications: { resourceSubscriptions: [`a://${'x'.repeat(8 * 1024)}`] } });
        assert.equal(res.status, 400);
        assert.match((await res.json()).error.message, /URI too long/);
    });
});

describe('sessions and eras', () => {
    test('session errors: missing 400, unknown 404, 2026 GET and DELETE 405', async () => {
        const server = await startServer();
        const post = (headers) =>
            fetch(server.url, {
                method: 'POST',
                headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
                body: JSON.stringify({ jsonrpc: '2.0', id: 'req-7', method: 'tools/list' }),
            });
        // Each error answers the request it refuses.
        for (const [headers, status] of [[{}, 400], [{ 'mcp-session-id': 'no-such-session' }, 404],
            [{ 'mcp-protocol-version': '1999-01-01', 'mcp-session-id': 'x' }, 400]]) {
            const res = await post(headers);
            assert.equal(res.status, status, JSON.stringify(headers));
            assert.equal((await res.json()).id, 'req-7', JSON.stringify(headers));
        }
        const get = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' } });
        assert.equal(get.status, 405);
        const del = await fetch(server.url, { method: 'DELETE', headers: { 'mcp-protocol-version': '2026-07-28' } });
        assert.equal(del.status, 405);
        assert.equal((await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': 'nope', 'mcp-protocol-version': '2025-11-25' } })).status, 404);
        assert.equal((await fetch(`http://127.0.0.1:${server.port}/other`)).status, 404);
        assert.equal((await fetch(server.url, { method: 'PUT' })).status, 405);
    });

    test('an altered or foreign Last-Event-ID is refused and replays nothing', async () => {
        const server = await startServer();
        const sidA = (await initialize(server)).headers.get('mcp-session-id');
        const sidB = (await initialize(server)).headers.get('mcp-session-id');
        const res = await fetch(server.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': sidA },
            body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_count', arguments: { to: 2, step_ms: 10 }, _meta: { progressToken: 1 } } }),
        });
        const text = await res.text();
        const ids = [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
        assert.ok(ids.length >= 2, text);
        const resume = (sid, id) => fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'last-event-id': id } });
        const foreign = await resume(sidB, ids[0]);
        assert.equal(foreign.status, 400);
        const altered = ids[0].slice(0, -2) + (ids[0].endsWith('AA') ? 'BB' : 'AA');
        assert.equal((await resume(sidA, altered)).status, 400);
        const own = await resume(sidA, ids[0]);
        assert.equal(own.status, 200);
        assert.match(await own.text(), /"id":2,"result"/);  // a finished stream replays to its end and closes
    });

    test('a client that closes a 2026 stream cancels the call', async () => {
        const server = await startServer();
        const stats = async () => JSON.parse((await (await modern(server, 'resources/read', { uri: 'demo://server/stats' })).json()).result.contents[0].text);
        const before = (await stats()).cancellations_observed;
        const controller = new AbortController();
        const res = await fetch(server.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'slow_count' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'slow_count', arguments: { to: 100, step_ms: 20 }, _meta: { ...modernMeta, progressToken: 't' } } }),
            signal: controller.signal,
        });
        const reader = res.body.getReader();
        await reader.read();  // the stream has started
        controller.abort();
        await waitUntil(async () => (await stats()).cancellations_observed === before + 1, 5000, 'the handler to see the cancellation');
    });
});
