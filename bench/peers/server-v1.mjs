// Peer for bench/run.sh: @modelcontextprotocol/sdk 1.32.2 (the v1 line, 2025-era wire only) serving
// the same `echo` tool as mcp-cpp-demo over Streamable HTTP on node:http, and a `delete_note` that
// asks the client to confirm (elicitation/create on the call's stream, an hour to answer) as the
// demo's does: what the memory suite parks.
//   node server-v1.mjs --port P --mode stateless   sessionIdGenerator undefined: a fresh server and
//                                                   transport per request (the SDK's stateless idiom),
//                                                   JSON responses
//   node server-v1.mjs --port P --mode session     one server and transport per session, kept in a map;
//                                                   DELETE ends a session; SSE responses (see below)
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitResultSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ECHO_DESCRIPTION, listen, parseArgs, parseJson, readBody } from './common.mjs';

const args = parseArgs(process.argv.slice(2));

function makeServer() {
    const server = new McpServer({ name: 'sdk-v1-peer', version: '1.32.2' });
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
    await makeServer().connect(transport);
    await transport.handleRequest(req, res, body);
}

listen(args.mode === 'stateless' ? stateless : sessionful, args, `sdk-v1 ${args.mode}`);
