// Bounded and fair (docs/adr/0024-fair-limits.md), against the real demo binary: each flood of
// issue 23 from one address takes that client's quota and no more, and a client from another
// address still initializes, listens, parks and creates tasks; fifty addresses fill a bound in all
// (who is evicted, who is refused); proxies are believed only when trusted; half-open sessions end
// after their grace; the metrics count what was refused. Clients bind 127.0.0.2 and up.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';

import { BoundClient, clientAddress, floodInitialize, seriesValue } from './bound_clients.mjs';
import { freePort, HttpDemo, sleep, waitUntil, withTimeout } from './helpers.mjs';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const servers = [];

after(async () => {
    for (const s of servers) await s.close();
});

async function start(args) {
    const metricsPort = await freePort();
    const demo = await HttpDemo.start(['--metrics', `127.0.0.1:${metricsPort}`, ...args]);
    demo.metrics = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    servers.push(demo);
    return demo;
}

// A well-behaved client from its own address: initializes, lists, listens, parks a call and
// creates a task, each answered as it should be.
async function everythingWorks(url, address) {
    const client = new BoundClient(url, address);
    const init = await client.initialize({ capabilities: { elicitation: { form: {} } } });
    assert.equal(init.status, 200, `initialize from ${address}: ${init.text}`);
    const list = await (await client.call('tools/list')).whole();
    assert.equal(list.status, 200, list.text);
    const listen = await client.listen();
    assert.equal(listen.status, 200, `listen from ${address}`);
    await listen.events().next((m) => m.method === 'notifications/subscriptions/acknowledged', 5000, 'the acknowledgement');
    listen.close();
    const slug = `n${address.replaceAll('.', '-')}`;
    const note = await (await client.call('tools/call', { name: 'add_note', arguments: { slug, body: 'x' } })).whole();
    assert.equal(note.status, 200, note.text);
    const parked = await client.call('tools/call', { name: 'delete_note', arguments: { slug } });
    assert.equal(parked.status, 200, `a parked call from ${address}`);
    await parked.events().next((m) => m.method === 'elicitation/create', 5000, 'the elicitation of a parked call');
    parked.close();  // 2025: a closed connection is no cancellation; the call stays parked
    const task = await (await client.modern('tools/call', { name: 'export_notes', arguments: { step_ms: 0 } }, TASKS)).whole();
    assert.equal(task.status, 200, task.text);
    assert.equal(task.messages[0].result.resultType, 'task', task.text);
}

// A refusal over a client's quota: 429, Retry-After, -32029.
function assertOverQuota(answer, what) {
    assert.equal(answer.status, 429, `${what}: ${answer.text}`);
    assert.match(answer.headers['retry-after'] ?? '', /^\d+$/, `${what}: Retry-After`);
    assert.equal(answer.messages[0]?.error?.code, -32029, `${what}: ${answer.text}`);
}

describe('one address floods, another is served', () => {
    let demo;
    before(async () => {
        demo = await start(['--max-parked-calls-per-client', '20', '--max-tasks', '5', '--max-calls-per-client', '3',
            '--max-get-streams-per-client', '4', '--max-connections-per-client', '200', '--elicitation-timeout', '2m']);
    });

    test('10,500 initialize on one kept-alive connection, none followed up: 1000 sessions, 429 for the rest', async () => {
        const flood = await floodInitialize(demo.url, clientAddress(0), 10_500);
        assert.deepEqual([...flood.statuses].sort(), [[200, 1000], [429, 9500]]);
        assert.ok(flood.retryAfterEverywhere, 'every refusal says Retry-After');
        await everythingWorks(demo.url, clientAddress(100));
    });

    test('150 listen streams from one address: 100 open, 50 get 429', async () => {
        const flooder = new BoundClient(demo.url, clientAddress(1));
        const answers = await Promise.all(Array.from({ length: 150 }, () => flooder.listen()));
        const open = answers.filter((a) => a.status === 200);
        const refused = answers.filter((a) => a.status !== 200);
        assert.equal(open.length, 100);
        for (const r of refused) assertOverQuota(await r.whole(), 'a listen over the quota');
        await everythingWorks(demo.url, clientAddress(101));
        for (const a of open) a.close();
    });

    test('25 parked calls from one address: 20 park, 5 get 429', async () => {
        const flooder = new BoundClient(demo.url, clientAddress(2));
        assert.equal((await flooder.initialize({ capabilities: { elicitation: { form: {} } } })).status, 200);
        assert.equal((await (await flooder.call('tools/call', { name: 'add_note', arguments: { slug: 'flood', body: 'x' } })).whole()).status, 200);
        let parked = 0;
        for (let i = 0; i < 25; ++i) {
            const answer = await flooder.call('tools/call', { name: 'delete_note', arguments: { slug: 'flood' } });
            if (answer.status === 200) {
                await answer.events().next((m) => m.method === 'elicitation/create', 5000, 'the elicitation');
                answer.close();
                ++parked;
            } else {
                assertOverQuota(await answer.whole(), 'a call parked over the quota');
            }
        }
        assert.equal(parked, 20);
        await everythingWorks(demo.url, clientAddress(102));
    });

    test('anonymous 2026 tasks are counted by address: 5, then 429; another address creates its own', async () => {
        const flooder = new BoundClient(demo.url, clientAddress(3));
        for (let i = 0; i < 5; ++i) {
            const r = await (await flooder.modern('tools/call', { name: 'export_notes', arguments: { step_ms: 0 } }, TASKS)).whole();
            assert.equal(r.messages[0]?.result?.resultType, 'task', r.text);
        }
        assertOverQuota(await (await flooder.modern('tools/call', { name: 'export_notes', arguments: { step_ms: 0 } }, TASKS)).whole(),
            'a sixth task');
        await everythingWorks(demo.url, clientAddress(103));
    });

    test('calls in flight: three long calls from one address, a fourth gets 429, another address is served', async () => {
        const flooder = new BoundClient(demo.url, clientAddress(4));
        const slow = await Promise.all([1, 2, 3].map(() =>
            flooder.modern('tools/call', { name: 'slow_count', arguments: { to: 100, step_ms: 100 }, _meta: { progressToken: 'p' } })));
        for (const s of slow) {
            assert.equal(s.status, 200);
            await s.events().next((m) => m.method === 'notifications/progress', 5000, 'progress');
        }
        assertOverQuota(await (await flooder.modern('tools/call', { name: 'slow_count', arguments: { to: 1, step_ms: 1 } })).whole(),
            'a fourth call in flight');
        const other = await (await new BoundClient(demo.url, clientAddress(104))
            .modern('tools/call', { name: 'slow_count', arguments: { to: 1, step_ms: 1 } })).whole();
        assert.equal(other.status, 200, other.text);
        for (const s of slow) s.close();  // 2026: closing cancels, and frees the places
        await waitUntil(async () => (await (await flooder.modern('tools/call', { name: 'slow_count', arguments: { to: 1, step_ms: 1 } })).whole()).status === 200,
            5000, 'the cancelled calls to give their places back');
    });

    test('GET streams of all of a client\'s sessions: four, then 429', async () => {
        const sessions = Array.from({ length: 5 }, () => new BoundClient(demo.url, clientAddress(5)));
        for (const s of sessions) assert.equal((await s.initialize()).status, 200);
        const streams = [];
        for (const s of sessions.slice(0, 4)) {
            const g = await s.getStream();
            assert.equal(g.status, 200);
            streams.push(g);
        }
        assertOverQuota(await (await sessions[4].getStream()).whole(), 'a fifth GET stream');
        const other = new BoundClient(demo.url, clientAddress(105));
        assert.equal((await other.initialize()).status, 200);
        const g = await other.getStream();
        assert.equal(g.status, 200);
        g.close();
        for (const s of streams) s.close();
    });

    test('201 connections from one address: the last is closed at once; another address connects', async () => {
        const held = [];
        const connect = (localAddress) => new Promise((resolve, reject) => {
            const s = net.connect({ host: '127.0.0.1', port: demo.port, localAddress });
            s.once('connect', () => resolve(s));
            s.once('error', reject);
        });
        try {
            for (let i = 0; i < 200; ++i) held.push(await connect(clientAddress(6)));
            await sleep(200);  // the server has taken them all
            const last = await connect(clientAddress(6));
            const closed = await withTimeout(new Promise((resolve) => {
                let data = '';
                last.on('data', (d) => (data += d));
                last.on('close', () => resolve(data));
                last.on('error', () => {});
                last.write('GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
            }), 5000, 'the connection over the quota to close');
            assert.equal(closed, '', 'closed without an answer');
            const other = await (await new BoundClient(demo.url, clientAddress(106)).modern('server/discover')).whole();
            assert.equal(other.status, 200, other.text);
        } finally {
            for (const s of held) s.destroy();
        }
    });

    test('the metrics count every refusal by bound and limit, never by client', async () => {
        const text = await demo.metrics();
        const refused = (bound) => seriesValue(text, 'mcp_limit_refusals_total', { bound, limit: 'client' });
        assert.equal(refused('sessions'), 9500);
        assert.equal(refused('listen_streams'), 50);
        assert.equal(refused('parked_calls'), 5);
        assert.equal(refused('tasks'), 1);
        assert.ok(refused('calls') >= 1);
        assert.equal(refused('get_streams'), 1);
        assert.equal(refused('connections'), 1);
        assert.doesNotMatch(text, /127\.0\.0\./, 'no series names a client');
    });
});

describe('fifty addresses at a bound in all', () => {
    test('the client above its share loses its oldest streams; once every client holds its share, newcomers are refused', async () => {
        const demo = await start(['--max-listen-streams', '50', '--max-listen-streams-per-client', '50']);
        const heavy = new BoundClient(demo.url, clientAddress(10));
        const heavyStreams = [];
        for (let i = 0; i < 30; ++i) {
            const a = await heavy.listen();
            assert.equal(a.status, 200);
            const events = a.events();
            await events.next((m) => m.method === 'notifications/subscriptions/acknowledged', 5000, 'an acknowledgement');
            heavyStreams.push(events);
        }
        // 49 other addresses, one stream each: 20 fit, 29 are served by ending the heavy client's oldest.
        const others = [];
        for (let i = 0; i < 49; ++i) {
            const a = await new BoundClient(demo.url, clientAddress(11 + i)).listen();
            assert.equal(a.status, 200, `the listen of client ${i}`);
            others.push(a);
        }
        // Its 29 oldest ended with a complete result, in order; its newest is still open.
        for (const [i, events] of heavyStreams.entries()) {
            if (i < 29) {
                const end = await events.next((m) => 'result' in m, 5000, `the end of the heavy client's stream ${i}`);
                assert.equal(end.message.result.resultType, 'complete');
            }
        }
        await assert.rejects(heavyStreams[29].next((m) => 'result' in m, 300, 'its newest to stay open'), /timed out/);
        // Fifty clients, one stream each: a newcomer, or the heavy client wanting a second, is refused.
        for (const address of [clientAddress(60), clientAddress(10)]) {
            const r = await (await new BoundClient(demo.url, address).listen()).whole();
            assert.equal(r.status, 503, `${address}: ${r.text}`);
        }
        const text = await demo.metrics();
        assert.equal(seriesValue(text, 'mcp_limit_evictions_total', { bound: 'listen_streams' }), 29);
        assert.equal(seriesValue(text, 'mcp_limit_refusals_total', { bound: 'listen_streams', limit: 'total' }), 2);
        for (const a of others) a.close();
        for (const e of heavyStreams) await e.cancel();
    });
});

describe('sessions and parked calls at a bound in all', () => {
    test('the least recently used session of the client above its share ends (404 to its client); then newcomers are refused', async () => {
        const demo = await start(['--max-sessions', '4']);
        const heavy = Array.from({ length: 3 }, () => new BoundClient(demo.url, clientAddress(70)));
        for (const h of heavy) assert.equal((await h.initialize()).status, 200);
        const light = new BoundClient(demo.url, clientAddress(71));
        assert.equal((await light.initialize()).status, 200);
        assert.equal((await (await heavy[0].call('tools/list')).whole()).status, 200);  // heavy[1] is now its least recently used
        assert.equal((await new BoundClient(demo.url, clientAddress(72)).initialize()).status, 200);
        assert.equal((await (await heavy[1].call('tools/list')).whole()).status, 404, 'its least recently used session ended');
        assert.equal((await (await heavy[0].call('tools/list')).whole()).status, 200);
        assert.equal((await new BoundClient(demo.url, clientAddress(73)).initialize()).status, 200);  // heavy held 2 of a share of 1
        const refused = await new BoundClient(demo.url, clientAddress(74)).initialize();
        assert.equal(refused.status, 503, refused.text);
        assert.match(refused.headers['retry-after'] ?? '', /^\d+$/);
        assert.equal(seriesValue(await demo.metrics(), 'mcp_limit_evictions_total', { bound: 'sessions' }), 2);
    });

    test('the oldest parked call of the client above its share ends with an error its client hears; the newcomer parks', async () => {
        const demo = await start(['--max-parked-calls', '3', '--elicitation-timeout', '2m']);
        const park = async (address, slug) => {
            const client = new BoundClient(demo.url, address);
            assert.equal((await client.initialize({ capabilities: { elicitation: { form: {} } } })).status, 200);
            assert.equal((await (await client.call('tools/call', { name: 'add_note', arguments: { slug, body: 'x' } })).whole()).status, 200);
            return client;
        };
        const heavy = await park(clientAddress(80), 'heavy');
        const streams = [];
        for (let i = 0; i < 3; ++i) {
            const call = await heavy.call('tools/call', { name: 'delete_note', arguments: { slug: 'heavy' } });
            const events = call.events();
            await events.next((m) => m.method === 'elicitation/create', 5000, 'the elicitation');
            streams.push(events);
        }
        const light = await park(clientAddress(81), 'light');
        const call = await light.call('tools/call', { name: 'delete_note', arguments: { slug: 'light' } });
        await call.events().next((m) => m.method === 'elicitation/create', 5000, 'the newcomer\'s elicitation');
        const ended = await streams[0].next((m) => 'error' in m, 5000, 'the oldest parked call to end');
        assert.equal(ended.message.error.code, -32603);
        assert.match(ended.message.error.message, /Server overloaded/);
        await assert.rejects(streams[1].next((m) => 'error' in m || 'result' in m, 300, 'the others to wait on'), /timed out/);
        call.close();
        for (const s of streams) await s.cancel();
    });
});

describe('who a client is behind a proxy', () => {
    const proxy = clientAddress(200);
    let demo;
    before(async () => {
        demo = await start(['--trusted-proxies', `${proxy},10.0.0.0/8`, '--max-sessions-per-client', '2']);
    });

    async function initializeVia(localAddress, headers) {
        const client = new BoundClient(demo.url, localAddress);
        const r = await client.exchange('POST', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
            JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize',
                params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'p', version: '1' } } }));
        return r.status;
    }

    test('behind a trusted proxy, by the forwarded address; what the client wrote before it is ignored', async () => {
        const via = (xff) => initializeVia(proxy, { 'x-forwarded-for': xff });
        assert.equal(await via('203.0.113.1'), 200);
        assert.equal(await via('6.6.6.6, 203.0.113.1'), 200);  // the client's own entry, on the left, is not believed
        assert.equal(await via('7.7.7.7, 203.0.113.1'), 429);  // 203.0.113.1 holds two
        assert.equal(await via('203.0.113.1, 10.1.2.3'), 429);  // through a second trusted proxy
        assert.equal(await via('203.0.113.2'), 200);  // another client behind the same proxy
        assert.equal(await initializeVia(proxy, {}), 200);  // no header: the proxy itself
    });

    test('behind an untrusted proxy, by the proxy\'s own address, whatever it forwards', async () => {
        const untrusted = clientAddress(201);
        assert.equal(await initializeVia(untrusted, { 'x-forwarded-for': '198.51.100.1' }), 200);
        assert.equal(await initializeVia(untrusted, { 'x-forwarded-for': '198.51.100.2' }), 200);
        assert.equal(await initializeVia(untrusted, { 'x-forwarded-for': '198.51.100.3' }), 429);
    });

    test('a PROXY protocol header names the client from a trusted balancer, and is malformed HTTP from anyone else', async () => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'p', version: '1' } } });
        const request = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n`
            + `Accept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
        const v2 = (a, b, c, d) => Buffer.concat([Buffer.from('\r\n\r\n\0\r\nQUIT\n', 'latin1'), Buffer.from([0x21, 0x11, 0, 12, a, b, c, d, 127, 0, 0, 1, 0x30, 0x39, 0x1f, 0x90])]);
        const send = (localAddress, prefix) => new Promise((resolve) => {
            const s = net.connect({ host: '127.0.0.1', port: demo.port, localAddress });
            let data = '';
            s.on('data', (d) => (data += d.toString('latin1')));
            s.on('close', () => resolve(data.slice(9, 12)));
            s.on('error', () => {});
            s.on('connect', () => s.write(Buffer.concat([Buffer.from(prefix, 'latin1'), Buffer.from(request, 'latin1')])));
        });
        const v1 = 'PROXY TCP4 192.0.2.50 127.0.0.1 40000 8080\r\n';
        assert.equal(await send(proxy, v1), '200');
        assert.equal(await send(proxy, v2(192, 0, 2, 50)), '200');  // the same client, in v2
        assert.equal(await send(proxy, v1), '429');
        assert.equal(await send(proxy, v2(192, 0, 2, 51)), '200');
        assert.equal(await send(clientAddress(202), v1), '400');  // from a peer not trusted
    });
});

describe('half-open sessions', () => {
    test('a flood of initialize is gone after the grace, a session that spoke stays, and the flooder may come back', async () => {
        const demo = await start(['--half-open-timeout', '2s', '--max-sessions-per-client', '300']);
        const open = async () => seriesValue(await demo.metrics(), 'mcp_sessions_open');
        const kept = new BoundClient(demo.url, clientAddress(30));
        assert.equal((await kept.initialize()).status, 200);  // with notifications/initialized
        const flood = await floodInitialize(demo.url, clientAddress(31), 400);
        assert.deepEqual([...flood.statuses].sort(), [[200, 300], [429, 100]]);
        assert.equal(await open(), 301);
        await waitUntil(async () => (await open()) === 1, 5000, 'the half-open sessions to end');
        const list = await (await kept.call('tools/list')).whole();
        assert.equal(list.status, 200, 'the session that spoke is kept');
        const gone = new BoundClient(demo.url, clientAddress(31));
        gone.sessionId = flood.sessions[0];
        assert.equal((await (await gone.call('tools/list')).whole()).status, 404, 'a half-open session is gone');
        assert.equal((await new BoundClient(demo.url, clientAddress(31)).initialize()).status, 200);
    });
});

describe('--rate-limit per address', () => {
    test('one address over its rate gets 429 with Retry-After; another is not slowed', async () => {
        const demo = await start(['--rate-limit', '5/s']);
        const flooder = new BoundClient(demo.url, clientAddress(40));
        const statuses = [];
        for (let i = 0; i < 12; ++i) {
            const r = await (await flooder.modern('tools/call', { name: 'echo', arguments: { text: 'x' } })).whole();
            statuses.push(r.status);
            if (r.status === 429) assert.match(r.headers['retry-after'] ?? '', /^\d+$/);
        }
        assert.ok(statuses.filter((s) => s === 429).length >= 5, `refused: ${statuses}`);
        const other = await (await new BoundClient(demo.url, clientAddress(41)).modern('tools/call', { name: 'echo', arguments: { text: 'y' } })).whole();
        assert.equal(other.status, 200, other.text);
    });
});
