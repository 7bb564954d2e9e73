// Peer for bench/run.sh: @modelcontextprotocol/server 2.4.0 (the v2 line) serving the same `echo`
// tool as mcp-cpp-demo over Streamable HTTP on node:http.
//   node server-v2.mjs --port P --mode stateless   createMcpHandler(factory) with its defaults: the
//       2026-07-28 wire, stateless, a server instance per request; 2025-era requests go to its
//       stateless legacy fallback (no sessions)
//   node server-v2.mjs --port P --mode session     the documented composition for 2025 sessions:
//       isLegacyRequest() in front of createMcpHandler(factory, {legacy: 'reject'}); legacy traffic
//       goes to a sessionful WebStandardStreamableHTTPServerTransport per session (JSON responses)
//
// The SDK's handlers are fetch-shaped (Request -> Response). @modelcontextprotocol/node, the SDK's own
// node:http adapter, has no 2.4.0 release, so the small adapter below does that job: one Buffer read
// of the body, one JSON.parse handed over as parsedBody, and the Response written back.
import { randomUUID } from 'node:crypto';
import {
    McpServer,
    WebStandardStreamableHTTPServerTransport,
    createMcpHandler,
    isLegacyRequest,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ECHO_DESCRIPTION, listen, parseArgs, parseJson, readBody } from './common.mjs';

const args = parseArgs(process.argv.slice(2));

function factory() {
    const server = new McpServer({ name: 'sdk-v2-peer', version: '2.4.0' });
    server.registerTool(
        'echo',
        { description: ECHO_DESCRIPTION, inputSchema: z.object({ text: z.string() }) },
        async ({ text }) => ({ content: [{ type: 'text', text }] })
    );
    return server;
}

function toWebRequest(req, bodyBuf, signal) {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const init = { method: req.method, headers, signal };
    if (req.method !== 'GET' && req.method !== 'HEAD' && bodyBuf.length) init.body = bodyBuf;
    return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, init);
}

async function writeWebResponse(response, res) {
    const headers = {};
    response.headers.forEach((v, k) => {
        headers[k] = v;
    });
    const streaming = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    if (!streaming || !response.body) {
        const buf = Buffer.from(await response.arrayBuffer());
        delete headers['content-length'];
        headers['content-length'] = String(buf.length);
        res.writeHead(response.status, headers);
        res.end(buf);
        return;
    }
    res.writeHead(response.status, headers);
    res.flushHeaders();
    for await (const chunk of response.body) res.write(chunk);
    res.end();
}

// Runs a fetch-shaped handler for a node request.
function nodeAdapter(fetchLike) {
    return async (req, res) => {
        const ac = new AbortController();
        res.on('close', () => {
            if (!res.writableFinished) ac.abort();
        });
        const body = await readBody(req);
        const request = toWebRequest(req, body, ac.signal);
        const response = await fetchLike(request, req.method === 'POST' ? parseJson(body) : undefined);
        await writeWebResponse(response, res);
    };
}

let handler;
if (args.mode === 'stateless') {
    const mcp = createMcpHandler(factory);
    handler = (request, parsedBody) => mcp.fetch(request, { parsedBody });
} else {
    const modern = createMcpHandler(factory, { legacy: 'reject' });
    const sessions = new Map(); // session id -> transport
    process.on('SIGUSR2', () => console.error(`sessions open: ${sessions.size}`));
    const legacy = async (request, parsedBody) => {
        const sid = request.headers.get('mcp-session-id');
        if (sid) {
            const transport = sessions.get(sid);
            if (!transport) {
                return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Session not found' } }, { status: 404 });
            }
            return transport.handleRequest(request, { parsedBody });
        }
        const transport = new WebStandardStreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            enableJsonResponse: true,
            onsessioninitialized: (id) => sessions.set(id, transport),
            onsessionclosed: (id) => sessions.delete(id),
        });
        transport.onclose = () => {
            if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await factory().connect(transport);
        return transport.handleRequest(request, { parsedBody });
    };
    handler = async (request, parsedBody) =>
        (await isLegacyRequest(request, parsedBody)) ? legacy(request, parsedBody) : modern.fetch(request, { parsedBody });
}

listen(nodeAdapter(handler), args, `sdk-v2 ${args.mode}`);
