// Helpers of the failover tests (sentinel, redis_cluster): load on every node while a Redis
// master is killed or slots move, streams read to their end, elicitations parked on one node and
// answered through another, the log messages a call got. Every wait is bounded.
import assert from 'node:assert/strict';

import { modernCall, toolText } from './cluster.mjs';
import { sleep, withTimeout } from './helpers.mjs';

export const ELICITING = { elicitation: { form: {} } };

export const logMessages = (messages) => messages.filter((m) => m.method === 'notifications/message');

// Traffic on every node until stop(): 2025 echo calls of a few sessions, and 2026 echo calls.
// A 2025 call may be refused with 503 while no master is known; anything else is recorded as wrong.
export function load(nodes, sessions) {
    const results = [];
    let stopped = false;
    const loop2025 = (async () => {
        for (let i = 0; !stopped; ++i) {
            const s = sessions[i % sessions.length];
            const text = `legacy ${i}`;
            const at = Date.now();
            try {
                const r = await s.request('tools/call', { name: 'echo', arguments: { text } }, { timeoutMs: 5000 });
                const ok = r.status === 200 && r.message?.result?.content?.[0]?.text === text;
                const refused = r.status === 503 && r.headers.get('retry-after') !== null && r.message?.error !== undefined;
                results.push({ era: 2025, node: r.node.name, at, ok, refused, status: r.status, text: ok ? undefined : r.text.slice(0, 300) });
            } catch (e) {
                results.push({ era: 2025, at, ok: false, refused: false, error: String(e.cause ?? e) });
            }
            await sleep(20);
        }
    })();
    const loop2026 = (async () => {
        for (let i = 0; !stopped; ++i) {
            const node = nodes[i % nodes.length];
            const text = `modern ${i}`;
            const at = Date.now();
            try {
                const r = await modernCall(node.url, `m-${i}`, 'tools/call', { name: 'echo', arguments: { text } }, { timeoutMs: 5000 });
                results.push({ era: 2026, node: node.name, at, ok: r.status === 200 && r.message?.result?.content?.[0]?.text === text, status: r.status });
            } catch (e) {
                results.push({ era: 2026, node: node.name, at, ok: false, error: String(e.cause ?? e) });
            }
            await sleep(20);
        }
    })();
    return {
        results,
        async stop() {
            stopped = true;
            await withTimeout(Promise.all([loop2025, loop2026]), 15_000, 'the load loops to stop');
            return results;
        },
    };
}

// Reads a stream to its end in the background: {messages, done}.
export function drain(reader, timeoutMs) {
    const messages = [];
    const done = (async () => {
        for (;;) {
            const { message } = await reader.next(() => true, timeoutMs, 'the rest of the stream');
            messages.push(message);
            if (!('method' in message)) return messages;
        }
    })();
    return { messages, done };
}

// Progress values of the stream's notifications, in order.
export const progressOf = (messages) => messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress);

export function assertIncreasing(values, what) {
    for (let i = 1; i < values.length; ++i) assert.ok(values[i] > values[i - 1], `${what}: ${JSON.stringify(values)}`);
}

// A slow_count call's log messages on one node; its session's level decides whether there are any.
export async function logsOfCall(s, node) {
    const r = await s.request('tools/call', { name: 'slow_count', arguments: { to: 2, step_ms: 10 } }, { node });
    assert.equal(r.status, 200, `slow_count on ${node.name}: ${r.text}`);
    assert.equal(toolText(r.message, `slow_count on ${node.name}`), 'Counted to 2');
    return logMessages(r.messages);
}

// Three delete_note calls on `node`, each parked on its elicitation/create: [{call, question}].
export async function park(s, node) {
    const parked = [];
    for (let i = 0; i < 3; ++i) {
        const call = await s.stream('tools/call', { name: 'delete_note', arguments: { slug: 'welcome' } }, { node });
        assert.equal(call.status, 200);
        const { message } = await call.reader.next((m) => m.method === 'elicitation/create', 5000, `elicitation ${i} on ${node.name}`);
        parked.push({ call, question: message });
    }
    return parked;
}

// Answers each parked question through `node` ("no, keep it") and checks each call finishes.
export async function answer(s, parked, node) {
    for (const { question } of parked) {
        const r = await s.send({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: false } } }, { node });
        assert.equal(r.status, 202, `the answer POSTed to ${node.name}: ${r.status} ${r.text}`);
    }
    for (const { call } of parked) {
        const { message } = await call.reader.next((m) => m.id === call.id && !('method' in m), 10_000, 'the parked call\'s result');
        assert.equal(toolText(message, 'the parked call'), 'Kept welcome');
    }
}

