// Peers for the stdio suite of bench/run.sh: the same `echo` tool as mcp-cpp-demo, over stdio.
//   node server-stdio.mjs --sdk v1   @modelcontextprotocol/sdk 1.32.2: McpServer + StdioServerTransport
//   node server-stdio.mjs --sdk v2   @modelcontextprotocol/server 2.4.0: serveStdio(factory), which
//                                    serves a 2025-era opening (initialize) as the SDK's own stdio server
// Either exits when stdin ends.
import { z } from 'zod';
import { ECHO_DESCRIPTION } from './common.mjs';

const sdk = process.argv[2] === '--sdk' ? process.argv[3] : undefined;
const echo = async ({ text }) => ({ content: [{ type: 'text', text }] });

if (sdk === 'v1') {
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    const server = new McpServer({ name: 'sdk-v1-peer', version: '1.32.2' });
    server.registerTool('echo', { description: ECHO_DESCRIPTION, inputSchema: { text: z.string() } }, echo);
    await server.connect(new StdioServerTransport());
} else if (sdk === 'v2') {
    const { McpServer } = await import('@modelcontextprotocol/server');
    const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
    serveStdio(() => {
        const server = new McpServer({ name: 'sdk-v2-peer', version: '2.4.0' });
        server.registerTool('echo', { description: ECHO_DESCRIPTION, inputSchema: z.object({ text: z.string() }) }, echo);
        return server;
    });
} else {
    throw new Error('usage: node server-stdio.mjs --sdk v1|v2');
}
