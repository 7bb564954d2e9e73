// What the memory, parked and tasks drivers share: raw HTTP requests to an MCP endpoint
// (node:http), a 2025-11-25 session opened by hand, replies read as JSON-RPC, and a server's VmRSS
// and thread count.
import http from 'node:http';
import { readFileSync } from 'node:fs';

export const VERSION = '2025-11-25';

// VmRSS (kB) and the thread count of process `pid`.
export function procStatus(pid) {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1]);
    return { rss_kb: field('VmRSS'), threads: field('Threads') };
}

// One request through `agent`; resolves with { status, headers, body, req } once the body has
// ended, or as soon as `until(body)` holds (the stream then stays open: `req` closes it).
export function request(url, agent, method, body, headers = {}, { until = null, timeoutMs = 30_000 } = {}) {
    return new Promise((resolve, reject) => {
        const req = http.request(url, {
            method,
            agent,
            timeout: timeoutMs,
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        });
        req.on('timeout', () => req.destroy(new Error(`${method}: no reply for ${timeoutMs} ms`)));
        req.on('error', reject);
        req.on('response', (res) => {
            let text = '';
            let done = false;
            res.setEncoding('utf8');
            res.on('data', (c) => {
                text += c;
                if (!done && until?.(text)) {
                    done = true;
                    resolve({ status: res.statusCode, headers: res.headers, body: text, req });
                }
            });
            res.on('end', () => done || resolve({ status: res.statusCode, headers: res.headers, body: text, req }));
            res.on('error', (e) => done || reject(e));
        });
        req.end(body);
    });
}

// The JSON-RPC response with id `id` in a reply body, which is either one JSON message or an SSE
// stream of them (`data:` lines); throws when the body has none, or it is an error.
export function rpcResult(r, id, what) {
    if (r.status !== 200) throw new Error(`${what}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
    const messages = r.headers['content-type']?.startsWith('text/event-stream')
        ? r.body.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)))
        : [JSON.parse(r.body)];
    const reply = messages.find((m) => m.id === id && ('result' in m || 'error' in m));
    if (!reply) throw new Error(`${what}: no response with id ${JSON.stringify(id)} in ${r.body.slice(0, 300)}`);
    if (reply.error) throw new Error(`${what}: error ${JSON.stringify(reply.error).slice(0, 300)}`);
    return reply.result;
}

// initialize + notifications/initialized, each reply checked; returns the session's headers.
// Runs task(i) for i < n, `limit` at a time; a task that throws is reported to fail(message).
export async function eachAtOnce(fail, n, limit, task) {
    let next = 0;
    const worker = async () => {
        while (next < n) {
            const i = next++;
            try {
                await task(i);
            } catch (e) {
                fail(e.message ?? e);
            }
        }
    };
    await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
}

export async function openSession(url, agent, capabilities) {
    const init = await request(url, agent, 'POST', JSON.stringify({
        jsonrpc: '2.0', id: 1, method: 'initialize',
        params: { protocolVersion: VERSION, capabilities, clientInfo: { name: 'mcp-cpp-bench', version: '1.0.0' } },
    }));
    const sid = init.headers['mcp-session-id'];
    if (init.status !== 200 || !sid || !init.body.includes(`"protocolVersion":"${VERSION}"`)) {
        throw new Error(`initialize: ${init.status} ${init.body.slice(0, 300)}`);
    }
    const h = { 'mcp-session-id': sid, 'mcp-protocol-version': VERSION };
    const done = await request(url, agent, 'POST', '{"jsonrpc":"2.0","method":"notifications/initialized"}', h);
    if (done.status !== 202) throw new Error(`notifications/initialized: ${done.status} ${done.body.slice(0, 300)}`);
    return h;
}
