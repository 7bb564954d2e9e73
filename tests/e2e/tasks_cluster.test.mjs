// End-to-end: tasks shared by several mcp-cpp-demo nodes through Redis (--store redis://…, one
// MCP_SECRET), no sticky routing, the demo's export_notes (one step of step_ms per note, two
// notes; confirm: true asks first, key "confirm").
//   - 2026-07-28: a task created on A is polled on B, answered (tasks/update) through B and
//     completes, its handler running on A throughout; a task running on A cancelled through B
//     (the cancel reaches A over pub/sub: its handler stops, the task never completes); a task
//     waiting for input on A cancelled through B stays cancelled; one answer sent through B and C
//     at once wakes A once; hostile ids and answers through Redis (5000 unknown keys, a malformed
//     answer) are errors or ignored, never a crash.
//   - 2025-11-25: one session, every request to another node: a task created through C, read on
//     A, its result (tasks/result) through B; an elicitation asked by a task running on A arrives
//     on B's GET stream and is answered through C; tasks/cancel through B stops a task on A.
//   - A node running tasks (a working one, one waiting for input, a 2025 one) renews its heartbeat:
//     past its 5 s lease they still work. Killed with SIGKILL: within 15 s its tasks read on
//     another node are failed, "The server node running this task stopped"; a tasks/result waiting
//     on another node ends with that error. Nothing hangs.
// Whether and where a handler ran is read from each node's audit log (--audit-log stderr).
// Needs Debian's redis-server (scripts/install-deps.sh --test); the suite fails without it.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/tasks_cluster.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
    modernCall,
    newSecret,
    RedisServer,
    RoundRobinSession,
    startNodes,
    withNodeLogs,
} from './cluster.mjs';
import { demoBinary, sleep, waitUntil, withTimeout } from './helpers.mjs';
import { ACCEPT_CONFIRM, CAPS, CONFIRM_REQUEST, EXPORTED, RELATED_TASK, TASKS } from './tasks_fixtures.mjs';

demoBinary();  // fails at once, with the reason, when MCP_CPP_DEMO is not set
const TEST = { timeout: 30_000 };

const NODE_STOPPED = 'The server node running this task stopped';
const TERMINAL = ['completed', 'failed', 'cancelled'];

// The audit lines a node wrote (--audit-log stderr) for one request id (and one 2025 session).
function auditLines(node, requestId, session) {
    const lines = [];
    for (const line of node.stderr.split('\n')) {
        if (!line.startsWith('{"time"')) continue;
        let parsed;
        try {
            parsed = JSON.parse(line);
        } catch {
            continue;
        }
        if (!parsed.audit || parsed.request_id !== requestId) continue;
        if (session !== undefined && parsed.session !== session) continue;
        lines.push(parsed);
    }
    return lines;
}

// ---------------------------------------------------------------------------------------------
// 2026-07-28 requests to one node; Mcp-Name carries the task id.

let seq = 0;
const nextId = (prefix) => `${prefix}-${process.pid}-${++seq}`;

async function modern(node, method, params, { caps = CAPS, id = nextId(method.replace(/\W/g, '')) } = {}) {
    const headers = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
    const r = await modernCall(node.url, id, method, params, { caps, headers });
    return { ...r, id };
}

function assertAck(r, what) {
    assert.equal(r.status, 200, `${what}: ${r.text}`);
    assert.equal(r.message?.error, undefined, `${what}: ${r.text}`);
    assert.equal(r.message.result.resultType, 'complete', `${what}: ${r.text}`);
    assert.deepEqual(Object.keys(r.message.result).sort(), ['_meta', 'resultType'], `${what}: an empty acknowledgement (${r.text})`);
}

async function createTask(node, args) {
    const r = await modern(node, 'tools/call', { name: 'export_notes', arguments: args });
    assert.equal(r.status, 200, `tools/call export_notes on ${node.name}: ${r.text}`);
    const task = r.message?.result;
    assert.equal(task?.resultType, 'task', `a CreateTaskResult from ${node.name}: ${r.text}`);
    assert.equal(task.status, 'working', r.text);
    assert.equal(typeof task.taskId, 'string', r.text);
    return { ...task, callId: r.id, node };
}

async function getTask(node, taskId) {
    const r = await modern(node, 'tasks/get', { taskId });
    assert.equal(r.status, 200, `tasks/get ${taskId} on ${node.name}: ${r.text}`);
    assert.equal(r.message?.error, undefined, r.text);
    const { _meta, resultType, ...task } = r.message.result;
    assert.equal(task.taskId, taskId, r.text);
    return task;
}

function waitForStatus(node, taskId, statuses, timeoutMs = 10_000) {
    const wanted = [statuses].flat();
    let last;
    return waitUntil(async () => {
        last = await getTask(node, taskId);
        return wanted.includes(last.status) && last;
    }, timeoutMs, `task ${taskId} to be ${wanted.join(' or ')} on ${node.name} (last: ${JSON.stringify(last)})`);
}

function assertCompleted(task, text = EXPORTED) {
    assert.equal(task.status, 'completed', JSON.stringify(task));
    assert.deepEqual(task.result?.content, [{ type: 'text', text }], `the result inlined: ${JSON.stringify(task)}`);
    assert.equal(task.error, undefined, JSON.stringify(task));
    assert.equal(task.inputRequests, undefined, JSON.stringify(task));
}

function assertCancelled(task) {
    assert.equal(task.status, 'cancelled', JSON.stringify(task));
    assert.equal(task.result, undefined, `a cancelled task has no result: ${JSON.stringify(task)}`);
    assert.equal(task.error, undefined, JSON.stringify(task));
    assert.equal(task.inputRequests, undefined, JSON.stringify(task));
}

function assertNodeLost(task) {
    assert.equal(task.status, 'failed', JSON.stringify(task));
    assert.deepEqual(task.error, { code: -32603, message: NODE_STOPPED }, JSON.stringify(task));
    assert.equal(task.result, undefined, JSON.stringify(task));
    assert.equal(task.inputRequests, undefined, JSON.stringify(task));
    assert.equal(task.pollIntervalMs, undefined, JSON.stringify(task));
}

// The one audit line of a handler run that ended (bounded wait).
async function handlerEnded(node, requestId, session, timeoutMs = 5000) {
    const lines = await waitUntil(() => {
        const found = auditLines(node, requestId, session).filter((l) => l.outcome !== 'input_required');
        return found.length > 0 && found;
    }, timeoutMs, `the audit line of request ${requestId} on ${node.name}`);
    assert.equal(lines.length, 1, JSON.stringify(lines));
    return lines[0];
}

describe('tasks shared by three nodes through Redis', { timeout: 170_000 }, () => {
    let redis;
    let cluster;
    let A;
    let B;
    let C;
    const sessions = [];
    const open = (capabilities = {}, nodes = cluster.nodes) => {
        const s = new RoundRobinSession(nodes, { capabilities, clientName: 'mcp-cpp-e2e-tasks-cluster' });
        sessions.push(s);
        return s;
    };

    before(async () => {
        redis = await RedisServer.start();
        cluster = await startNodes(3, { store: redis.url, secret: newSecret(), args: ['--audit-log', 'stderr'] });
        [A, B, C] = cluster.nodes;
    });
    after(async () => {
        for (const s of sessions) s.close();
        await cluster?.close();
        await redis?.close();
    });

    const withLogs = withNodeLogs(() => cluster.nodes);

    test('2026: a task created on A, polled on B, answered through B, completes; its handler ran on A; the record is in Redis', TEST, withLogs(async () => {
        const task = await createTask(A, { step_ms: 200, confirm: true });
        const waiting = await waitForStatus(B, task.taskId, ['input_required', ...TERMINAL], 5000);
        assert.equal(waiting.status, 'input_required', JSON.stringify(waiting));
        assert.deepEqual(waiting.inputRequests, { confirm: CONFIRM_REQUEST });
        assert.equal((await getTask(C, task.taskId)).status, 'input_required');

        assert.equal(await redis.command('HGET', `mcp:t:{${task.taskId}}`, 'status'), 'input_required');
        const nodeId = await redis.command('HGET', `mcp:t:{${task.taskId}}`, 'node');
        assert.ok(nodeId, 'the record names the node running the task');
        const lease = await redis.command('PTTL', `mcp:node:{${nodeId}}`);
        assert.ok(lease > 0 && lease <= 5000, `A's heartbeat key lives ≤ 5 s (PTTL ${lease})`);

        assertAck(await modern(B, 'tasks/update', { taskId: task.taskId, inputResponses: ACCEPT_CONFIRM }), 'tasks/update on B');
        const done = await waitForStatus(B, task.taskId, TERMINAL, 10_000);
        assertCompleted(done);
        assert.deepEqual(await getTask(C, task.taskId), done, 'C reads the same record');
        assert.deepEqual(await getTask(A, task.taskId), done, 'A reads the same record');
        assert.equal(await redis.command('HGET', `mcp:t:{${task.taskId}}`, 'status'), 'completed');
        const ttl = await redis.command('PTTL', `mcp:t:{${task.taskId}}`);
        assert.ok(ttl > 0 && ttl <= task.ttlMs, `the record expires with the task (PTTL ${ttl}, ttlMs ${task.ttlMs})`);

        // The handler asked on A and finished on A (woken there by B's answer), nowhere else.
        await handlerEnded(A, task.callId);
        assert.deepEqual(auditLines(A, task.callId).map((l) => l.outcome), ['input_required', 'ok']);
        assert.deepEqual(auditLines(B, task.callId), []);
        assert.deepEqual(auditLines(C, task.callId), []);
    }));

    test('2026: a task running on A cancelled through B: cancelled everywhere, A\'s handler stops, it never completes', TEST, withLogs(async () => {
        const task = await createTask(A, { step_ms: 2000 });
        await sleep(100);
        assert.equal((await getTask(B, task.taskId)).status, 'working');
        assertAck(await modern(B, 'tasks/cancel', { taskId: task.taskId }), 'tasks/cancel on B');
        const cancelledAt = Date.now();
        assertCancelled(await getTask(B, task.taskId));
        assertCancelled(await getTask(C, task.taskId));

        // The cancel reached A (pub/sub): its handler saw it within its first step.
        const line = await handlerEnded(A, task.callId);
        assert.equal(line.outcome, 'cancelled', JSON.stringify(line));
        assert.ok(line.duration_ms < 2000, `A's handler stopped within its first step (${line.duration_ms} ms)`);
        console.log(`cancel on B → A's handler ended ${Date.now() - cancelledAt} ms later`);
        // Past the 4 s the export would have taken: still cancelled, on every node.
        await sleep(Math.max(0, 4200 - (Date.now() - cancelledAt)));
        for (const node of [A, B, C]) assertCancelled(await getTask(node, task.taskId));
        assert.equal(await redis.command('HGET', `mcp:t:{${task.taskId}}`, 'result'), null, 'no result was stored');
        assertAck(await modern(C, 'tasks/cancel', { taskId: task.taskId }), 'tasks/cancel again, on C');
    }));

    test('2026: a task waiting for input on A cancelled through B; an answer through C afterwards does not revive it', TEST, withLogs(async () => {
        const task = await createTask(A, { step_ms: 10, confirm: true });
        await waitForStatus(C, task.taskId, 'input_required', 5000);
        assertAck(await modern(B, 'tasks/cancel', { taskId: task.taskId }), 'tasks/cancel on B');
        assertCancelled(await getTask(A, task.taskId));
        assertAck(await modern(C, 'tasks/update', { taskId: task.taskId, inputResponses: ACCEPT_CONFIRM }), 'tasks/update on C');
        await sleep(500);
        for (const node of [A, B, C]) assertCancelled(await getTask(node, task.taskId));
        assert.deepEqual(auditLines(A, task.callId).map((l) => l.outcome), ['input_required'], 'the handler never ran again');
    }));

    test('2026: the same answer sent through B and C at once wakes A once: the handler runs again exactly once', TEST, withLogs(async () => {
        const task = await createTask(A, { step_ms: 50, confirm: true });
        await waitForStatus(B, task.taskId, 'input_required', 5000);
        const acks = await Promise.all([B, C, B, C].map((node) => modern(node, 'tasks/update', { taskId: task.taskId, inputResponses: ACCEPT_CONFIRM })));
        acks.forEach((r, i) => assertAck(r, `concurrent tasks/update ${i}`));
        assertCompleted(await waitForStatus(C, task.taskId, TERMINAL, 10_000));
        await handlerEnded(A, task.callId);
        await sleep(300);  // a second wake-up would show as a second run
        assert.deepEqual(auditLines(A, task.callId).map((l) => l.outcome), ['input_required', 'ok']);
    }));

    test('2026 hostile through Redis: unknown ids with key syntax, 5000 unknown answers, a malformed answer; the nodes go on', TEST, withLogs(async () => {
        for (const taskId of ['mcp:t:*', '*', 'no such task', `${'x'.repeat(256)}`]) {
            const r = await modern(B, 'tasks/get', { taskId });
            assert.equal(r.status, 400, r.text);
            assert.deepEqual(r.message?.error, { code: -32602, message: `Unknown task: ${taskId}` }, r.text);
        }
        const task = await createTask(A, { step_ms: 10, confirm: true });
        await waitForStatus(B, task.taskId, 'input_required', 5000);
        const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, { action: 'accept', content: { i } }]));
        assertAck(await modern(C, 'tasks/update', { taskId: task.taskId, inputResponses: many }), '5000 unknown answers on C');
        const still = await getTask(B, task.taskId);
        assert.equal(still.status, 'input_required', JSON.stringify(still).slice(0, 300));
        assert.deepEqual(still.inputRequests, { confirm: CONFIRM_REQUEST });
        assertAck(await modern(B, 'tasks/update', { taskId: task.taskId, inputResponses: { confirm: ['accept'] } }), 'a malformed answer on B');
        const failed = await waitForStatus(C, task.taskId, TERMINAL, 5000);
        assert.equal(failed.status, 'failed', JSON.stringify(failed));
        assert.deepEqual(failed.error, { code: -32602, message: 'inputResponses.confirm: an elicitation result must be an object' });
        for (const node of [A, B, C]) assert.ok(node.alive, `${node.name} is alive`);
        const fresh = await createTask(B, { step_ms: 0 });
        assertCompleted(await waitForStatus(A, fresh.taskId, TERMINAL, 5000));
    }));

    test('2025: one session switching nodes: a task created through C, read on A, its result through B, listed on C', TEST, withLogs(async () => {
        const s = open();
        await s.initialize({ node: A });  // initialize on A, initialized on B
        const created = await s.request('tools/call', { name: 'export_notes', arguments: { step_ms: 300 }, task: { ttl: 60_000 } }, { node: C });
        assert.equal(created.status, 200, created.text);
        const task = created.message?.result?.task;
        assert.equal(task?.status, 'working', created.text);
        assert.ok(Number.isInteger(task.ttl) && Number.isInteger(task.pollInterval), created.text);

        const got = await s.request('tasks/get', { taskId: task.taskId }, { node: A });
        assert.equal(got.message?.result?.status, 'working', got.text);
        assert.equal(got.message.result.ttlMs, undefined, '2025 says ttl');

        const result = await s.request('tasks/result', { taskId: task.taskId }, { node: B, timeoutMs: 15_000 });
        assert.equal(result.status, 200, result.text);
        assert.equal(result.message?.error, undefined, result.text);
        assert.deepEqual(result.message.result.content, [{ type: 'text', text: EXPORTED }], result.text);
        assert.deepEqual(result.message.result._meta?.[RELATED_TASK], { taskId: task.taskId });

        const listed = await s.request('tasks/list', {}, { node: C });
        const mine = listed.message?.result?.tasks?.find((t) => t.taskId === task.taskId);
        assert.equal(mine?.status, 'completed', listed.text);
        s.assertSwitchedEveryTime();
        const line = await handlerEnded(C, created.id, s.sessionId);
        assert.equal(line.outcome, 'ok', JSON.stringify(line));
        assert.deepEqual([...auditLines(A, created.id, s.sessionId), ...auditLines(B, created.id, s.sessionId)], [], 'the handler ran on C only');
    }));

    test('2025: a task on A asks; the elicitation arrives on B\'s GET stream, is answered through C; tasks/result through B', TEST, withLogs(async () => {
        const s = open({ elicitation: { form: {} } });
        await s.initialize({ node: B });  // initialize on B, initialized on C
        const get = await s.get({ node: B });
        assert.equal(get.status, 200, get.text);
        try {
            const created = await s.request('tools/call',
                { name: 'export_notes', arguments: { step_ms: 50, confirm: true }, task: { ttl: 60_000 } }, { node: A });
            const task = created.message?.result?.task;
            assert.equal(task?.status, 'working', created.text);

            const { message: ask } = await get.reader.next((m) => m.method === 'elicitation/create', 10_000,
                'the elicitation of the task on B\'s GET stream');
            assert.deepEqual(ask.params._meta?.[RELATED_TASK], { taskId: task.taskId });
            assert.equal(ask.params.message, CONFIRM_REQUEST.params.message);
            assert.deepEqual(ask.params.requestedSchema, CONFIRM_REQUEST.params.requestedSchema);
            const waiting = await s.request('tasks/get', { taskId: task.taskId }, { node: C });
            assert.equal(waiting.message?.result?.status, 'input_required', waiting.text);

            const answered = await s.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { confirm: true } } }, { node: C });
            assert.equal(answered.status, 202, answered.text);
            const result = await s.request('tasks/result', { taskId: task.taskId }, { node: B, timeoutMs: 15_000 });
            assert.deepEqual(result.message?.result?.content, [{ type: 'text', text: EXPORTED }], result.text);
            assert.deepEqual(result.message.result._meta?.[RELATED_TASK], { taskId: task.taskId });
            const line = await handlerEnded(A, created.id, s.sessionId);
            assert.equal(line.outcome, 'ok', JSON.stringify(line));

            // The status notifications of the task reached the GET stream on B as well, in order.
            await get.reader.next((m) => m.method === 'notifications/tasks/status' && m.params.taskId === task.taskId
                && m.params.status === 'completed', 5000, 'the completed notification on B');
            const seen = get.reader.events.filter((e) => e.data).map((e) => JSON.parse(e.data))
                .filter((m) => m.method === 'notifications/tasks/status' && m.params.taskId === task.taskId)
                .map((m) => m.params.status);
            assert.deepEqual(seen, ['input_required', 'working', 'completed']);
        } finally {
            get.abort();
        }
    }));

    test('2025: tasks/cancel through B of a task running on A: the task answered cancelled, A\'s handler stops; again: -32602', TEST, withLogs(async () => {
        const s = open();
        await s.initialize({ node: C });
        const created = await s.request('tools/call', { name: 'export_notes', arguments: { step_ms: 2000 }, task: {} }, { node: A });
        const { taskId } = created.message.result.task;
        const cancelled = await s.request('tasks/cancel', { taskId }, { node: B });
        assert.equal(cancelled.message?.result?.taskId, taskId, cancelled.text);
        assert.equal(cancelled.message.result.status, 'cancelled', cancelled.text);
        const line = await handlerEnded(A, created.id, s.sessionId);
        assert.equal(line.outcome, 'cancelled', JSON.stringify(line));
        assert.ok(line.duration_ms < 2000, `A's handler stopped early (${line.duration_ms} ms)`);
        const again = await s.request('tasks/cancel', { taskId }, { node: C });
        assert.deepEqual(again.message?.error, { code: -32602, message: `Task ${taskId} is cancelled already` }, again.text);
        const result = await s.request('tasks/result', { taskId }, { node: A });
        assert.deepEqual(result.message?.error, { code: -32603, message: `Task ${taskId} was cancelled` }, result.text);
    }));

    // Last: it kills C.
    test('C killed with SIGKILL while it runs tasks: alive past its lease they work on; killed, within 15 s they are failed ("node stopped") on A and B; a waiting tasks/result ends', { timeout: 60_000 }, withLogs(async () => {
        const running = await createTask(C, { step_ms: 60_000 });
        const asking = await createTask(C, { step_ms: 60_000, confirm: true });
        const s = open({}, [A, B]);
        await s.initialize({ node: A });
        const legacy = await s.request('tools/call', { name: 'export_notes', arguments: { step_ms: 60_000 }, task: {} }, { node: C });
        const legacyId = legacy.message?.result?.task?.taskId;
        assert.ok(legacyId, legacy.text);
        await waitForStatus(A, asking.taskId, 'input_required', 5000);

        // Alive, C keeps its tasks alive: past the 5 s lease it renews, nothing has failed.
        await sleep(6000);
        assert.equal((await getTask(A, running.taskId)).status, 'working');
        assert.equal((await getTask(B, asking.taskId)).status, 'input_required');
        const nodeId = await redis.command('HGET', `mcp:t:{${running.taskId}}`, 'node');
        const lease = await redis.command('PTTL', `mcp:node:{${nodeId}}`);
        assert.ok(lease > 3000 && lease <= 5000, `C renews its heartbeat key every second (PTTL ${lease} ms, 6 s after its tasks began)`);

        // tasks/result on B waits for the 2025 task; it must end when C is found dead.
        const waitingResult = s.request('tasks/result', { taskId: legacyId }, { node: B, timeoutMs: 20_000 });
        waitingResult.catch(() => {});
        const killed = await C.kill();
        assert.equal(killed.signal, 'SIGKILL');
        const killedAt = Date.now();

        const failed = await waitForStatus(A, running.taskId, TERMINAL, 15_000);
        const detectedAfter = Date.now() - killedAt;
        assertNodeLost(failed);
        console.log(`C killed → its task read as failed on A after ${detectedAfter} ms`);
        assert.equal(await redis.command('EXISTS', `mcp:node:{${nodeId}}`), 0, 'C\'s heartbeat key expired');
        assertNodeLost(await getTask(B, running.taskId));
        assertNodeLost(await waitForStatus(B, asking.taskId, TERMINAL, 5000));
        assertNodeLost(await getTask(A, asking.taskId));

        const result = await withTimeout(waitingResult, 20_000, 'tasks/result on B after C died');
        assert.equal(result.status, 200, result.text);
        assert.deepEqual(result.message?.error, { code: -32603, message: NODE_STOPPED }, result.text);
        const got = await s.request('tasks/get', { taskId: legacyId }, { node: A });
        assert.equal(got.message?.result?.status, 'failed', got.text);
        const cancel = await s.request('tasks/cancel', { taskId: legacyId }, { node: B });
        assert.deepEqual(cancel.message?.error, { code: -32602, message: `Task ${legacyId} is failed already` }, cancel.text);

        // A dead node's task is settled: a cancel (2026) is acknowledged and changes nothing.
        assertAck(await modern(A, 'tasks/cancel', { taskId: running.taskId }), 'tasks/cancel of the failed task');
        assertNodeLost(await getTask(B, running.taskId));
        // The survivors still run tasks.
        const fresh = await createTask(A, { step_ms: 0 });
        assertCompleted(await waitForStatus(B, fresh.taskId, TERMINAL, 5000));
    }));
});
