// A 2026-07-28 server written with @modelcontextprotocol/server 2.4.0, for the C++ client's
// interop test (tests/unit/test_client_interop_http.cpp): createMcpHandler with its defaults
// (stateless, JSON answers) behind node:http on a free port of 127.0.0.1, announced on stderr as
// `listening on 127.0.0.1:<port>`.
//   greet {name}          one text block
//   delete_file {path}    asks the client to confirm with an input round (inputRequired.elicit),
//                         then says what it did
//   a resource notes://today, and a prompt `summary`
import http from 'node:http';
import { McpServer, acceptedContent, createMcpHandler, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';

function makeServer() {
    const server = new McpServer({ name: 'interop-v2', version: '2.4.0' });
    server.registerTool('greet', { description: 'Greets someone', inputSchema: z.object({ name: z.string() }) },
        async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }));
    const confirmation = z.object({ confirm: z.boolean() });
    server.registerTool('delete_file', { description: 'Deletes a file once confirmed', inputSchema: z.object({ path: z.string() }) },
        async ({ path }, ctx) => {
            const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmation);
            if (answer === undefined) {
                return inputRequired({
                    inputRequests: { confirm: inputRequired.elicit({ message: `Delete ${path}?`, requestedSchema: confirmation }) },
                });
            }
            return { content: [{ type: 'text', text: answer.confirm ? `deleted ${path}` : `kept ${path}` }] };
        });
    server.registerResource('today', 'notes://today', { mimeType: 'text/plain' },
        async (uri) => ({ contents: [{ uri: uri.href, text: 'buy milk' }] }));
    server.registerPrompt('summary', { argsSchema: z.object({ topic: z.string() }) },
        ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${topic}` } }] }));
    return server;
}

const mcp = createMcpHandler(makeServer);

async function body(req) {
    const parts = [];
    for await (const part of req) parts.push(part);
    return Buffer.concat(parts);
}

http.createServer(async (req, res) => {
    try {
        const raw = await body(req);
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        const request = new Request(`http://127.0.0.1${req.url}`, {
            method: req.method, headers, body: raw.length > 0 ? raw : undefined,
        });
        let parsedBody;
        try {
            parsedBody = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
        } catch {
            parsedBody = undefined; // the SDK answers the parse error itself
        }
        const response = await mcp.fetch(request, { parsedBody });
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.body) for await (const chunk of response.body) res.write(chunk);
        res.end();
    } catch (error) {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
    }
}).listen(0, '127.0.0.1', function () {
    process.stderr.write(`listening on 127.0.0.1:${this.address().port}\n`);
});
