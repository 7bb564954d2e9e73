// End-to-end: two mcp-cpp-gateway nodes sharing a redis-server (--store redis://…, one key ring),
// each with server-everything (npm) as its own stdio child, and a 2025-11-25 session whose requests
// go to the nodes in turn: the session made on one node is served by the other, each call
// answered by the child of the node it reached; a child killed on one node fails that node's call
// and leaves the other node's child serving (docs/adr/0029-gateway.md, decisions 7 and 10).
// Behind a round-robin balancer, server-everything's elicitation crosses the nodes: a 2026 client's
// retry reaches the node that does not hold the child's call, which resumes it there (the child
// asked once); a 2025 session's answer reaches the other node; one retry sent to both nodes at
// once resumes the call once; and a retry whose node died fails on the survivor with a clear error
// after the relay's silence (decision 11).
//   MCP_CPP_GATEWAY=build/tools/mcp-cpp-gateway/mcp-cpp-gateway MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo \
//   node --test tests/e2e/gateway_cluster.test.mjs
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, ProtocolError, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';

import { modernCall, newSecret, RedisServer, RoundRobinBalancer, RoundRobinSession, startNodes, toolText, withNodeLogs } from './cluster.mjs';
import { MODERN, waitUntil } from './helpers.mjs';

const TEST = { timeout: 60_000 };
const REQUEST = { timeout: 20_000 };
const ELICITS = 'everything_trigger-elicitation-request';
const here = fileURLToPath(new URL('.', import.meta.url));
const everything = join(here, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

function gatewayBinary() {
    const path = process.env.MCP_CPP_GATEWAY;
    assert.ok(path && existsSync(path), `MCP_CPP_GATEWAY must name the mcp-cpp-gateway binary (ctest sets it): ${path}`);
    return path;
}

// The processes whose command line names `marker` (each node's child has its own script).
function pidsNaming(marker) {
    return readdirSync('/proc').filter((e) => /^\d+$/.test(e)).filter((pid) => {
        try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
        } catch {
            return false;
        }
    }).map(Number);
}

describe('two mcp-cpp-gateway nodes on one Redis, server-everything behind each', () => {
    let redis;
    let cluster;
    let scratch;
    let A;
    let B;

    before(async () => {
        scratch = mkdtempSync(join(tmpdir(), 'mcp-gateway-cluster-'));
        writeFileSync(join(scratch, 'everything.mjs'), `import ${JSON.stringify(everything)};\n`);
        writeFileSync(join(scratch, 'servers.json'), JSON.stringify({
            mcpServers: { everything: { command: process.execPath, args: [join(scratch, 'everything.mjs'), 'stdio'] } },
        }));
        redis = await RedisServer.start();
        cluster = await startNodes(2, { store: redis.url, secret: newSecret(), binary: gatewayBinary(),
            args: ['--servers', join(scratch, 'servers.json')] });
        [A, B] = cluster.nodes;
    });
    after(async () => {
        await cluster?.close();
        await redis?.close();
        if (scratch) {
            await waitUntil(() => pidsNaming(scratch).length === 0, 10_000, 'the children to exit with their nodes');
            rmSync(scratch, { recursive: true, force: true });
        }
    });

    const withLogs = withNodeLogs(() => cluster.nodes, { more: () => `\nbalancer: ${JSON.stringify(balancer?.history ?? [])}` });
    let balancer;
    afterEach(async () => {
        await balancer?.close();
        balancer = undefined;
    });

    // An SDK client (v1: a 2025-11-25 session; v2: pinned to 2026-07-28) behind a round-robin
    // balancer, answering forms with a name after `onAsked(params)`; `asked` keeps what it was asked.
    async function answeringClient(wire, onAsked = async () => {}) {
        balancer = await RoundRobinBalancer.start(cluster.nodes);
        const asked = [];
        const capabilities = { elicitation: { form: {} } };
        const client = wire === 'v1'
            ? new ClientV1({ name: 'cluster-e2e-v1', version: '1.0.0' }, { capabilities })
            : new ClientV2({ name: 'cluster-e2e-v2', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: { pin: MODERN } } });
        const onElicit = async (req) => {
            asked.push(req.params);
            await onAsked(req.params);
            return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
        };
        if (wire === 'v1') {
            client.setRequestHandler(ElicitRequestSchema, onElicit);
        } else {
            client.setRequestHandler('elicitation/create', onElicit);
        }
        await client.connect(wire === 'v1' ? new TransportV1(new URL(balancer.url)) : new TransportV2(new URL(balancer.url)), REQUEST);
        return { client, asked };
    }
    const callTool = (client, params) =>
        (client instanceof ClientV1 ? client.callTool(params, undefined, REQUEST) : client.callTool(params, REQUEST));

    test('a session made on A is served by B, each call by the child of the node it reached', TEST, withLogs(async () => {
        assert.equal(pidsNaming(join(scratch, 'everything.mjs')).length, 2, 'one child per node');
        const s = new RoundRobinSession(cluster.nodes);
        try {
            const init = await s.initialize({ node: A });
            assert.equal(init.message.result.serverInfo.name, 'mcp-cpp-gateway');
            const list = await s.request('tools/list', {});
            assert.equal(list.status, 200, list.text);
            assert.ok(list.message.result.tools.some((t) => t.name === 'everything_echo'), list.text);
            for (let i = 0; i < 6; ++i) {
                const call = await s.request('tools/call', { name: 'everything_echo', arguments: { message: `m${i}` } });
                assert.equal(call.status, 200, call.text);
                assert.equal(toolText(call.message), `Echo: m${i}`);
            }
            s.assertSwitchedEveryTime();
        } finally {
            s.close();
        }
        for (const node of [A, B]) {
            const r = await modernCall(node.url, `echo-${node.name}`, 'tools/call', { name: 'everything_echo', arguments: { message: node.name } });
            assert.equal(toolText(r.message), `Echo: ${node.name}`, `2026 on ${node.name}`);
        }
    }));

    test('a child killed on A: A\'s call fails with -32603, B goes on, and A\'s child comes back', TEST, withLogs(async () => {
        const children = pidsNaming(join(scratch, 'everything.mjs'));
        assert.equal(children.length, 2);
        const onA = children.find((pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[3] === String(A.child.pid));
        assert.ok(onA, `A's child among ${children}`);
        const slow = modernCall(A.url, 'slow-on-A', 'tools/call', { name: 'everything_trigger-long-running-operation', arguments: { duration: 20, steps: 20 } },
            { timeoutMs: 15_000 });
        await new Promise((resolve) => setTimeout(resolve, 500));
        process.kill(onA, 'SIGKILL');
        const failed = await slow;
        assert.equal(failed.message?.error?.code, -32603, JSON.stringify(failed.message));
        assert.match(failed.message.error.message, /mounted server "everything" cannot be reached/);

        const onB = await modernCall(B.url, 'echo-B', 'tools/call', { name: 'everything_echo', arguments: { message: 'still here' } });
        assert.equal(toolText(onB.message), 'Echo: still here');
        await waitUntil(async () => {
            const r = await modernCall(A.url, `echo-A-${Date.now()}`, 'tools/call', { name: 'everything_echo', arguments: { message: 'back' } });
            return r.message?.result?.content?.[0]?.text === 'Echo: back';
        }, 20_000, 'A\'s child to be restarted');
    }));
    test('2026: the retry reaches the other node, which resumes the call waiting on the first; the child asks once', TEST, withLogs(async () => {
        const { client, asked } = await answeringClient('v2');
        try {
            const result = await callTool(client, { name: ELICITS, arguments: {} });
            assert.match(JSON.stringify(result.content), /Name: Ada Lovelace/);
            assert.equal(asked.length, 1, 'one child call asked once');
            const [first] = balancer.history.filter((h) => h.what === 'tools/call');
            const [retry] = balancer.history.filter((h) => h.what === 'tools/call (retry)');
            assert.ok(first && retry, JSON.stringify(balancer.history));
            assert.notEqual(retry.node, first.node, 'the retry went to the node that does not hold the call');
        } finally {
            await client.close().catch(() => {});
        }
    }));

    test('2025: a session\'s answer to the child\'s question reaches the other node and completes the call', TEST, withLogs(async () => {
        const { client, asked } = await answeringClient('v1');
        try {
            const result = await callTool(client, { name: ELICITS, arguments: {} });
            assert.match(JSON.stringify(result.content), /Name: Ada Lovelace/);
            assert.equal(asked.length, 1);
            const call = balancer.history.findLast((h) => h.what === 'tools/call');
            const answer = balancer.history.findLast((h) => h.what === 'response');
            assert.ok(call && answer, JSON.stringify(balancer.history));
            assert.notEqual(answer.node, call.node, 'the answer went to the node that does not run the call');
        } finally {
            await client.close().catch(() => {});
        }
    }));

    test('2026: one round\'s retry sent to both nodes at once: one resumes the call, the other hears it is no longer waiting', TEST, withLogs(async () => {
        const caps = { elicitation: { form: {} } };
        const first = await modernCall(A.url, 'race-1', 'tools/call', { name: ELICITS, arguments: {} }, { caps });
        const round = first.message?.result;
        assert.ok(round?.inputRequests && round.requestState, first.text);
        const [key] = Object.keys(round.inputRequests);
        const retry = (node) => modernCall(node.url, `race-${node.name}`, 'tools/call', {
            name: ELICITS, arguments: {}, requestState: round.requestState,
            inputResponses: { [key]: { action: 'accept', content: { name: 'Ada Lovelace', check: true } } },
        }, { caps });
        const outcomes = (await Promise.all([retry(A), retry(B)])).map((o) => o.message);
        const done = outcomes.filter((m) => m?.result?.content);
        const refused = outcomes.filter((m) => m?.error);
        assert.equal(done.length, 1, JSON.stringify(outcomes));
        assert.match(JSON.stringify(done[0].result.content), /Name: Ada Lovelace/);
        assert.equal(refused.length, 1, JSON.stringify(outcomes));
        assert.equal(refused[0].error.code, -32603);
        assert.match(refused[0].error.message, /no longer waiting/);
    }));

    // Last: it leaves one node.
    test('2026: the node holding the call dies while it waits; the retry on the survivor fails with -32603 after the relay\'s silence', TEST, withLogs(async () => {
        let owner;
        const { client } = await answeringClient('v2', async () => {
            // The node that took the first round holds the child's call: it dies before the answer.
            const first = balancer.history.findLast((h) => h.what === 'tools/call');
            owner = cluster.nodes.find((n) => n.name === first.node);
            const child = pidsNaming(join(scratch, 'everything.mjs'))
                .find((pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[3] === String(owner.child.pid));
            await owner.kill();
            if (child) process.kill(child, 'SIGKILL');
        });
        try {
            const began = Date.now();
            const error = await callTool(client, { name: ELICITS, arguments: {} }).then(() => undefined, (e) => e);
            const took = Date.now() - began;
            assert.ok(error instanceof ProtocolError, `a JSON-RPC error: ${error}`);
            assert.equal(error.code, -32603);
            assert.match(error.message, /mounted server "everything": the gateway node holding the call this retry continues did not answer within 5000 ms/);
            const retry = balancer.history.findLast((h) => h.what === 'tools/call (retry)');
            assert.ok(retry && retry.node !== owner.name, JSON.stringify(balancer.history));
            assert.ok(took < 10_000, `failed after the silence, not a hang: ${took} ms`);
        } finally {
            await client.close().catch(() => {});
        }
    }));
});
