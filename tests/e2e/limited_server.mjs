// A small stdio MCP server (2025-06-18, no SDK) for the gateway's resource limit tests
// (gateway.test.mjs): `report` answers with its pid and its own /proc/self/limits, `allocate`
// allocates `mib` MiB and holds it; past a memory limit the allocation throws, uncaught, and the
// server dies as a runaway would. With --start-delay-ms N it answers initialize N ms late (a slow
// starter, for --idle-stop).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const write = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const result = (id, value) => write({ jsonrpc: '2.0', id, result: value });
const text = (value) => ({ content: [{ type: 'text', text: value }] });
const held = [];
const delay = process.argv.indexOf('--start-delay-ms');
const startDelayMs = delay < 0 ? 0 : Number(process.argv[delay + 1]);
const tools = [
    { name: 'report', description: 'Its pid and /proc/self/limits', inputSchema: { type: 'object' } },
    {
        name: 'allocate',
        description: 'Allocates and holds mib MiB',
        inputSchema: { type: 'object', properties: { mib: { type: 'integer' } }, required: ['mib'] },
    },
];

function call(m) {
    const { name, arguments: args } = m.params;
    if (name === 'report') return result(m.id, text(JSON.stringify({ pid: process.pid, limits: readFileSync('/proc/self/limits', 'utf8') })));
    for (let i = 0; i < args.mib; ++i) held.push(Buffer.alloc(1024 * 1024, 1));
    result(m.id, text(`holding ${held.length} MiB`));
}

createInterface({ input: process.stdin }).on('line', (line) => {
    const m = JSON.parse(line);
    if (m.id === undefined) return;
    switch (m.method) {
        case 'initialize': {
            const answer = { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'limited', version: '1' } };
            return setTimeout(() => result(m.id, answer), startDelayMs);
        }
        case 'tools/list': return result(m.id, { tools });
        case 'tools/call': return call(m);
        case 'ping': return result(m.id, {});
        default: return write({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
    }
});
