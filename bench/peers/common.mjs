// Shared bits of the peer servers: argument parsing, body reading, startup line.
import http from 'node:http';

export function parseArgs(argv) {
    const args = { host: '127.0.0.1', port: 0, mode: 'stateless' };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--port') args.port = Number(argv[++i]);
        else if (a === '--mode') args.mode = argv[++i];
        else throw new Error(`unknown argument ${a}`);
    }
    if (!Number.isInteger(args.port) || args.port <= 0) throw new Error('--port PORT is required');
    if (!['stateless', 'session'].includes(args.mode)) throw new Error('--mode is stateless or session');
    return args;
}

// The whole request body, bounded (the echo bodies are ~400 bytes).
export function readBody(req, limit = 4 * 1024 * 1024) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let size = 0;
        req.on('data', (c) => {
            size += c.length;
            if (size > limit) {
                reject(new Error('body too large'));
                req.destroy();
                return;
            }
            chunks.push(c);
        });
        req.on('end', () => resolve(Buffer.concat(chunks)));
        req.on('error', reject);
    });
}

export function parseJson(buf) {
    if (buf.length === 0) return undefined;
    try {
        return JSON.parse(buf.toString('utf8'));
    } catch {
        return undefined;
    }
}

// Listens on 127.0.0.1 only; prints one line when ready; exits on SIGTERM/SIGINT.
export function listen(handler, { host, port }, label) {
    const server = http.createServer((req, res) => {
        handler(req, res).catch((err) => {
            if (!res.headersSent) {
                res.writeHead(500, { 'content-type': 'text/plain' });
                res.end(String(err?.message ?? err));
            } else {
                res.destroy();
            }
        });
    });
    server.keepAliveTimeout = 65_000;
    server.listen(port, host, () => console.log(`${label} listening on http://${host}:${port}/mcp`));
    const stop = () => {
        server.close();
        server.closeAllConnections?.();
        process.exit(0);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    return server;
}

export const ECHO_DESCRIPTION = 'Returns its text argument unchanged';
