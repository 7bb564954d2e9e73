// Bounded and fair across nodes (docs/adr/0024-fair-limits.md): the floods of http_fairness sent
// through two demo nodes sharing one redis-server. What lives in the store is counted there, for
// all nodes at once (sessions, tasks); what lives on a node is counted per node (listen streams,
// parked calls), so that N nodes give a client N times the figure. Half-open sessions made on one
// node end unless a request reaches any node. Clients bind 127.0.0.2 and up.
// Needs Debian's redis-server (scripts/install-deps.sh --test); the suite fails without it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { BoundClient, clientAddress, floodInitialize, seriesValue } from './bound_clients.mjs';
import { ClusterNode, newSecret, RedisServer } from './cluster.mjs';
import { demoBinary, freePort, waitUntil } from './helpers.mjs';

demoBinary();  // fails at once, with the reason, when MCP_CPP_DEMO is not set
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

describe('floods through two nodes sharing Redis', { timeout: 150_000 }, () => {
    let redis;
    const nodes = [];
    let A;
    let B;

    before(async () => {
        redis = await RedisServer.start();
        const secret = newSecret();
        for (const name of ['A', 'B']) {
            const metrics = await freePort();
            const node = await ClusterNode.start({
                name, store: redis.url, secret,
                args: ['--metrics', `127.0.0.1:${metrics}`, '--max-sessions-per-client', '50', '--half-open-timeout', '2s',
                    '--max-tasks', '4', '--max-listen-streams-per-client', '5', '--max-parked-calls-per-client', '3',
                    '--elicitation-timeout', '2m'],
            });
            node.metrics = async () => (await fetch(`http://127.0.0.1:${metrics}/metrics`)).text();
            nodes.push(node);
        }
        [A, B] = nodes;
    });
    after(async () => {
        await Promise.all(nodes.map((n) => n.close()));
        await redis?.close();
    });

    test('sessions are counted in the store: a flood split over both nodes gets 50 in all, and they end after the grace', async () => {
        const flooder = clientAddress(0);
        const [onA, onB] = await Promise.all([floodInitialize(A.url, flooder, 100), floodInitialize(B.url, flooder, 100)]);
        const admitted = (onA.statuses.get(200) ?? 0) + (onB.statuses.get(200) ?? 0);
        const refused = (onA.statuses.get(429) ?? 0) + (onB.statuses.get(429) ?? 0);
        assert.equal(admitted, 50, `admitted ${admitted}`);
        assert.equal(refused, 150);
        assert.ok(onA.retryAfterEverywhere && onB.retryAfterEverywhere);

        // Another client: made on A, used on B (its second request, which makes it whole).
        const other = new BoundClient(A.url, clientAddress(1));
        assert.equal((await other.initialize({ halfOpen: true })).status, 200);
        other.url = new URL(B.url);
        assert.equal((await (await other.call('tools/list')).whole()).status, 200);

        // The flood's sessions were never used again: gone on both nodes after the grace, and the
        // flooder's count with them; the other client's session is kept.
        const open = async (node) => seriesValue(await node.metrics(), 'mcp_sessions_open');
        await waitUntil(async () => (await open(A)) <= 1 && (await open(B)) <= 1, 10_000, 'the half-open sessions to end');
        other.url = new URL(A.url);
        assert.equal((await (await other.call('tools/list')).whole()).status, 200);
        assert.equal((await new BoundClient(B.url, flooder).initialize()).status, 200);
        const refusals = async (node) => seriesValue(await node.metrics(), 'mcp_limit_refusals_total', { bound: 'sessions', limit: 'client' });
        assert.equal((await refusals(A)) + (await refusals(B)), 150);
    });

    test('tasks are counted in the store: two on each node, a fifth on either is 429; another address creates its own', async () => {
        const task = async (node, address) =>
            (await (await new BoundClient(node.url, address).modern('tools/call', { name: 'export_notes', arguments: { step_ms: 0 } }, TASKS)).whole());
        for (const node of [A, A, B, B]) assert.equal((await task(node, clientAddress(2))).messages[0]?.result?.resultType, 'task');
        for (const node of [A, B]) {
            const r = await task(node, clientAddress(2));
            assert.equal(r.status, 429, r.text);
            assert.equal(r.messages[0]?.error?.code, -32029, r.text);
        }
        assert.equal((await task(B, clientAddress(3))).status, 200);
    });

    test('listen streams and parked calls are counted per node: a client holds the quota on each', async () => {
        const address = clientAddress(4);
        const held = [];
        for (const node of [A, B]) {
            const client = new BoundClient(node.url, address);
            for (let i = 0; i < 5; ++i) {
                const a = await client.listen();
                assert.equal(a.status, 200, `listen ${i} on ${node.name}`);
                held.push(a);
            }
            assert.equal((await (await client.listen()).whole()).status, 429, `a sixth listen on ${node.name}`);
        }

        const parker = new BoundClient(A.url, address);
        assert.equal((await parker.initialize({ capabilities: { elicitation: { form: {} } } })).status, 200);
        for (const node of [A, B]) {
            parker.url = new URL(node.url);
            // Notes live in each demo process: one to delete on this node.
            assert.equal((await (await parker.call('tools/call', { name: 'add_note', arguments: { slug: 'parked', body: 'x' } })).whole()).status, 200);
            for (let i = 0; i < 3; ++i) {
                const call = await parker.call('tools/call', { name: 'delete_note', arguments: { slug: 'parked' } });
                assert.equal(call.status, 200, `parked call ${i} on ${node.name}`);
                await call.events().next((m) => m.method === 'elicitation/create', 5000, 'the elicitation');
                call.close();
            }
            const over = await (await parker.call('tools/call', { name: 'delete_note', arguments: { slug: 'parked' } })).whole();
            assert.equal(over.status, 429, `a fourth parked call on ${node.name}: ${over.text}`);
        }
        for (const a of held) a.close();
    });
});
