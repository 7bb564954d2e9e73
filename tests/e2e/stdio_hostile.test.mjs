// End-to-end: mcp-cpp-demo fed raw, hostile or unusual lines on stdin; every stdout line checked.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/stdio_hostile.test.mjs
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { demoBinary, RawServer, runDemo, sleep } from './helpers.mjs';

const TEST = { timeout: 30_000 };

// A JSON-RPC error response with this id (compared with its JSON type) and code.
function assertError(msg, id, code) {
    assert.ok(msg && typeof msg === 'object', `a JSON object: ${JSON.stringify(msg)}`);
    assert.equal(msg.jsonrpc, '2.0');
    assert.ok('id' in msg, `the error has an id member: ${JSON.stringify(msg)}`);
    assert.equal(msg.id, id, `error id: ${JSON.stringify(msg)}`);
    assert.equal(msg.result, undefined);
    assert.equal(msg.error?.code, code, `error code: ${JSON.stringify(msg)}`);
    assert.equal(typeof msg.error.message, 'string');
}

// The next line the server writes is an error with id null and `code` (nothing else comes first).
async function nextNullIdError(srv, code) {
    const line = await srv.next();
    assertError(line.msg, null, code);
    return line;
}

// A ping round trip: the server still serves, and it wrote nothing unasked before the answer.
let pingId = 1000;
async function assertServing(srv) {
    const id = ++pingId;
    await srv.send({ jsonrpc: '2.0', id, method: 'ping' });
    const line = await srv.next();
    assert.deepEqual(line.msg, { jsonrpc: '2.0', id, result: {} }, `the next line answers ping ${id}`);
}

// A ping request padded to exactly `bytes` bytes (before its newline).
function pingOfSize(id, bytes) {
    const bare = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params: { pad: '' } });
    const pad = bytes - Buffer.byteLength(bare);
    assert.ok(pad >= 0, `a ping line cannot be as short as ${bytes} bytes`);
    const line = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params: { pad: 'x'.repeat(pad) } });
    assert.equal(Buffer.byteLength(line), bytes);
    return line;
}

// A ping whose params nest arrays so that the whole message is `depth` levels deep.
function pingOfDepth(id, depth) {
    return `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"x":${'['.repeat(depth - 2)}${']'.repeat(depth - 2)}}}`;
}

describe('hostile input after initialize', { timeout: 150_000 }, () => {
    let srv;
    before(async () => {
        srv = new RawServer(['--log-level', 'trace']);
        const result = await srv.initialize();
        assert.equal(result.protocolVersion, '2025-11-25');
    });
    afterEach(() => {
        // Each test takes every line it caused: anything left over is an unexpected message.
        // (slow_count's "finished" log message may trail its test: it is not checked here.)
        const left = srv.untaken();
        for (const l of left) l.taken = true;
        const stray = left.filter((l) => l.msg?.method !== 'notifications/message');
        assert.deepEqual(stray.map((l) => l.raw.slice(0, 300)), [], 'no unexpected output');
    });
    after(async () => {
        await srv?.close();
    });

    test('truncated JSON → -32700 with id null', TEST, async () => {
        await srv.send('{"jsonrpc":"2.0","id":1,"method":"pi');
        await nextNullIdError(srv, -32700);
        await srv.send('{"jsonrpc":"2.0","id":2,"method":"ping"');
        await nextNullIdError(srv, -32700);
        await srv.send('{"jsonrpc":"2.0","id":3,"method":"ping"} trailing');
        await nextNullIdError(srv, -32700);
        await srv.send('not json at all');
        await nextNullIdError(srv, -32700);
        await assertServing(srv);
    });

    test('invalid UTF-8 inside a string → -32700', TEST, async () => {
        await srv.write(Buffer.concat([
            Buffer.from('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a'),
            Buffer.from([0xff, 0xfe]),
            Buffer.from('b"}}}\n'),
        ]));
        await nextNullIdError(srv, -32700);
        await assertServing(srv);
    });

    test('a 10 MB line → -32600 with id null, and the server keeps serving', TEST, async () => {
        const big = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${'a'.repeat(10 * 1024 * 1024)}"}}}`;
        await srv.send(big, 20_000);
        const line = await nextNullIdError(srv, -32600);
        assert.ok(line.raw.length < 1000, 'the error does not echo the line');
        await assertServing(srv);
        // Also when it arrives in many small writes with the newline last.
        for (let i = 0; i < 10; ++i) await srv.write('b'.repeat(512 * 1024));
        await srv.write('\n');
        await nextNullIdError(srv, -32600);
        await assertServing(srv);
    });

    test('nesting 100 000 deep → -32700, and the server keeps serving', TEST, async () => {
        await srv.send('['.repeat(100_000));
        await nextNullIdError(srv, -32700);
        await assertServing(srv);
        await srv.send('['.repeat(100_000) + ']'.repeat(100_000));
        await nextNullIdError(srv, -32700);
        await srv.send('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000));
        await nextNullIdError(srv, -32700);
        await assertServing(srv);
    });

    test('nesting: 64 levels accepted, 65 rejected with -32700', TEST, async () => {
        await srv.send(pingOfDepth(64, 64));
        assert.deepEqual((await srv.next()).msg, { jsonrpc: '2.0', id: 64, result: {} });
        await srv.send(pingOfDepth(65, 65));
        await nextNullIdError(srv, -32700);
    });

    test('wrong member types: params, id, method, jsonrpc', TEST, async () => {
        // params not an object → -32602 (src/protocol/jsonrpc.cpp), the valid id echoed.
        await srv.send('{"jsonrpc":"2.0","id":9,"method":"tools/list","params":"x"}');
        assertError((await srv.next()).msg, 9, -32602);
        await srv.send('{"jsonrpc":"2.0","id":"p","method":"tools/list","params":[1,2]}');
        assertError((await srv.next()).msg, 'p', -32602);
        await srv.send('{"jsonrpc":"2.0","id":19,"method":"tools/list","params":null}');
        assertError((await srv.next()).msg, 19, -32602);
        // id an object, an array, a fraction, null → -32600 with id null.
        for (const id of ['{"a":1}', '[1]', '1.5', 'null', 'true']) {
            await srv.send(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
            await nextNullIdError(srv, -32600);
        }
        // method a number → -32600, the valid id echoed.
        await srv.send('{"jsonrpc":"2.0","id":10,"method":42}');
        assertError((await srv.next()).msg, 10, -32600);
        // jsonrpc missing or not "2.0" → -32600.
        await srv.send('{"id":11,"method":"ping"}');
        assertError((await srv.next()).msg, 11, -32600);
        await srv.send('{"jsonrpc":"1.0","id":12,"method":"ping"}');
        assertError((await srv.next()).msg, 12, -32600);
        await srv.send('{"jsonrpc":2,"id":13,"method":"ping"}');
        assertError((await srv.next()).msg, 13, -32600);
        // Not an object at all.
        for (const doc of ['"ping"', '42', 'null', 'true']) {
            await srv.send(doc);
            await nextNullIdError(srv, -32600);
        }
        // Neither method nor result/error.
        await srv.send('{"jsonrpc":"2.0","id":14}');
        assertError((await srv.next()).msg, 14, -32600);
        await assertServing(srv);
    });

    test('tools/call with a bad params shape → -32602, bad arguments → isError result', TEST, async () => {
        const noName = await srv.request(20, 'tools/call', { arguments: { text: 'x' } });
        assertError(noName, 20, -32602);
        const badArgs = await srv.request(21, 'tools/call', { name: 'echo', arguments: { text: 5 } });
        assert.equal(badArgs.result?.isError, true, JSON.stringify(badArgs));
        assert.match(badArgs.result.content[0].text, /text/);
        const argsNotObject = await srv.request(22, 'tools/call', { name: 'echo', arguments: 'text' });
        assert.ok(argsNotObject.error?.code === -32602 || argsNotObject.result?.isError === true,
            `arguments not an object is refused: ${JSON.stringify(argsNotObject)}`);
    });

    test('an unknown method → -32601 with its id', TEST, async () => {
        assertError(await srv.request(30, 'tools/destroy', {}), 30, -32601);
        assertError(await srv.request('m', 'no/such/method'), 'm', -32601);
    });

    test('unknown notifications and stray responses get no answer', TEST, async () => {
        await srv.send({ jsonrpc: '2.0', method: 'notifications/unheard_of', params: { x: 1 } });
        await srv.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
        await srv.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'never-sent' } });
        await srv.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        await srv.send({ jsonrpc: '2.0', id: 'srv-1', result: {} });
        await srv.send({ jsonrpc: '2.0', id: 77, error: { code: -1, message: 'nope' } });
        await assertServing(srv);
    });

    test('ids are echoed with their JSON type', TEST, async () => {
        const cases = [
            ['"abc"', '"id":"abc"'],
            ['7', '"id":7'],
            ['"7"', '"id":"7"'],
            ['0', '"id":0'],
            ['-12', '"id":-12'],
            ['""', '"id":""'],
            ['9007199254740993', '"id":9007199254740993'],
            ['18446744073709551615', '"id":18446744073709551615'],
            ['"ünï\\ncode"', '"id":"ünï\\ncode"'],
        ];
        for (const [id, expected] of cases) {
            await srv.send(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
            const line = await srv.next();
            assert.ok(line.raw.includes(expected), `id ${id}: ${line.raw} contains ${expected}`);
            assert.ok(line.raw.includes('"result":{}'), `id ${id} answered: ${line.raw}`);
        }
        // And on errors.
        await srv.send('{"jsonrpc":"2.0","id":"abc","method":"nope"}');
        const err = await srv.next();
        assert.ok(err.raw.includes('"id":"abc"'), err.raw);
        assertError(err.msg, 'abc', -32601);
        await srv.send('{"jsonrpc":"2.0","id":7,"method":"nope"}');
        const err7 = await srv.next();
        assert.ok(err7.raw.includes('"id":7,') || err7.raw.includes('"id":7}'), err7.raw);
        assertError(err7.msg, 7, -32601);
    });

    test('a JSON-RPC batch → -32600 with id null', TEST, async () => {
        await srv.send('[{"jsonrpc":"2.0","id":40,"method":"ping"},{"jsonrpc":"2.0","id":41,"method":"ping"}]');
        await nextNullIdError(srv, -32600);
        await srv.send('[]');
        await nextNullIdError(srv, -32600);
        await assertServing(srv);
        assert.equal(srv.lines.filter((l) => l.msg?.id === 40 || l.msg?.id === 41).length, 0, 'batch members not run');
    });

    test('a duplicate in-flight id → -32600 for the second, the first still answered', TEST, async () => {
        await srv.send({ jsonrpc: '2.0', id: 50, method: 'tools/call', params: { name: 'slow_count', arguments: { to: 6, step_ms: 50 } } });
        await srv.send({ jsonrpc: '2.0', id: 50, method: 'tools/call', params: { name: 'echo', arguments: { text: 'dup' } } });
        assertError((await srv.response(50)).msg, 50, -32600);
        const first = (await srv.response(50, 10_000)).msg;
        assert.deepEqual(first.result?.content, [{ type: 'text', text: 'Counted to 6' }], JSON.stringify(first));
        // Once finished, the id may be used again.
        const again = await srv.request(50, 'tools/call', { name: 'echo', arguments: { text: 'reuse' } });
        assert.deepEqual(again.result?.content, [{ type: 'text', text: 'reuse' }]);
        // "50" and 50 are different ids.
        await srv.send({ jsonrpc: '2.0', id: 51, method: 'tools/call', params: { name: 'slow_count', arguments: { to: 3, step_ms: 50 } } });
        const str = await srv.request('51', 'tools/call', { name: 'echo', arguments: { text: 'string id' } });
        assert.deepEqual(str.result?.content, [{ type: 'text', text: 'string id' }]);
        assert.ok((await srv.response(51, 10_000)).msg.result);
    });

    test('notifications/cancelled stops a raw call: no response, counted by the handler', TEST, async () => {
        const stats = async (id) => JSON.parse((await srv.request(id, 'resources/read', { uri: 'demo://server/stats' })).result.contents[0].text);
        const before = await stats('s1');
        await srv.send({
            jsonrpc: '2.0', id: 'job-1', method: 'tools/call',
            params: { name: 'slow_count', arguments: { to: 100, step_ms: 50 }, _meta: { progressToken: 'job-1-progress' } },
        });
        const progress = (n) => srv.take((l) => l.msg?.method === 'notifications/progress' && l.msg.params.progressToken === 'job-1-progress',
            5000, `progress ${n} of job-1`);
        for (let n = 1; n <= 2; ++n) assert.equal((await progress(n)).msg.params.progress, n);
        // A cancellation naming the id with the wrong type does nothing…
        await srv.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'job-2' } });
        assert.equal((await progress(3)).msg.params.progress, 3);
        // …the right one stops it.
        await srv.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'job-1', reason: 'test' } });
        let observed;
        const deadline = Date.now() + 5000;
        let sid = 0;
        do {
            assert.ok(Date.now() < deadline, 'cancellations_observed increases within 5 s');
            await sleep(20);
            observed = (await stats(`s-poll-${++sid}`)).cancellations_observed;
        } while (observed === before.cancellations_observed);
        assert.equal(observed, before.cancellations_observed + 1);
        await sleep(200);
        // A step under way when the cancellation arrived may still report progress.
        for (const l of srv.untaken()) if (l.msg?.method === 'notifications/progress') l.taken = true;
        await assertServing(srv);
        assert.equal(srv.lines.filter((l) => l.msg?.id === 'job-1').length, 0, 'no response to the cancelled call');
        const steps = srv.lines.filter((l) => l.msg?.params?.progressToken === 'job-1-progress').length;
        assert.ok(steps <= 6, `the count stopped soon after the cancellation (${steps} steps)`);
    });

    test('a burst of 300 pings in one write is answered in order', TEST, async () => {
        const ids = Array.from({ length: 300 }, (_, i) => `burst-${i}`);
        await srv.write(ids.map((id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }) + '\n').join(''));
        for (const id of ids) assert.deepEqual((await srv.next()).msg, { jsonrpc: '2.0', id, result: {} });
    });

    test('CRLF line ends and blank lines are tolerated', TEST, async () => {
        await srv.write('\n\r\n   \n\t\n');
        await srv.write('{"jsonrpc":"2.0","id":"crlf","method":"ping"}\r\n');
        assert.deepEqual((await srv.next()).msg, { jsonrpc: '2.0', id: 'crlf', result: {} });
        await assertServing(srv);
    });

    test('a second initialize → -32600', TEST, async () => {
        const again = await srv.request(60, 'initialize', {
            protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'again', version: '1' },
        });
        assertError(again, 60, -32600);
    });

    test('a 3.8 MB echo comes back whole', TEST, async () => {
        const text = 'é'.repeat(1_900_000);  // 2 bytes each in UTF-8, under the 4 MiB request limit
        const response = await srv.request('big', 'tools/call', { name: 'echo', arguments: { text } }, 15_000);
        assert.ok(response.result?.content?.[0]?.text === text, 'the text survived the round trip');
        await assertServing(srv);
    });

    test('20 concurrent calls, every other one cancelled: 10 answered, 10 counted as cancelled', TEST, async () => {
        const stats = async (id) => JSON.parse((await srv.request(id, 'resources/read', { uri: 'demo://server/stats' })).result.contents[0].text);
        const before = await stats('c-before');
        const ids = Array.from({ length: 20 }, (_, i) => `c${i}`);
        for (const id of ids) {
            await srv.send({
                jsonrpc: '2.0', id, method: 'tools/call',
                params: { name: 'slow_count', arguments: { to: 30, step_ms: 40 }, _meta: { progressToken: `p-${id}` } },
            });
        }
        const cancelled = ids.filter((_, i) => i % 2 === 0);
        // Cancel each once it is running (its first progress arrived).
        for (const id of cancelled) {
            await srv.take((l) => l.msg?.method === 'notifications/progress' && l.msg.params.progressToken === `p-${id}`,
                10_000, `progress of ${id}`);
            await srv.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
        }
        for (const id of ids.filter((_, i) => i % 2 === 1)) {
            const r = (await srv.response(id, 15_000)).msg;
            assert.deepEqual(r.result?.content, [{ type: 'text', text: 'Counted to 30' }], JSON.stringify(r));
        }
        const after = await stats('c-after');
        assert.equal(after.cancellations_observed, before.cancellations_observed + 10);
        await sleep(100);
        for (const l of srv.untaken()) if (l.msg?.method === 'notifications/progress' || l.msg?.method === 'notifications/message') l.taken = true;
        await assertServing(srv);
        assert.equal(srv.lines.filter((l) => cancelled.includes(l.msg?.id)).length, 0, 'no response to a cancelled call');
    });

    test('stdout carries only JSON-RPC lines; diagnostics go to stderr', TEST, async () => {
        await assertServing(srv);
        assert.ok(srv.lines.length > 350, `many lines were written (${srv.lines.length})`);
        for (const line of srv.lines) {
            assert.ok(line.msg !== undefined, `stdout line is JSON: ${line.raw.slice(0, 200)}`);
            assert.equal(line.msg.jsonrpc, '2.0', `stdout line is JSON-RPC: ${line.raw.slice(0, 200)}`);
            assert.ok(!line.unterminated, 'every line ends with a newline');
        }
        assert.match(srv.stderr, /serving MCP on stdio/, 'diagnostics are on stderr');
    });
});

describe('before initialize', { timeout: 60_000 }, () => {
    let srv;
    before(() => {
        srv = new RawServer();
    });
    after(async () => {
        await srv?.close();
    });

    test('requests other than initialize and ping → -32600; then initialize works once', TEST, async () => {
        assertError(await srv.request(1, 'tools/list', {}), 1, -32600);
        assertError(await srv.request('r', 'resources/read', { uri: 'demo://server/stats' }), 'r', -32600);
        assertError(await srv.request(2, 'tools/call', { name: 'echo', arguments: { text: 'x' } }), 2, -32600);
        assertError(await srv.request(3, 'logging/setLevel', { level: 'debug' }), 3, -32600);
        assert.deepEqual(await srv.request(4, 'ping'), { jsonrpc: '2.0', id: 4, result: {} });
        await srv.send({ jsonrpc: '2.0', method: 'notifications/whatever' });
        assertError(await srv.request(5, 'initialize', { capabilities: {} }), 5, -32602);  // no protocolVersion

        const init = await srv.request(6, 'initialize', {
            protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' },
        });
        assert.equal(init.result?.protocolVersion, '2025-06-18');
        assert.equal(init.result.serverInfo.name, 'mcp-cpp-demo');
        const list = await srv.request(7, 'tools/list', {});
        assert.equal(list.result?.tools?.length, 10);  // every demo tool
        assert.equal(srv.untaken().length, 0, 'nothing else was written');
    });
});

describe('protocol version negotiation', { timeout: 60_000 }, () => {
    for (const [asked, answered] of [
        ['2025-11-25', '2025-11-25'],
        ['2025-06-18', '2025-06-18'],
        ['2025-03-26', '2025-03-26'],
        ['2024-11-05', '2025-11-25'],
        ['1999-01-01', '2025-11-25'],
    ]) {
        test(`a client asking for ${asked} is answered ${answered}`, TEST, async () => {
            const srv = new RawServer();
            try {
                const result = await srv.initialize(asked);
                assert.equal(result.protocolVersion, answered);
            } finally {
                await srv.close();
            }
        });
    }
});

describe('end of input', { timeout: 60_000 }, () => {
    test('EOF while slow_count runs: its response still arrives, then exit 0', TEST, async () => {
        const srv = new RawServer();
        try {
            await srv.initialize();
            await srv.send({
                jsonrpc: '2.0', id: 'last', method: 'tools/call',
                params: { name: 'slow_count', arguments: { to: 5, step_ms: 100 }, _meta: { progressToken: 7 } },
            });
            const eofAt = Date.now();
            srv.endInput();
            const response = await srv.response('last', 10_000);
            assert.deepEqual(response.msg.result?.content, [{ type: 'text', text: 'Counted to 5' }], response.raw);
            const { code, signal } = await srv.exited(10_000);
            assert.equal(signal, null);
            assert.equal(code, 0, `exit code (stderr: ${srv.stderr.slice(-500)})`);
            assert.ok(Date.now() - eofAt >= 400, 'the server waited for the call to finish');
            const progress = srv.lines.filter((l) => l.msg?.method === 'notifications/progress');
            assert.deepEqual(progress.map((l) => l.msg.params.progress), [1, 2, 3, 4, 5]);
            assert.ok(srv.lines.every((l) => l.msg?.jsonrpc === '2.0' && !l.unterminated));
        } finally {
            await srv.close();
        }
    });

    test('a last line without a newline is still served before exit 0', TEST, async () => {
        const srv = new RawServer();
        try {
            await srv.initialize();
            await srv.write('{"jsonrpc":"2.0","id":"tail","method":"ping"}');
            srv.endInput();
            assert.deepEqual((await srv.response('tail')).msg, { jsonrpc: '2.0', id: 'tail', result: {} });
            assert.deepEqual(await srv.exited(), { code: 0, signal: null });
        } finally {
            await srv.close();
        }
    });

    test('a vanished stdout reader is no crash: the server serves on and exits 0 at EOF', TEST, async () => {
        const srv = new RawServer();
        try {
            await srv.initialize();
            srv.child.stdout.destroy();
            for (let i = 0; i < 50; ++i) await srv.send({ jsonrpc: '2.0', id: i, method: 'ping' });
            await srv.send({ jsonrpc: '2.0', id: 'x', method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(100_000) } } });
            await sleep(100);
            srv.endInput();
            assert.deepEqual(await srv.exited(), { code: 0, signal: null }, `stderr: ${srv.stderr.slice(-500)}`);
        } finally {
            await srv.close();
        }
    });

    test('an oversized last line cut off by EOF: -32600, then exit 0', TEST, async () => {
        const srv = new RawServer(['--max-message-bytes', '4KiB']);
        try {
            await srv.initialize();
            await srv.write('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + 'z'.repeat(10_000));
            srv.endInput();
            await nextNullIdError(srv, -32600);
            assert.deepEqual(await srv.exited(), { code: 0, signal: null });
        } finally {
            await srv.close();
        }
    });

    test('EOF right after start: exit 0 and no output', TEST, async () => {
        const { code, signal, stdout } = await runDemo([]);
        assert.equal(signal, null);
        assert.equal(code, 0);
        assert.equal(stdout, '');
    });
});

describe('limits set by options', { timeout: 60_000 }, () => {
    test('--max-message-bytes 1KiB: 1024 bytes pass, 1025 and 2 KB fail with -32600', TEST, async () => {
        const srv = new RawServer(['--max-message-bytes', '1KiB']);
        try {
            await srv.initialize();
            await srv.send(pingOfSize(1, 1024));
            assert.deepEqual((await srv.next()).msg, { jsonrpc: '2.0', id: 1, result: {} });
            await srv.send(pingOfSize(2, 1025));
            await nextNullIdError(srv, -32600);
            await srv.send(pingOfSize(3, 2048));
            await nextNullIdError(srv, -32600);
            await srv.send(pingOfSize(4, 100));
            assert.deepEqual((await srv.next()).msg, { jsonrpc: '2.0', id: 4, result: {} });
        } finally {
            await srv.close();
        }
    });

    test('--max-json-depth 5: 5 levels pass, 6 fail with -32700', TEST, async () => {
        const srv = new RawServer(['--max-json-depth', '5']);
        try {
            await srv.initialize();
            await srv.send(pingOfDepth(1, 5));
            assert.deepEqual((await srv.next()).msg, { jsonrpc: '2.0', id: 1, result: {} });
            await srv.send(pingOfDepth(2, 6));
            await nextNullIdError(srv, -32700);
            await assertServing(srv);
        } finally {
            await srv.close();
        }
    });

    test('--handler-queue 1 with one thread: one call waits, the next is refused with -32603', TEST, async () => {
        const srv = new RawServer(['--handler-threads', '1', '--max-handler-threads', '1', '--handler-queue', '1']);
        try {
            await srv.initialize();
            const call = (id, to, meta) => srv.send({
                jsonrpc: '2.0', id, method: 'tools/call',
                params: { name: 'slow_count', arguments: { to, step_ms: 50 }, ...(meta ? { _meta: meta } : {}) },
            });
            await call(1, 20, { progressToken: 'one' });
            // Call 1 holds the only thread once it reports progress; call 2 then waits in the queue.
            await srv.take((l) => l.msg?.method === 'notifications/progress' && l.msg.params.progressToken === 'one', 5000, 'call 1 running');
            await call(2, 1);
            await call(3, 1);
            assertError((await srv.response(3)).msg, 3, -32603);
            assert.ok((await srv.response(1, 10_000)).msg.result, 'call 1 answered');
            assert.ok((await srv.response(2, 10_000)).msg.result, 'call 2 answered after waiting');
        } finally {
            await srv.close();
        }
    });

    test('the handler pool grows while handlers block (--handler-threads 1 --max-handler-threads 3)', TEST, async () => {
        const srv = new RawServer(['--handler-threads', '1', '--max-handler-threads', '3', '--handler-grow-after', '10ms']);
        try {
            await srv.initialize();
            for (const id of [1, 2, 3]) {
                await srv.send({
                    jsonrpc: '2.0', id, method: 'tools/call',
                    params: { name: 'slow_count', arguments: { to: 10, step_ms: 50 }, _meta: { progressToken: id } },
                });
            }
            // Call 3 starts long before call 1 ends: they run side by side.
            await srv.take((l) => l.msg?.method === 'notifications/progress' && l.msg.params.progressToken === 3, 5000, 'call 3 running');
            assert.equal(srv.lines.filter((l) => l.msg?.id === 1).length, 0, 'call 3 started before call 1 finished');
            for (const id of [1, 2, 3]) assert.ok((await srv.response(id, 10_000)).msg.result);
        } finally {
            await srv.close();
        }
    });

    test('--config reads options from a TOML file', TEST, async () => {
        const dir = mkdtempSync(join(tmpdir(), 'mcp-cpp-e2e-'));
        let srv;
        try {
            const file = join(dir, 'demo.toml');
            writeFileSync(file, 'page-size = 2\nmax-json-depth = 6\n');
            srv = new RawServer(['--config', file]);
            await srv.initialize();
            const page = await srv.request(1, 'tools/list', {});
            assert.equal(page.result.tools.length, 2);
            await srv.send(pingOfDepth(2, 7));
            await nextNullIdError(srv, -32700);
        } finally {
            await srv?.close();
            rmSync(dir, { recursive: true, force: true });
        }
    });

    test('--client-log-level warning holds back info messages until logging/setLevel', TEST, async () => {
        const srv = new RawServer(['--client-log-level', 'warning']);
        try {
            await srv.initialize();
            const count = (id) => srv.request(id, 'tools/call', { name: 'slow_count', arguments: { to: 1, step_ms: 0 } });
            assert.ok((await count(1)).result);
            assert.deepEqual(srv.untaken().map((l) => l.raw), [], 'no notifications/message at level warning');
            assert.deepEqual(await srv.request(2, 'logging/setLevel', { level: 'info' }), { jsonrpc: '2.0', id: 2, result: {} });
            assert.ok((await count(3)).result);
            assert.deepEqual(srv.untaken().map((l) => l.msg), [
                { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'slow_count finished' } },
            ]);
        } finally {
            await srv.close();
        }
    });

    test('MCP_PAGE_SIZE=2 in the environment pages tools/list', TEST, async () => {
        const srv = new RawServer([], { env: { MCP_PAGE_SIZE: '2' } });
        try {
            await srv.initialize();
            const page = await srv.request(1, 'tools/list', {});
            assert.equal(page.result.tools.length, 2);
            assert.equal(typeof page.result.nextCursor, 'string');
        } finally {
            await srv.close();
        }
    });
});

describe('command line', { timeout: 60_000 }, () => {
    const bad = [
        [['--page-size', '0'], /page-size/],
        [['--page-size', 'many'], /page-size/],
        [['--handler-grow-after', '5parsecs'], /handler-grow-after|duration/],
        [['--log-level', 'loud'], /log-level/],
        [['--max-message-bytes', '10'], /max-message-bytes/],
        [['--max-json-depth', '0'], /max-json-depth/],
        [['--no-such-option'], /no-such-option/],
        [['--handler-threads', '4', '--max-handler-threads', '2'], /max-handler-threads/],
        [['--config', '/nonexistent/mcp-cpp-demo.toml'], /nonexistent/],
    ];
    for (const [args, mention] of bad) {
        test(`${args.join(' ')} → exit 2 with a message on stderr`, TEST, async () => {
            const { code, signal, stdout, stderr } = await runDemo(args);
            assert.equal(signal, null);
            assert.equal(code, 2, `exit code (stdout: ${stdout}, stderr: ${stderr})`);
            assert.match(stderr, mention);
            assert.equal(stdout, '', 'nothing on stdout');
        });
    }

    test('--help exits 0 and lists the options', TEST, async () => {
        const { code, stdout } = await runDemo(['--help']);
        assert.equal(code, 0);
        for (const option of ['--help', '--version', '--config', '--stdio', '--log-level', '--log-format', '--client-log-level',
            '--page-size', '--max-message-bytes', '--max-json-depth', '--handler-threads', '--max-handler-threads',
            '--handler-queue', '--handler-grow-after', '--handler-idle-timeout', '--handler-stack-size']) {
            assert.ok(stdout.includes(option), `--help mentions ${option}`);
        }
    });

    test('--version prints the server version', TEST, async () => {
        const { code, stdout } = await runDemo(['--version']);
        assert.equal(code, 0);
        assert.equal(stdout.trim(), '0.1.0');
    });
});

describe('a client that stops reading stdout', { timeout: 60_000 }, () => {
    test('is not read either: 300 calls of 1 MiB leave the server bounded (backlog + calls in flight)', TEST, async () => {
        const child = spawn(demoBinary(), ['--log-level', 'warn'], { stdio: ['pipe', 'pipe', 'ignore'] });
        try {
            child.stdout.pause();  // never read: the pipe fills and the server's writes wait
            child.stdin.on('error', () => {});  // writes still queued when the server is killed
            const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
            send({ jsonrpc: '2.0', id: 0, method: 'initialize',
                params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'unread', version: '1' } } });
            send({ jsonrpc: '2.0', method: 'notifications/initialized' });
            const text = 'y '.repeat(512 * 1024);
            for (let id = 1; id <= 300; ++id) send({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name: 'summarize', arguments: { text } } });
            await sleep(3000);
            const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
            const rssMiB = Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
            const threads = Number(/Threads:\s+(\d+)/.exec(status)[1]);
            // Before the reader waited for the writer: 1.2 GB and hundreds of threads here. Now about
            // 115 MiB, or 425 MiB under AddressSanitizer (its quarantine keeps freed memory).
            assert.ok(rssMiB < 700, `server RSS ${rssMiB.toFixed(0)} MiB with stdout unread`);
            assert.ok(threads < 64, `${threads} threads`);
            assert.equal(child.exitCode, null, 'still running');
        } finally {
            child.stdin.destroy();
            child.kill('SIGKILL');
        }
    });
});
