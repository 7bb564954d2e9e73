// End-to-end: tasks on one mcp-cpp-demo node over Streamable HTTP, through the demo's
// export_notes (task_support optional; one step of step_ms per note, two notes; confirm: true asks
// the user first, under the key "confirm").
//   - 2025-11-25 (sessions), through the official SDK v1 client's experimental tasks API
//     (client.experimental.tasks: callToolStream, getTask, getTaskResult, listTasks, cancelTask):
//     the capability and execution.taskSupport, a task created with params.task, polled, its
//     result through tasks/result, tasks/list, notifications/tasks/status on the GET stream,
//     tasks/cancel of a running task (its handler stops) and of a finished one (-32602), an
//     elicitation asked inside a task on the session's GET stream and answered by the SDK's
//     elicitation handler, progress of a task reaching onprogress, and invalid tasks/* requests.
//     Two tests fail on purpose (server bugs, see their comments): a task whose tool result has
//     isError ends completed instead of failed, and tasks/update in a 2025 session is answered
//     as a 2026 request without its envelope instead of -32601.
//   - 2026-07-28 (stateless), by raw HTTP: the flat CreateTaskResult, tasks/get (DetailedTask with
//     inputRequests, then the result inlined), tasks/update answering the confirm question,
//     tasks/cancel, the extension gate (-32021), Mcp-Name, unknown ids, and hostile params (a
//     taskId that is a number, missing, 10 KB long; inputResponses that are not an object;
//     malformed answers): JSON-RPC errors, never a crash.
//   - The SDK v2 client (@modelcontextprotocol/client 2.4.0) pinned to 2026-07-28 polls, answers
//     and cancels a task through its generic request(): 2.4.0 has no tasks API of its own, and its
//     callTool() refuses a tools/call answered with resultType "task" (UNSUPPORTED_RESULT_TYPE), so
//     the task it drives is created by raw HTTP.
//   - Bounds: --task-ttl and --task-poll-interval are what tasks say; --max-tasks refuses one more
//     task within the ttl (-32600); an expired task is unknown.
//   - Principals (OAuth, the demo behind a test authorization server): another principal's task is
//     an unknown task on both wires, and tasks/list lists the caller's only, a page at a time.
// Whether a handler stopped is read from the demo's audit log (--audit-log stderr): one line per
// handler run of a tools/call, with its outcome and duration.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/tasks.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
    CallToolResultSchema,
    CreateTaskResultSchema,
    ElicitRequestSchema,
    GetTaskResultSchema,
    ListTasksResultSchema,
    McpError,
} from '@modelcontextprotocol/sdk/types.js';
import {
    Client as ClientV2,
    ProtocolError,
    StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';

import { AuthorizationServer } from './authorization_server.mjs';
import { ACCEPT_CONFIRM, CAPS, CONFIRM_REQUEST, EXPORTED, RELATED_TASK, TASKS } from './tasks_fixtures.mjs';
import { modernCall, readBody, responseOf } from './cluster.mjs';
import {
    demoBinary,
    HttpDemo,
    HttpRecorder,
    MODERN,
    modernHeaders,
    modernRequest,
    sleep,
    tapTransport,
    waitUntil,
    withTimeout,
} from './helpers.mjs';

demoBinary();  // fails at once, with the reason, when MCP_CPP_DEMO is not set
const REQUEST = { timeout: 15_000 };  // every SDK request fails after this instead of hanging
const TEST = { timeout: 30_000 };

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const INVALID_TASK_ID = 'Invalid params: taskId must be a non-empty string';
const INVALID_RESPONSES = 'Invalid params: inputResponses must be an object';

function deferred() {
    let resolve;
    let reject;
    const promise = new Promise((res, rej) => {
        resolve = res;
        reject = rej;
    });
    return { promise, resolve, reject };
}

// The audit lines of a demo (--audit-log stderr), optionally only those of one request id (and
// of one 2025 session: SDK clients number their requests alike).
function auditLines(stderr, requestId, session) {
    const lines = [];
    for (const line of stderr.split('\n')) {
        if (!line.startsWith('{"time"')) continue;
        let parsed;
        try {
            parsed = JSON.parse(line);
        } catch {
            continue;
        }
        if (!parsed.audit) continue;
        if (requestId !== undefined && parsed.request_id !== requestId) continue;
        if (session !== undefined && parsed.session !== session) continue;
        lines.push(parsed);
    }
    return lines;
}

// ---------------------------------------------------------------------------------------------
// 2026-07-28 by hand.

let seq = 0;
const nextId = (prefix) => `${prefix}-${process.pid}-${++seq}`;

// One 2026 request: {status, message, text, id}. Mcp-Name carries a string taskId unless the
// caller's headers say otherwise.
async function modern(url, method, params, { caps = CAPS, headers = {}, id = nextId(method.replace(/\W/g, '')) } = {}) {
    const name = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
    const r = await modernCall(url, id, method, params, { caps, headers: { ...name, ...headers } });
    return { ...r, id };
}

// A 2026 request whose headers are exactly modernHeaders(message) plus `headers` (a value of
// undefined removes one): for requests the helper above would correct.
async function modernRaw(url, method, params, headers = {}, caps = CAPS) {
    const id = nextId('raw');
    const message = modernRequest(id, method, params, { 'io.modelcontextprotocol/clientCapabilities': caps });
    const all = { ...modernHeaders(message), ...headers };
    for (const [k, v] of Object.entries(all)) if (v === undefined) delete all[k];
    const res = await fetch(url, { method: 'POST', headers: all, body: JSON.stringify(message), signal: AbortSignal.timeout(10_000) });
    const body = await readBody(res, 10_000, `the answer to ${method}`);
    return { status: body.status, message: responseOf(body.messages, id), text: body.text, id };
}

function assertError(r, httpStatus, code, message, what) {
    assert.equal(r.status, httpStatus, `${what}: HTTP status (${r.text})`);
    assert.equal(r.message?.result, undefined, `${what}: no result (${r.text})`);
    assert.equal(r.message?.error?.code, code, `${what}: error code (${r.text})`);
    if (message instanceof RegExp) assert.match(r.message.error.message, message, `${what}: ${r.text}`);
    else if (message !== undefined) assert.equal(r.message.error.message, message, `${what}: ${r.text}`);
    return r.message.error;
}

function assertAck(r, what) {
    assert.equal(r.status, 200, `${what}: ${r.text}`);
    assert.equal(r.message?.error, undefined, `${what}: ${r.text}`);
    const { _meta, ...rest } = r.message.result;
    assert.deepEqual(rest, { resultType: 'complete' }, `${what}: an empty acknowledgement (${r.text})`);
    assert.equal(_meta?.[SERVER_INFO]?.name, 'mcp-cpp-demo', `${what}: ${r.text}`);
}

// tools/call of export_notes that becomes a task: asserts the flat CreateTaskResult, returns it.
async function createTask(url, args, options = {}) {
    const r = await modern(url, 'tools/call', { name: 'export_notes', arguments: args }, options);
    assert.equal(r.status, 200, `tools/call export_notes: ${r.text}`);
    assert.equal(r.message?.error, undefined, r.text);
    const task = r.message.result;
    assert.deepEqual(Object.keys(task).sort(),
        ['_meta', 'createdAt', 'lastUpdatedAt', 'pollIntervalMs', 'resultType', 'status', 'taskId', 'ttlMs'],
        `a flat CreateTaskResult: ${r.text}`);
    assert.equal(task.resultType, 'task', r.text);
    assert.equal(task.status, 'working', r.text);
    assert.equal(typeof task.taskId, 'string', r.text);
    assert.ok(task.taskId.length >= 16, `an unguessable task id: ${task.taskId}`);
    assert.match(task.createdAt, ISO_TIME, r.text);
    assert.match(task.lastUpdatedAt, ISO_TIME, r.text);
    assert.ok(Number.isInteger(task.ttlMs) && task.ttlMs > 0, r.text);
    assert.ok(Number.isInteger(task.pollIntervalMs) && task.pollIntervalMs > 0, r.text);
    assert.equal(task._meta[SERVER_INFO]?.name, 'mcp-cpp-demo', r.text);
    return { ...task, callId: r.id };
}

// tasks/get that succeeds: the DetailedTask (without _meta and resultType).
async function getTask(url, taskId, options = {}) {
    const r = await modern(url, 'tasks/get', { taskId }, options);
    assert.equal(r.status, 200, `tasks/get ${taskId}: ${r.text}`);
    assert.equal(r.message?.error, undefined, r.text);
    const { _meta, resultType, ...task } = r.message.result;
    assert.equal(resultType, 'complete', r.text);
    assert.equal(task.taskId, taskId, r.text);
    return task;
}

// Polls tasks/get until the status is one of `statuses` (bounded).
function waitForStatus(url, taskId, statuses, timeoutMs = 10_000, options = {}) {
    const wanted = [statuses].flat();
    let last;
    return waitUntil(async () => {
        last = await getTask(url, taskId, options);
        return wanted.includes(last.status) && last;
    }, timeoutMs, `task ${taskId} to be ${wanted.join(' or ')} (last: ${JSON.stringify(last)})`);
}

// The fields a task that ended completed with export_notes' text shows, checked exactly.
function assertCompleted(task, text = EXPORTED) {
    assert.equal(task.status, 'completed', JSON.stringify(task));
    assert.equal(task.pollIntervalMs, undefined, `a finished task has no poll interval: ${JSON.stringify(task)}`);
    assert.equal(task.inputRequests, undefined, JSON.stringify(task));
    assert.equal(task.error, undefined, JSON.stringify(task));
    assert.deepEqual(task.result?.content, [{ type: 'text', text }], `the result inlined: ${JSON.stringify(task)}`);
    assert.notEqual(task.result.isError, true, JSON.stringify(task));
}

function assertCancelled(task) {
    assert.equal(task.status, 'cancelled', JSON.stringify(task));
    assert.equal(task.result, undefined, `a cancelled task has no result: ${JSON.stringify(task)}`);
    assert.equal(task.error, undefined, JSON.stringify(task));
    assert.equal(task.inputRequests, undefined, JSON.stringify(task));
    assert.equal(task.pollIntervalMs, undefined, JSON.stringify(task));
}

// ---------------------------------------------------------------------------------------------
// 2025-11-25 through the SDK v1 client.

async function connectV1(url, { capabilities = { elicitation: { form: {} } } } = {}) {
    const recorder = new HttpRecorder();
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recorder.fetch });
    const wire = tapTransport(transport);
    const client = new Client({ name: 'mcp-cpp-e2e-tasks', version: '1.0.0' }, { capabilities });
    const seen = { elicit: [] };
    const on = {
        elicit: (req) => {
            throw new Error(`unexpected elicitation/create ${JSON.stringify(req.params)}`);
        },
    };
    if (capabilities.elicitation) {
        client.setRequestHandler(ElicitRequestSchema, (req, extra) => {
            seen.elicit.push({ req, extra });
            return on.elicit(req, extra);
        });
    }
    const errors = [];
    client.onerror = (e) => errors.push(e);
    await client.connect(transport, REQUEST);
    return { client, transport, wire, recorder, errors, seen, on };
}

async function closeAll(connections) {
    await Promise.all(connections.map(async (c) => {
        try {
            await c?.client.close();
        } catch {
            // best effort
        }
    }));
}

async function rejectsWithMcpCode(promise, code, message) {
    let error;
    try {
        await promise;
    } catch (e) {
        error = e;
    }
    assert.ok(error, `expected a JSON-RPC error ${code}, the request succeeded`);
    assert.ok(error instanceof McpError, `expected an McpError, got ${error}`);
    assert.equal(error.code, code, `error code (message: ${error.message})`);
    if (message !== undefined) assert.equal(error.message, `MCP error ${code}: ${message}`);
    return error;
}

// Every message of an SDK response stream, collected (bounded).
async function drain(stream, timeoutMs, what) {
    const messages = [];
    await withTimeout((async () => {
        for await (const m of stream) messages.push(m);
    })(), timeoutMs, what);
    return messages;
}

// The statuses notifications/tasks/status told this client about one task, in order.
const statusNotifications = (wire, taskId) => wire.received
    .filter((m) => m.method === 'notifications/tasks/status' && m.params?.taskId === taskId)
    .map((m) => m.params.status);

// The id the SDK gave the tools/call whose arguments match.
function sentCallId(wire, args) {
    const sent = wire.sent.filter((m) => m.method === 'tools/call' && JSON.stringify(m.params?.arguments) === JSON.stringify(args));
    assert.equal(sent.length, 1, `one tools/call with ${JSON.stringify(args)} was sent`);
    return sent[0].id;
}

describe('2025-11-25 tasks through the SDK v1 client (experimental tasks API)', { timeout: 170_000 }, () => {
    let demo;
    const connections = [];
    const open = async (options) => {
        const c = await connectV1(demo.url, options);
        connections.push(c);
        return c;
    };

    before(async () => {
        demo = await HttpDemo.start(['--audit-log', 'stderr']);
    });
    after(async () => {
        await closeAll(connections);
        await demo?.close();
    });

    const withLogs = (fn) => async () => {
        try {
            await fn();
        } catch (e) {
            e.message += `\n--- demo stderr:\n${demo.stderrTail(3000)}`;
            throw e;
        }
    };

    test('initialize advertises the tasks capability; tools/list shows export_notes with taskSupport optional', TEST, withLogs(async () => {
        const c = await open();
        assert.deepEqual(c.client.getServerCapabilities().tasks,
            { list: {}, cancel: {}, requests: { tools: { call: {} } } });
        const { tools } = await c.client.listTools(undefined, REQUEST);
        const exportNotes = tools.find((t) => t.name === 'export_notes');
        assert.ok(exportNotes, `tools/list lists export_notes: ${tools.map((t) => t.name)}`);
        assert.deepEqual(exportNotes.execution, { taskSupport: 'optional' });
        // Tools without task support say nothing (forbidden is the default).
        assert.equal(tools.find((t) => t.name === 'echo').execution, undefined);
    }));

    test('callToolStream with params.task: taskCreated, polled to completed, the result by tasks/result; getTask, getTaskResult, listTasks, a status notification', TEST, withLogs(async () => {
        const c = await open();
        const args = { step_ms: 150 };
        const messages = await drain(
            c.client.experimental.tasks.callToolStream({ name: 'export_notes', arguments: args }, CallToolResultSchema,
                { ...REQUEST, task: { ttl: 60_000 } }),
            15_000, 'the task stream of export_notes');
        const types = messages.map((m) => m.type);
        assert.equal(types[0], 'taskCreated', JSON.stringify(messages));
        assert.equal(types.at(-1), 'result', JSON.stringify(messages));
        assert.ok(types.slice(1, -1).every((t) => t === 'taskStatus'), JSON.stringify(types));

        const created = messages[0].task;
        const taskId = created.taskId;
        assert.equal(created.status, 'working');
        assert.match(created.createdAt, ISO_TIME);
        assert.ok(Number.isInteger(created.ttl) && created.ttl > 0, JSON.stringify(created));
        assert.ok(Number.isInteger(created.pollInterval) && created.pollInterval > 0, JSON.stringify(created));
        assert.equal(created.ttlMs, undefined, '2025 says ttl, not ttlMs');
        // The call went out with params.task, and was answered {task} at once.
        const sent = c.wire.sent.find((m) => m.method === 'tools/call');
        assert.deepEqual(sent.params.task, { ttl: 60_000 });
        assert.equal(c.wire.received.find((m) => m.id === sent.id)?.result?.task?.taskId, taskId);

        const statuses = messages.filter((m) => m.type === 'taskStatus').map((m) => m.task.status);
        assert.equal(statuses.at(-1), 'completed', JSON.stringify(statuses));
        assert.ok(statuses.slice(0, -1).every((s) => s === 'working'), JSON.stringify(statuses));
        const result = messages.at(-1).result;
        assert.deepEqual(result.content, [{ type: 'text', text: EXPORTED }]);
        assert.deepEqual(result._meta?.[RELATED_TASK], { taskId });

        const got = await c.client.experimental.tasks.getTask(taskId, REQUEST);
        assert.equal(got.taskId, taskId);
        assert.equal(got.status, 'completed');
        assert.equal(got.pollInterval, undefined, 'a finished task has no poll interval');
        assert.equal(got.createdAt, created.createdAt);
        assert.ok(got.lastUpdatedAt >= created.createdAt, JSON.stringify(got));

        const again = await c.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, REQUEST);
        assert.deepEqual(again.content, [{ type: 'text', text: EXPORTED }]);
        assert.deepEqual(again._meta?.[RELATED_TASK], { taskId });
        assert.notEqual(again.isError, true);

        const listed = await c.client.experimental.tasks.listTasks(undefined, REQUEST);
        const mine = listed.tasks.find((t) => t.taskId === taskId);
        assert.ok(mine, `tasks/list lists ${taskId}: ${JSON.stringify(listed)}`);
        assert.equal(mine.status, 'completed');

        await waitUntil(() => statusNotifications(c.wire, taskId).includes('completed'), 5000,
            'notifications/tasks/status completed on the GET stream');
        const notification = c.recorder.received().find((r) => r.message.method === 'notifications/tasks/status'
            && r.message.params.taskId === taskId);
        assert.equal(notification.exchange.method, 'GET', 'status notifications come on the standalone GET stream');

        const audit = auditLines(demo.stderr, sentCallId(c.wire, args), c.transport.sessionId);
        assert.deepEqual(audit.map((l) => [l.outcome, l.era]), [['ok', '2025']], JSON.stringify(audit));
    }));

    test('tasks/result blocks until a running task ends and answers what the call would have', TEST, withLogs(async () => {
        const c = await open();
        const created = await c.client.request(
            { method: 'tools/call', params: { name: 'export_notes', arguments: { step_ms: 400 }, task: { ttl: 60_000 } } },
            CreateTaskResultSchema, REQUEST);
        const { taskId } = created.task;
        assert.equal(created.task.status, 'working');
        const started = Date.now();
        const result = await c.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, REQUEST);
        const waited = Date.now() - started;
        assert.deepEqual(result.content, [{ type: 'text', text: EXPORTED }]);
        assert.deepEqual(result._meta?.[RELATED_TASK], { taskId });
        assert.ok(waited >= 500, `tasks/result waited for the 2 × 400 ms of the task (${waited} ms)`);
        assert.equal((await c.client.experimental.tasks.getTask(taskId, REQUEST)).status, 'completed');
    }));

    test('cancelTask of a running task: cancelled, its handler stops, tasks/result fails; cancelling a finished task is -32602', TEST, withLogs(async () => {
        const c = await open();
        const args = { step_ms: 5000 };
        const created = await c.client.request(
            { method: 'tools/call', params: { name: 'export_notes', arguments: args, task: { ttl: 60_000 } } },
            CreateTaskResultSchema, REQUEST);
        const { taskId } = created.task;
        const callId = sentCallId(c.wire, args);
        await sleep(100);
        assert.equal((await c.client.experimental.tasks.getTask(taskId, REQUEST)).status, 'working');

        const cancelled = await c.client.experimental.tasks.cancelTask(taskId, REQUEST);
        const cancelledAt = Date.now();
        assert.equal(cancelled.taskId, taskId);
        assert.equal(cancelled.status, 'cancelled', JSON.stringify(cancelled));
        assert.equal(cancelled.pollInterval, undefined, JSON.stringify(cancelled));
        assert.equal((await c.client.experimental.tasks.getTask(taskId, REQUEST)).status, 'cancelled');

        // The handler saw the cancellation (it would run 10 s otherwise).
        const [line] = await waitUntil(() => {
            const lines = auditLines(demo.stderr, callId, c.transport.sessionId);
            return lines.length > 0 && lines;
        }, 5000, 'the audit line of the cancelled handler');
        assert.equal(line.outcome, 'cancelled', JSON.stringify(line));
        assert.ok(line.duration_ms < 4000, `the handler stopped early (${line.duration_ms} ms)`);
        console.log(`2025 cancel: the handler ended ${Date.now() - cancelledAt} ms after tasks/cancel answered`);

        await rejectsWithMcpCode(c.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, REQUEST),
            -32603, `Task ${taskId} was cancelled`);
        await rejectsWithMcpCode(c.client.experimental.tasks.cancelTask(taskId, REQUEST),
            -32602, `Task ${taskId} is cancelled already`);
        assert.equal((await c.client.experimental.tasks.getTask(taskId, REQUEST)).status, 'cancelled');

        // A completed task cannot be cancelled either, and stays completed.
        const done = await c.client.request(
            { method: 'tools/call', params: { name: 'export_notes', arguments: { step_ms: 0 }, task: {} } },
            CreateTaskResultSchema, REQUEST);
        const doneId = done.task.taskId;
        await c.client.experimental.tasks.getTaskResult(doneId, CallToolResultSchema, REQUEST);
        await rejectsWithMcpCode(c.client.experimental.tasks.cancelTask(doneId, REQUEST),
            -32602, `Task ${doneId} is completed already`);
        assert.equal((await c.client.experimental.tasks.getTask(doneId, REQUEST)).status, 'completed');
        await waitUntil(() => statusNotifications(c.wire, taskId).includes('cancelled'), 5000,
            'notifications/tasks/status cancelled');
    }));

    test('an elicitation inside a task comes on the GET stream with related-task; input_required until the SDK handler answers; then completed', TEST, withLogs(async () => {
        const c = await open();
        const answer = deferred();
        c.on.elicit = () => answer.promise;
        const stream = drain(
            c.client.experimental.tasks.callToolStream({ name: 'export_notes', arguments: { step_ms: 100, confirm: true } },
                CallToolResultSchema, { ...REQUEST, task: { ttl: 60_000 } }),
            20_000, 'the task stream of export_notes with confirm');
        stream.catch(() => {});  // awaited below

        await waitUntil(() => c.seen.elicit.length === 1, 10_000, 'the elicitation/create of the task');
        const { req } = c.seen.elicit[0];
        const taskId = req.params._meta?.[RELATED_TASK]?.taskId;
        assert.ok(taskId, `the elicitation names its task: ${JSON.stringify(req.params)}`);
        assert.equal(req.params.message, CONFIRM_REQUEST.params.message);
        assert.deepEqual(req.params.requestedSchema, CONFIRM_REQUEST.params.requestedSchema);
        const delivered = c.recorder.received().find((r) => r.message.method === 'elicitation/create');
        assert.equal(delivered.exchange.method, 'GET', 'the elicitation came on the session\'s standalone GET stream');

        // While the user thinks, the task waits for input.
        const waiting = await c.client.experimental.tasks.getTask(taskId, REQUEST);
        assert.equal(waiting.status, 'input_required', JSON.stringify(waiting));
        assert.ok(Number.isInteger(waiting.pollInterval), JSON.stringify(waiting));
        const listed = await c.client.experimental.tasks.listTasks(undefined, REQUEST);
        assert.equal(listed.tasks.find((t) => t.taskId === taskId)?.status, 'input_required');

        answer.resolve({ action: 'accept', content: { confirm: true } });
        const messages = await stream;
        assert.equal(messages[0].type, 'taskCreated');
        assert.equal(messages[0].task.taskId, taskId);
        assert.equal(messages.at(-1).type, 'result', JSON.stringify(messages));
        assert.deepEqual(messages.at(-1).result.content, [{ type: 'text', text: EXPORTED }]);
        assert.deepEqual(messages.at(-1).result._meta?.[RELATED_TASK], { taskId });
        assert.equal((await c.client.experimental.tasks.getTask(taskId, REQUEST)).status, 'completed');

        // The answer went back as a POSTed response to the server's request id.
        const answered = c.wire.sent.find((m) => m.id === delivered.message.id && 'result' in m);
        assert.deepEqual(answered?.result, { action: 'accept', content: { confirm: true } });
        await waitUntil(() => statusNotifications(c.wire, taskId).at(-1) === 'completed', 5000, 'the completed notification');
        assert.deepEqual(statusNotifications(c.wire, taskId), ['input_required', 'working', 'completed']);
        assert.deepEqual(c.errors, []);
    }));

    test('a declined elicitation inside a task completes it with "Export declined"', TEST, withLogs(async () => {
        const c = await open();
        c.on.elicit = () => ({ action: 'decline' });
        const messages = await drain(
            c.client.experimental.tasks.callToolStream({ name: 'export_notes', arguments: { step_ms: 10, confirm: true } },
                CallToolResultSchema, { ...REQUEST, task: { ttl: 60_000 } }),
            20_000, 'the task stream of a declined export');
        assert.equal(messages.at(-1).type, 'result', JSON.stringify(messages));
        assert.deepEqual(messages.at(-1).result.content, [{ type: 'text', text: 'Export declined' }]);
        assert.equal(c.seen.elicit.length, 1);
    }));

    test('progress of a task (the params.task call\'s progressToken) reaches the SDK\'s onprogress, with related-task', TEST, withLogs(async () => {
        const c = await open();
        const progress = [];
        const messages = await drain(
            c.client.experimental.tasks.callToolStream({ name: 'export_notes', arguments: { step_ms: 100 } }, CallToolResultSchema,
                { ...REQUEST, task: { ttl: 60_000 }, onprogress: (p) => progress.push(p) }),
            15_000, 'the task stream of export_notes with progress');
        assert.equal(messages.at(-1).type, 'result', JSON.stringify(messages));
        const taskId = messages[0].task.taskId;
        await waitUntil(() => progress.length >= 2, 5000, 'two progress notifications');
        assert.deepEqual(progress.map((p) => [p.progress, p.total, p.message]),
            [[1, 2, 'exported shopping'], [2, 2, 'exported welcome']]);
        const sent = c.wire.sent.find((m) => m.method === 'tools/call');
        const notes = c.wire.received.filter((m) => m.method === 'notifications/progress');
        assert.equal(notes.length, 2, JSON.stringify(notes));
        for (const n of notes) {
            assert.equal(n.params.progressToken, sent.params._meta.progressToken, JSON.stringify(n));
            assert.deepEqual(n.params._meta?.[RELATED_TASK], { taskId }, `progress names its task: ${JSON.stringify(n)}`);
        }
    }));

    // 2025-11-25 (tasks, "Task Status"): failed — "For tool calls specifically, this includes
    // cases where the tool call result has isError set to true"; tasks/result still answers that
    // result. export_notes with confirm: true from a client without the elicitation capability
    // returns isError "The client did not declare the \"elicitation\" capability"; as a task
    // the server marks it completed instead of failed.
    test('a task whose tool result is an error (isError) ends failed; tasks/result answers that result', TEST, withLogs(async () => {
        const c = await open({ capabilities: {} });  // no elicitation
        const plain = await c.client.callTool({ name: 'export_notes', arguments: { step_ms: 0, confirm: true } }, undefined, REQUEST);
        assert.equal(plain.isError, true, JSON.stringify(plain));
        const created = await c.client.request(
            { method: 'tools/call', params: { name: 'export_notes', arguments: { step_ms: 0, confirm: true }, task: { ttl: 60_000 } } },
            CreateTaskResultSchema, REQUEST);
        const { taskId } = created.task;
        const result = await c.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, REQUEST);
        assert.deepEqual(result.content, plain.content, 'tasks/result answers what the call would have');
        assert.equal(result.isError, true);
        const task = await c.client.experimental.tasks.getTask(taskId, REQUEST);
        assert.equal(task.status, 'failed', `an isError tool result fails the task: ${JSON.stringify(task)}`);
    }));

    test('invalid tasks/* requests get JSON-RPC errors; the session still works', TEST, withLogs(async () => {
        const c = await open();
        const req = (method, params, schema = GetTaskResultSchema) => c.client.request({ method, params }, schema, REQUEST);
        await rejectsWithMcpCode(req('tasks/get', { taskId: 'no-such-task' }), -32602, 'Unknown task: no-such-task');
        await rejectsWithMcpCode(req('tasks/result', { taskId: 'no-such-task' }, CallToolResultSchema), -32602, 'Unknown task: no-such-task');
        await rejectsWithMcpCode(req('tasks/cancel', { taskId: 'no-such-task' }), -32602, 'Unknown task: no-such-task');
        await rejectsWithMcpCode(req('tasks/get', { taskId: 42 }), -32602, INVALID_TASK_ID);
        await rejectsWithMcpCode(req('tasks/get', {}), -32602, INVALID_TASK_ID);
        await rejectsWithMcpCode(req('tasks/result', { taskId: 'x'.repeat(10 * 1024) }, CallToolResultSchema), -32602, INVALID_TASK_ID);
        await rejectsWithMcpCode(req('tasks/cancel', { taskId: ['a'] }), -32602, INVALID_TASK_ID);
        await rejectsWithMcpCode(req('tasks/list', { cursor: 'not-a-cursor' }, ListTasksResultSchema), -32602);
        await rejectsWithMcpCode(req('tasks/list', { cursor: 7 }, ListTasksResultSchema), -32602, 'Invalid params: cursor must be a string');
        // A tool without task support refuses params.task (-32601, as the 2025 spec says).
        await rejectsWithMcpCode(c.client.request(
            { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, task: {} } }, CreateTaskResultSchema, REQUEST), -32601);
        const echo = await c.client.callTool({ name: 'echo', arguments: { text: 'still here' } }, undefined, REQUEST);
        assert.deepEqual(echo.content, [{ type: 'text', text: 'still here' }]);
        assert.equal(demo.exitInfo, undefined, 'the demo is alive');
    }));

    // tasks/update exists on the 2026 wire only. In a 2025 session (Mcp-Session-Id,
    // MCP-Protocol-Version: 2025-11-25) the answer is the 2025 wire's -32601, not a 2026 envelope
    // error (server/discover and subscriptions/listen likewise).
    test('tasks/update in a 2025 session is -32601 Method not found (not a 2026 envelope error)', TEST, withLogs(async () => {
        const c = await open();
        await rejectsWithMcpCode(c.client.request({ method: 'tasks/update', params: { taskId: 'no-such-task', inputResponses: {} } },
            GetTaskResultSchema, REQUEST), -32601);
    }));
});

describe('2026-07-28 tasks by raw HTTP (the tasks extension)', { timeout: 170_000 }, () => {
    let demo;
    before(async () => {
        demo = await HttpDemo.start(['--audit-log', 'stderr']);
    });
    after(async () => {
        await demo?.close();
    });

    const withLogs = (fn) => async () => {
        try {
            await fn();
        } catch (e) {
            e.message += `\n--- demo stderr:\n${demo.stderrTail(3000)}`;
            throw e;
        }
    };

    test('tools/call answers a flat CreateTaskResult; tasks/get shows working, then completed with the result inlined', TEST, withLogs(async () => {
        const task = await createTask(demo.url, { step_ms: 200 });
        const working = await getTask(demo.url, task.taskId);
        assert.equal(working.status, 'working', JSON.stringify(working));
        assert.equal(working.createdAt, task.createdAt);
        assert.equal(working.ttlMs, task.ttlMs);
        assert.equal(working.pollIntervalMs, task.pollIntervalMs);
        for (const absent of ['result', 'error', 'inputRequests']) assert.equal(working[absent], undefined, `${absent}: ${JSON.stringify(working)}`);

        const done = await waitForStatus(demo.url, task.taskId, ['completed', 'failed', 'cancelled'], 10_000);
        assertCompleted(done);
        // ctx.progress in a 2026 task is the status message: the last note exported.
        assert.equal(done.statusMessage, 'exported welcome', JSON.stringify(done));
        assert.ok(done.lastUpdatedAt >= done.createdAt, JSON.stringify(done));
        // Read again: the same record.
        assert.deepEqual(await getTask(demo.url, task.taskId), done);
        const audit = auditLines(demo.stderr, task.callId);
        assert.deepEqual(audit.map((l) => [l.outcome, l.era]), [['ok', '2026']], JSON.stringify(audit));
    }));

    test('a question inside the task: input_required with inputRequests; tasks/update answers it; completed', TEST, withLogs(async () => {
        const task = await createTask(demo.url, { step_ms: 100, confirm: true });
        const waiting = await waitForStatus(demo.url, task.taskId, ['input_required', 'completed', 'failed', 'cancelled'], 5000);
        assert.equal(waiting.status, 'input_required', JSON.stringify(waiting));
        assert.deepEqual(waiting.inputRequests, { confirm: CONFIRM_REQUEST }, JSON.stringify(waiting));
        assert.equal(waiting.result, undefined);

        // An answer to a question nobody asked changes nothing.
        assertAck(await modern(demo.url, 'tasks/update',
            { taskId: task.taskId, inputResponses: { other: { action: 'accept', content: {} } } }), 'tasks/update with an unknown key');
        const still = await getTask(demo.url, task.taskId);
        assert.equal(still.status, 'input_required', JSON.stringify(still));
        assert.deepEqual(still.inputRequests, { confirm: CONFIRM_REQUEST });

        assertAck(await modern(demo.url, 'tasks/update', { taskId: task.taskId, inputResponses: ACCEPT_CONFIRM }), 'tasks/update');
        const after = await getTask(demo.url, task.taskId);
        assert.ok(['working', 'completed'].includes(after.status), `answered: working again (${JSON.stringify(after)})`);
        assert.equal(after.inputRequests, undefined, JSON.stringify(after));
        const done = await waitForStatus(demo.url, task.taskId, ['completed', 'failed', 'cancelled'], 10_000);
        assertCompleted(done);

        // A late answer, and a cancel after the end, change nothing (both acknowledged).
        assertAck(await modern(demo.url, 'tasks/update', { taskId: task.taskId, inputResponses: ACCEPT_CONFIRM }), 'a late tasks/update');
        assertAck(await modern(demo.url, 'tasks/cancel', { taskId: task.taskId }), 'tasks/cancel of a completed task');
        assert.deepEqual(await getTask(demo.url, task.taskId), done);
        // The handler ran twice: to the question, then again with the answer.
        const audit = auditLines(demo.stderr, task.callId);
        assert.deepEqual(audit.map((l) => l.outcome), ['input_required', 'ok'], JSON.stringify(audit));
    }));

    test('a declined question completes the task with "Export declined"', TEST, withLogs(async () => {
        const task = await createTask(demo.url, { step_ms: 10, confirm: true });
        await waitForStatus(demo.url, task.taskId, 'input_required', 5000);
        assertAck(await modern(demo.url, 'tasks/update', { taskId: task.taskId, inputResponses: { confirm: { action: 'decline' } } }), 'decline');
        assertCompleted(await waitForStatus(demo.url, task.taskId, ['completed', 'failed', 'cancelled'], 10_000), 'Export declined');
    }));

    test('tasks/cancel of a running task: acknowledged, cancelled, the handler stops and the task never completes; cancelling again is acknowledged', TEST, withLogs(async () => {
        const task = await createTask(demo.url, { step_ms: 1500 });
        await sleep(100);
        assert.equal((await getTask(demo.url, task.taskId)).status, 'working');
        assertAck(await modern(demo.url, 'tasks/cancel', { taskId: task.taskId }), 'tasks/cancel');
        const cancelledAt = Date.now();
        assertCancelled(await getTask(demo.url, task.taskId));

        const [line] = await waitUntil(() => {
            const lines = auditLines(demo.stderr, task.callId);
            return lines.length > 0 && lines;
        }, 5000, 'the audit line of the cancelled handler');
        assert.equal(line.outcome, 'cancelled', JSON.stringify(line));
        assert.ok(line.duration_ms < 1500, `the handler stopped within its first step (${line.duration_ms} ms)`);
        console.log(`2026 cancel: the handler ended ${Date.now() - cancelledAt} ms after tasks/cancel answered`);

        assertAck(await modern(demo.url, 'tasks/cancel', { taskId: task.taskId }), 'tasks/cancel again');
        // Past the 3 s the export would have taken: still cancelled, no result.
        await sleep(Math.max(0, 3200 - (Date.now() - cancelledAt)));
        assertCancelled(await getTask(demo.url, task.taskId));
        assert.equal(auditLines(demo.stderr, task.callId).length, 1, 'the handler did not run again');
    }));

    test('tasks/cancel of a task waiting for input: cancelled; a later tasks/update does not revive it', TEST, withLogs(async () => {
        const task = await createTask(demo.url, { step_ms: 10, confirm: true });
        await waitForStatus(demo.url, task.taskId, 'input_required', 5000);
        assertAck(await modern(demo.url, 'tasks/cancel', { taskId: task.taskId }), 'tasks/cancel');
        assertCancelled(await getTask(demo.url, task.taskId));
        assertAck(await modern(demo.url, 'tasks/update', { taskId: task.taskId, inputResponses: ACCEPT_CONFIRM }), 'tasks/update after the cancel');
        await sleep(300);
        assertCancelled(await getTask(demo.url, task.taskId));
        assert.deepEqual(auditLines(demo.stderr, task.callId).map((l) => l.outcome), ['input_required'], 'the handler never ran again');
    }));

    test('without the extension declared: tasks/* are -32021 and export_notes runs as a plain call; tasks/result and tasks/list do not exist', TEST, withLogs(async () => {
        const task = await createTask(demo.url, { step_ms: 10 });
        const plain = { elicitation: { form: {} } };
        for (const [method, params] of [
            ['tasks/get', { taskId: task.taskId }],
            ['tasks/update', { taskId: task.taskId, inputResponses: ACCEPT_CONFIRM }],
            ['tasks/cancel', { taskId: task.taskId }],
        ]) {
            const error = assertError(await modern(demo.url, method, params, { caps: plain }), 400, -32021,
                `Missing required client capability: the ${TASKS} extension`, `${method} without the extension`);
            assert.deepEqual(error.data, { requiredCapabilities: { extensions: { [TASKS]: {} } } });
        }
        // The extension declared for the tools/call only is what makes the call a task.
        const r = await modern(demo.url, 'tools/call', { name: 'export_notes', arguments: { step_ms: 10 } }, { caps: plain });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.message.result.resultType, 'complete', r.text);
        assert.equal(r.message.result.taskId, undefined, r.text);
        assert.deepEqual(r.message.result.content, [{ type: 'text', text: EXPORTED }]);
        for (const method of ['tasks/result', 'tasks/list']) {
            assertError(await modern(demo.url, method, method === 'tasks/list' ? {} : { taskId: task.taskId }), 404, -32601,
                `Method not found: ${method}`, `${method} on the 2026 wire`);
        }
        assertCompleted(await waitForStatus(demo.url, task.taskId, 'completed', 5000));
    }));

    test('an unknown task id is -32602 "Unknown task" for tasks/get, tasks/update and tasks/cancel', TEST, withLogs(async () => {
        for (const taskId of ['no-such-task', 'AAAAAAAAAAAAAAAAAAAAAAAA', 'x'.repeat(256), 'mcp:t:*', '../../etc/passwd', '%00\\"']) {
            for (const [method, extra] of [['tasks/get', {}], ['tasks/update', { inputResponses: ACCEPT_CONFIRM }], ['tasks/cancel', {}]]) {
                assertError(await modern(demo.url, method, { taskId, ...extra }), 400, -32602, `Unknown task: ${taskId}`,
                    `${method} ${JSON.stringify(taskId)}`);
            }
        }
        // One character more than the longest id looked up is not an id at all.
        assertError(await modern(demo.url, 'tasks/get', { taskId: 'x'.repeat(257) }), 400, -32602, INVALID_TASK_ID, 'a 257-character id');
    }));

    test('Mcp-Name must name the task: missing or different is HTTP 400 -32020', TEST, withLogs(async () => {
        const task = await createTask(demo.url, { step_ms: 10 });
        for (const [method, extra] of [['tasks/get', {}], ['tasks/update', { inputResponses: {} }], ['tasks/cancel', {}]]) {
            assertError(await modernRaw(demo.url, method, { taskId: task.taskId, ...extra }, {}), 400, -32020,
                'HeaderMismatch: missing required header Mcp-Name', `${method} without Mcp-Name`);
            assertError(await modernRaw(demo.url, method, { taskId: task.taskId, ...extra }, { 'mcp-name': 'another-task' }), 400, -32020,
                `HeaderMismatch: Mcp-Name header value 'another-task' does not match the body value '${task.taskId}'`,
                `${method} with another Mcp-Name`);
        }
        // The cancel above was refused: the task ran to its end.
        assertCompleted(await waitForStatus(demo.url, task.taskId, ['completed', 'cancelled'], 5000));
    }));

    test('hostile params: taskId a number, missing, null, empty, an object, 10 KB long; inputResponses not an object → -32602, and the server goes on', TEST, withLogs(async () => {
        const task = await createTask(demo.url, { step_ms: 10, confirm: true });
        await waitForStatus(demo.url, task.taskId, 'input_required', 5000);
        const long = 'x'.repeat(10 * 1024);
        const badIds = [
            [{ taskId: 12345 }, { 'mcp-name': '12345' }],
            [{ taskId: 12345 }, {}],
            [{}, {}],
            [{ taskId: null }, {}],
            [{ taskId: '' }, { 'mcp-name': '' }],
            [{ taskId: { id: task.taskId } }, { 'mcp-name': task.taskId }],
            [{ taskId: [task.taskId] }, { 'mcp-name': task.taskId }],
            [{ taskId: true }, {}],
            [{ taskId: long }, { 'mcp-name': long }],
        ];
        for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
            for (const [params, headers] of badIds) {
                const body = method === 'tasks/update' ? { ...params, inputResponses: ACCEPT_CONFIRM } : params;
                const what = `${method} ${JSON.stringify(params).slice(0, 60)} with ${JSON.stringify(headers).slice(0, 60)}`;
                assertError(await modernRaw(demo.url, method, body, headers), 400, -32602, INVALID_TASK_ID, what);
            }
        }
        // A string id without Mcp-Name is refused by the header check first.
        assertError(await modernRaw(demo.url, 'tasks/get', { taskId: long }, {}), 400, -32020,
            'HeaderMismatch: missing required header Mcp-Name', 'a 10 KB taskId without Mcp-Name');
        for (const inputResponses of ['confirm', 42, null, [ACCEPT_CONFIRM], true, undefined]) {
            const params = inputResponses === undefined ? { taskId: task.taskId } : { taskId: task.taskId, inputResponses };
            assertError(await modern(demo.url, 'tasks/update', params), 400, -32602, INVALID_RESPONSES,
                `tasks/update with inputResponses ${JSON.stringify(inputResponses)}`);
        }
        // Thousands of keys nobody asked about: acknowledged, ignored.
        const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, { action: 'accept', content: { i } }]));
        assertAck(await modern(demo.url, 'tasks/update', { taskId: task.taskId, inputResponses: many }), '5000 unknown keys');
        const still = await getTask(demo.url, task.taskId);
        assert.equal(still.status, 'input_required', JSON.stringify(still).slice(0, 500));
        assert.deepEqual(still.inputRequests, { confirm: CONFIRM_REQUEST });

        // An answer that is not an ElicitResult fails the task with -32602, naming it.
        assertAck(await modern(demo.url, 'tasks/update', { taskId: task.taskId, inputResponses: { confirm: 'yes' } }), 'a malformed answer');
        const failed = await waitForStatus(demo.url, task.taskId, ['failed', 'completed', 'cancelled'], 5000);
        assert.equal(failed.status, 'failed', JSON.stringify(failed));
        assert.deepEqual(failed.error, { code: -32602, message: 'inputResponses.confirm: an elicitation result must be an object' });
        assert.equal(failed.result, undefined);

        const bogus = await createTask(demo.url, { step_ms: 10, confirm: true });
        await waitForStatus(demo.url, bogus.taskId, 'input_required', 5000);
        assertAck(await modern(demo.url, 'tasks/update', { taskId: bogus.taskId, inputResponses: { confirm: { action: 'accept', content: 7 } } }), 'content 7');
        const failed2 = await waitForStatus(demo.url, bogus.taskId, ['failed', 'completed', 'cancelled'], 5000);
        assert.deepEqual([failed2.status, failed2.error], ['failed', { code: -32602, message: 'inputResponses.confirm: "content" must be an object' }]);

        // Still serving: a new task runs to its end.
        assert.equal(demo.exitInfo, undefined, 'the demo is alive');
        const after = await createTask(demo.url, { step_ms: 0 });
        assertCompleted(await waitForStatus(demo.url, after.taskId, 'completed', 5000));
    }));
});

describe('task bounds: --task-ttl, --task-poll-interval, --max-tasks', { timeout: 60_000 }, () => {
    let demo;
    before(async () => {
        demo = await HttpDemo.start(['--task-ttl', '1500ms', '--task-poll-interval', '250ms', '--max-tasks', '2']);
    });
    after(async () => {
        await demo?.close();
    });

    test('the ttl and poll interval are the options; a third task within the ttl is 429 -32029; an expired task is unknown', TEST, async () => {
        const first = await createTask(demo.url, { step_ms: 0 });
        assert.equal(first.ttlMs, 1500);
        assert.equal(first.pollIntervalMs, 250);
        const second = await createTask(demo.url, { step_ms: 0 });
        // Finished tasks count until their ttl runs out.
        assertCompleted(await waitForStatus(demo.url, first.taskId, 'completed', 5000));
        const third = await modern(demo.url, 'tools/call', { name: 'export_notes', arguments: { step_ms: 0 } });
        assertError(third, 429, -32029, /^Too many tasks within their time to live for this client/, 'a third task');
        // A plain call is no task: still served.
        const plain = await modern(demo.url, 'tools/call', { name: 'echo', arguments: { text: 'plain' } });
        assert.deepEqual(plain.message?.result?.content, [{ type: 'text', text: 'plain' }], plain.text);

        // Once the ttl has passed (from creation), the tasks are gone and new ones may start.
        await sleep(Math.max(0, Date.parse(second.createdAt) + 1500 + 100 - Date.now()));
        for (const task of [first, second]) {
            assertError(await modern(demo.url, 'tasks/get', { taskId: task.taskId }), 400, -32602, `Unknown task: ${task.taskId}`,
                'tasks/get of an expired task');
        }
        const again = await createTask(demo.url, { step_ms: 0 });
        assertCompleted(await waitForStatus(demo.url, again.taskId, 'completed', 1000));
    });
});

describe('SDK v2 client pinned to 2026-07-28: a task driven through its generic request()', { timeout: 60_000 }, () => {
    // @modelcontextprotocol/client 2.4.0 has no tasks API: callTool() and request('tools/call')
    // refuse a result with resultType "task" (SdkError UNSUPPORTED_RESULT_TYPE). It does know the
    // extension's methods (tasks/get and tasks/cancel are "extension-reused" names, and Mcp-Name
    // carries params.taskId for tasks/get, tasks/update, tasks/cancel), so request() with a result
    // schema of our own drives a task created by raw HTTP.
    let demo;
    let client;
    before(async () => {
        demo = await HttpDemo.start([]);
    });
    after(async () => {
        try {
            await client?.close();
        } catch {
            // best effort
        }
        await demo?.close();
    });

    test('tasks/get, tasks/update and tasks/cancel through the v2 client; an unknown task is a ProtocolError -32602', TEST, async () => {
        const recorder = new HttpRecorder();
        const transport = new StreamableHTTPClientTransportV2(new URL(demo.url), { fetch: recorder.fetch });
        client = new ClientV2({ name: 'mcp-cpp-e2e-tasks-v2', version: '1.0.0' },
            { capabilities: CAPS, versionNegotiation: { mode: 'pin', version: MODERN } });
        const errors = [];
        client.onerror = (e) => errors.push(e);
        await client.connect(transport, REQUEST);
        // A Standard Schema that takes any result as it is.
        const anything = { '~standard': { version: 1, vendor: 'mcp-cpp-e2e', validate: (value) => ({ value }) } };
        const request = (method, params) => client.request({ method, params }, anything, REQUEST);

        const task = await createTask(demo.url, { step_ms: 50, confirm: true });
        const waiting = await waitUntil(async () => {
            const t = await request('tasks/get', { taskId: task.taskId });
            return t.status !== 'working' && t;
        }, 5000, 'the task to ask its question');
        assert.equal(waiting.status, 'input_required', JSON.stringify(waiting));
        assert.deepEqual(waiting.inputRequests, { confirm: CONFIRM_REQUEST });

        await request('tasks/update', { taskId: task.taskId, inputResponses: ACCEPT_CONFIRM });
        const done = await waitUntil(async () => {
            const t = await request('tasks/get', { taskId: task.taskId });
            return ['completed', 'failed', 'cancelled'].includes(t.status) && t;
        }, 10_000, 'the task to end');
        assert.equal(done.status, 'completed', JSON.stringify(done));
        assert.deepEqual(done.result.content, [{ type: 'text', text: EXPORTED }]);

        const running = await createTask(demo.url, { step_ms: 5000 });
        await request('tasks/cancel', { taskId: running.taskId });
        assert.equal((await request('tasks/get', { taskId: running.taskId })).status, 'cancelled');

        let error;
        try {
            await request('tasks/get', { taskId: 'no-such-task' });
        } catch (e) {
            error = e;
        }
        assert.ok(error instanceof ProtocolError, `a ProtocolError: ${error}`);
        assert.equal(error.code, -32602);

        // The v2 transport sent Mcp-Name = params.taskId on every tasks/* request.
        const tasksExchanges = recorder.exchanges.filter((x) => x.message?.method?.startsWith('tasks/'));
        assert.ok(tasksExchanges.length >= 5, `${tasksExchanges.length} tasks/* requests`);
        for (const x of tasksExchanges) {
            assert.equal(x.requestHeaders['mcp-name'], x.message.params.taskId, `${x.message.method}: Mcp-Name`);
            assert.equal(x.requestHeaders['mcp-method'], x.message.method);
        }
        assert.deepEqual(errors, []);
    });
});

// ---------------------------------------------------------------------------------------------
// Principals: the demo behind a test authorization server; alice and bob are two subjects.

// A 2025-11-25 session opened by hand with a bearer token.
class LegacySession {
    static async open(url, token) {
        const s = new LegacySession(url, token);
        const init = await s.request('initialize', {
            protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcp-cpp-e2e-tasks-auth', version: '1.0.0' },
        });
        assert.equal(init.status, 200, init.text);
        s.sessionId = init.headers.get('mcp-session-id');
        assert.ok(s.sessionId, 'a session id');
        const res = await fetch(url, {
            method: 'POST', headers: s.headers(), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
            signal: AbortSignal.timeout(10_000),
        });
        assert.equal(res.status, 202, await res.text());
        return s;
    }

    constructor(url, token) {
        this.url = url;
        this.token = token;
        this.sessionId = undefined;
    }

    headers() {
        const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${this.token}` };
        if (this.sessionId) {
            h['mcp-session-id'] = this.sessionId;
            h['mcp-protocol-version'] = '2025-11-25';
        }
        return h;
    }

    async request(method, params) {
        const id = nextId(method.replace(/\W/g, ''));
        const res = await fetch(this.url, {
            method: 'POST', headers: this.headers(), body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
            signal: AbortSignal.timeout(10_000),
        });
        const body = await readBody(res, 10_000, `the answer to ${method}`);
        return { ...body, message: responseOf(body.messages, id) };
    }
}

describe('tasks belong to their principal (OAuth): another one\'s task is unknown; tasks/list lists the caller\'s, a page at a time', { timeout: 120_000 }, () => {
    let as;
    let demo;
    before(async () => {
        as = await AuthorizationServer.start();
        demo = await HttpDemo.start(['--auth-issuer', as.issuer, '--page-size', '2']);
    });
    after(async () => {
        await demo?.close();
        await as?.close();
    });

    const bearer = (token) => ({ authorization: `Bearer ${token}` });

    test('2026: bob cannot read, answer or cancel alice\'s task (-32602 Unknown task); alice\'s task goes on', TEST, async () => {
        const alice = bearer(await as.forge({ aud: demo.url, sub: 'alice' }));
        const bob = bearer(await as.forge({ aud: demo.url, sub: 'bob' }));
        const task = await createTask(demo.url, { step_ms: 50, confirm: true }, { headers: alice });
        await waitForStatus(demo.url, task.taskId, 'input_required', 5000, { headers: alice });

        const unknown = `Unknown task: ${task.taskId}`;
        assertError(await modern(demo.url, 'tasks/get', { taskId: task.taskId }, { headers: bob }), 400, -32602, unknown, 'bob tasks/get');
        assertError(await modern(demo.url, 'tasks/update', { taskId: task.taskId, inputResponses: { confirm: { action: 'decline' } } }, { headers: bob }),
            400, -32602, unknown, 'bob tasks/update');
        assertError(await modern(demo.url, 'tasks/cancel', { taskId: task.taskId }, { headers: bob }), 400, -32602, unknown, 'bob tasks/cancel');
        // Exactly what a task that never existed gets.
        assertError(await modern(demo.url, 'tasks/get', { taskId: 'never-was' }, { headers: bob }), 400, -32602, 'Unknown task: never-was', 'bob tasks/get never-was');

        // Bob's decline and cancel did nothing: alice's answer decides.
        const waiting = await getTask(demo.url, task.taskId, { headers: alice });
        assert.equal(waiting.status, 'input_required', JSON.stringify(waiting));
        assertAck(await modern(demo.url, 'tasks/update', { taskId: task.taskId, inputResponses: ACCEPT_CONFIRM }, { headers: alice }), 'alice tasks/update');
        assertCompleted(await waitForStatus(demo.url, task.taskId, ['completed', 'failed', 'cancelled'], 10_000, { headers: alice }));
        // Without a token: 401, not a task.
        const anonymous = await modern(demo.url, 'tasks/get', { taskId: task.taskId });
        assert.equal(anonymous.status, 401, anonymous.text);
    });

    test('2025: tasks/list lists only the caller\'s tasks, two a page; bob gets -32602 for alice\'s task and for her cursor', TEST, async () => {
        const alice = await LegacySession.open(demo.url, await as.forge({ aud: demo.url, sub: 'alice-2025' }));
        const bob = await LegacySession.open(demo.url, await as.forge({ aud: demo.url, sub: 'bob-2025' }));
        const created = [];
        for (let i = 0; i < 3; ++i) {
            const r = await alice.request('tools/call', { name: 'export_notes', arguments: { step_ms: 0 }, task: { ttl: 60_000 } });
            assert.equal(r.status, 200, r.text);
            assert.equal(r.message.result.task?.status, 'working', r.text);
            created.push(r.message.result.task.taskId);
            await sleep(5);  // distinct creation times: the list is oldest first
        }
        const bobs = await bob.request('tools/call', { name: 'export_notes', arguments: { step_ms: 0 }, task: {} });
        const bobTask = bobs.message.result.task.taskId;

        const first = await alice.request('tasks/list', {});
        assert.equal(first.message?.error, undefined, first.text);
        assert.deepEqual(first.message.result.tasks.map((t) => t.taskId), created.slice(0, 2), first.text);
        const cursor = first.message.result.nextCursor;
        assert.equal(typeof cursor, 'string', `a next cursor: ${first.text}`);
        const second = await alice.request('tasks/list', { cursor });
        assert.deepEqual(second.message.result.tasks.map((t) => t.taskId), created.slice(2), second.text);
        assert.equal(second.message.result.nextCursor, undefined, second.text);

        const bobList = await bob.request('tasks/list', {});
        assert.deepEqual(bobList.message.result.tasks.map((t) => t.taskId), [bobTask], bobList.text);
        const stolenCursor = await bob.request('tasks/list', { cursor });
        assert.equal(stolenCursor.message?.error?.code, -32602, `bob cannot use alice's cursor: ${stolenCursor.text}`);
        for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
            const r = await bob.request(method, { taskId: created[0] });
            assert.equal(r.status, 200, r.text);
            assert.deepEqual(r.message?.error, { code: -32602, message: `Unknown task: ${created[0]}` }, `bob ${method}: ${r.text}`);
        }
        const mine = await alice.request('tasks/result', { taskId: created[0] });
        assert.deepEqual(mine.message?.result?.content, [{ type: 'text', text: EXPORTED }], mine.text);
    });
});
