// One client, one kept-alive connection, N tools/call of echo on the 2026-07-28 wire, one after
// the other; every reply checked. bench/run.sh runs it against a server under callgrind (the https
// suite), where a fixed number of calls matters and their speed does not.
//   node bench/drivers/sequential.mjs --url http(s)://127.0.0.1:PORT/mcp --calls N
import http from 'node:http';
import https from 'node:https';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { url: { type: 'string' }, calls: { type: 'string' } } });
const url = new URL(values.url);
const calls = Number(values.calls);
const client = url.protocol === 'https:' ? https : http;
// The run's own certificate, made by bench/run.sh: nothing to verify it against.
const agent = new client.Agent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false });
const text = process.env.BENCH_TEXT;
const body = JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'tools/call',
    params: {
        name: 'echo', arguments: { text },
        _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'mcp-cpp-bench', version: '1.0.0' },
        },
    },
});
const headers = {
    'content-type': 'application/json', accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo',
    'content-length': Buffer.byteLength(body),
};
const block = JSON.stringify({ type: 'text', text });

function call() {
    return new Promise((resolve, reject) => {
        const request = client.request(url, { method: 'POST', headers, agent, timeout: 60_000 }, (response) => {
            let reply = '';
            response.setEncoding('utf8');
            response.on('data', (chunk) => (reply += chunk));
            response.on('end', () =>
                response.statusCode === 200 && reply.includes(block) && reply.includes('"resultType":"complete"')
                    ? resolve()
                    : reject(new Error(`HTTP ${response.statusCode}: ${reply.slice(0, 300)}`)));
        });
        request.on('timeout', () => request.destroy(new Error('no reply within 60 s')));
        request.on('error', reject);
        request.end(body);
    });
}

if (!(calls > 0) || !text) {
    console.error('usage: BENCH_TEXT=... node sequential.mjs --url URL --calls N');
    process.exit(2);
}
for (let i = 0; i < calls; i++) await call();
agent.destroy();
console.log(`ok ${calls}`);
