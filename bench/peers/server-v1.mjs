// Peer for bench/run.sh: @modelcontextprotocol/sdk 1.32.2 (the v1 line, 2025-era wire only) serving
// the same `echo` tool as mcp-cpp-demo over Streamable HTTP on node:http, and a `delete_note` that
// asks the client to confirm (elicitation/create on the call's stream, an hour to answer) as the
// demo's does: what the memory suite parks. In session mode also `export_notes`, an SDK experimental
// task tool (server.experimental.tasks.registerToolTask, an InMemoryTaskStore for the process) that
// behaves as the demo's: it sleeps step_ms per note in the background, ends with "Exported 2 notes:
// shopping, welcome", and stops when tasks/cancel ends it: what the memory suite's tasks kind holds.
//   node server-v1.mjs --port P --mode stateless   sessionIdGenerator undefined: a fresh server and
//                                                   transport per request (the SDK's stateless idiom),
//                                                   JSON responses
//   node server-v1.mjs --port P --mode session     one server and transport per session, kept in a map;
//                                                   DELETE ends a session; SSE responses (see below)
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitResultSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ECHO_DESCRIPTION, listen, parseArgs, parseJson, readBody } from './common.mjs';

const args = parseArgs(process.argv.slice(2));

// The tasks of every session (as in the SDK's example server). tasks/cancel sets a task's status
// through the store: that aborts the task's background work, which then stops sleeping.
class CancellableTaskStore extends InMemoryTaskStore {
    aborts = new Map(); // task id -> AbortController of its background work
    async updateTaskStatus(taskId, status, statusMessage, sessionId) {
        await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
        if (status === 'cancelled') this.aborts.get(taskId)?.abort();
    }
}
const taskStore = new CancellableTaskStore();
const TASK_TTL_MS = 3_600_000; // mcp-cpp-demo's --task-ttl default; the client's ttl is not honoured either
const NOTES = ['shopping', 'welcome']; // the demo's built-in notes

// export_notes in the background, reporting through the request's task store (which also sends
// notifications/tasks/status): optionally a confirmation asked through tasks/result, then step_ms
// per note, then the result.
async function exportNotes(server, store, taskId, stepMs, confirm) {
    const abort = new AbortController();
    taskStore.aborts.set(taskId, abort);
    const { signal } = abort;
    const finish = (text) => store.storeTaskResult(taskId, 'completed', { content: [{ type: 'text', text }] });
    try {
        if (confirm) {
            await store.updateTaskStatus(taskId, 'input_required');
            const answer = await server.server.elicitInput(
                {
                    mode: 'form',
                    message: `Export ${NOTES.length} notes?`,
                    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Export them?', default: true } } },
                },
                { relatedTask: { taskId }, signal, timeout: TASK_TTL_MS }
            );
            if (!(answer.action === 'accept' && answer.content?.confirm === true)) return await finish('Export declined');
            await store.updateTaskStatus(taskId, 'working');
        }
        for (let i = 0; i < NOTES.length; i++) await sleep(stepMs, undefined, { signal }); // rejects once cancelled
        await finish(`Exported ${NOTES.length} notes: ${NOTES.join(', ')}`);
    } catch (e) {
        if (signal.aborted) return; // tasks/cancel: the task is cancelled already
        await store
            .storeTaskResult(taskId, 'failed', { content: [{ type: 'text', text: String(e?.message ?? e) }], isError: true })
            .catch(() => {});
    } finally {
        taskStore.aborts.delete(taskId);
    }
}

function makeServer({ tasks = false } = {}) {
    const server = new McpServer(
        { name: 'sdk-v1-peer', version: '1.32.2' },
        tasks
            ? {
                  capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
                  taskStore,
                  taskMessageQueue: new InMemoryTaskMessageQueue(),
              }
            : {}
    );
    server.registerTool(
        'echo',
        { description: ECHO_DESCRIPTION, inputSchema: { text: z.string() } },
        async ({ text }) => ({ content: [{ type: 'text', text }] })
    );
    server.registerTool(
        'delete_note',
        { description: 'Deletes a note after the user confirms', inputSchema: { slug: z.string() } },
        async ({ slug }, extra) => {
            const answer = await extra.sendRequest(
                {
                    method: 'elicitation/create',
                    params: {
                        message: `Delete the note "${slug}"?`,
                        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Delete it?' } } },
                    },
                },
                ElicitResultSchema,
                { timeout: 3_600_000 }
            );
            const confirmed = answer.action === 'accept' && answer.content?.confirm === true;
            return { content: [{ type: 'text', text: `${confirmed ? 'Deleted' : 'Kept'} ${slug}` }] };
        }
    );
    if (tasks) {
        server.experimental.tasks.registerToolTask(
            'export_notes',
            {
                description: 'Exports every note, slowly (one step per note); runs as a task the client polls',
                inputSchema: { step_ms: z.number().int().min(0).optional(), confirm: z.boolean().optional() },
                annotations: { readOnlyHint: true },
                execution: { taskSupport: 'optional' },
            },
            {
                createTask: async ({ step_ms, confirm }, extra) => {
                    const task = await extra.taskStore.createTask({ ttl: TASK_TTL_MS, pollInterval: 500 });
                    exportNotes(server, extra.taskStore, task.taskId, step_ms ?? 500, confirm === true);
                    return { task };
                },
                getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
                getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
            }
        );
    }
    return server;
}

function jsonError(res, status, message) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
}

async function stateless(req, res) {
    if (req.method !== 'POST') return jsonError(res, 405, 'Method not allowed.');
    const body = parseJson(await readBody(req));
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
        transport.close();
        server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
}

const sessions = new Map(); // session id -> transport
process.on('SIGUSR2', () => console.error(`sessions open: ${sessions.size}`));
async function sessionful(req, res) {
    const sid = req.headers['mcp-session-id'];
    const body = req.method === 'POST' ? parseJson(await readBody(req)) : undefined;
    if (typeof sid === 'string') {
        const transport = sessions.get(sid);
        if (!transport) return jsonError(res, 404, 'Session not found');
        return transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
        return jsonError(res, 400, 'Bad Request: Mcp-Session-Id header is required');
    }
    // The SDK's default response mode, SSE: its JSON mode (enableJsonResponse) never deletes the
    // per-request _streamMapping entry in 1.32.2, so a reused session grows by ~10 KB per request.
    const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
    });
    transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await makeServer({ tasks: true }).connect(transport);
    await transport.handleRequest(req, res, body);
}

listen(args.mode === 'stateless' ? stateless : sessionful, args, `sdk-v1 ${args.mode}`);
