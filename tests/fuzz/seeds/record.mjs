#!/usr/bin/env node
// Records what clients send an mcp-cpp server, so that the fuzz corpora start from real traffic
// (make_corpora.mjs turns the recordings into seeds). It stands in for the server binary:
//
//   MCP_FUZZ_RECORD_BINARY=$PWD/build/examples/demo/mcp-cpp-demo MCP_FUZZ_RECORD_DIR=/tmp/rec \
//   MCP_CPP_DEMO=$PWD/tests/fuzz/seeds/record.mjs node --test tests/e2e/http_sdk_v2.test.mjs
//
// (The SDK's stdio client starts its server with a minimal environment: for the stdio suites,
// MCP_CPP_DEMO names a shell script that sets both variables and runs this one.)
// stdio: stdin goes to the server and, as it is, to DIR/stdio-<pid>.jsonl.
// --http HOST:PORT: the server listens on another loopback port and this process on HOST:PORT,
// forwarding each connection both ways (half-closes included) and writing the bytes the client
// sent to DIR/http-<pid>-<n>.bin. The server's log names HOST:PORT, as the tests expect.
// With --tls-cert the bytes are ciphertext: the server runs unrecorded. Signals reach the server;
// this process exits as the server does.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const binary = process.env.MCP_FUZZ_RECORD_BINARY;
const dir = process.env.MCP_FUZZ_RECORD_DIR;
if (!binary || !dir) {
    console.error('record.mjs: set MCP_FUZZ_RECORD_BINARY (the server) and MCP_FUZZ_RECORD_DIR (where to write)');
    process.exit(2);
}
fs.mkdirSync(dir, { recursive: true });

function freeLoopbackPort() {
    return new Promise((resolve, reject) => {
        const server = net.createServer();
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => {
            const { port } = server.address();
            server.close(() => resolve(port));
        });
    });
}

function run(args, stdin) {
    const child = spawn(binary, args, { stdio: [stdin, 'inherit', 'pipe'] });
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
    child.once('close', (code, signal) => process.exit(code ?? (signal === 'SIGKILL' ? 137 : 143)));
    return child;
}

const args = process.argv.slice(2);
const httpAt = args.indexOf('--http');
if (args.includes('--tls-cert') || args.some((a) => a.startsWith('--tls-cert='))) {
    run(args, 'inherit').stderr.pipe(process.stderr);
} else if (httpAt < 0) {
    const child = run(args, 'pipe');
    const record = fs.createWriteStream(path.join(dir, `stdio-${process.pid}.jsonl`));
    process.stdin.on('data', (chunk) => {
        record.write(chunk);
        child.stdin.write(chunk);
    });
    process.stdin.on('end', () => child.stdin.end());
    child.stdin.on('error', () => {});  // the server may go first
    child.stderr.pipe(process.stderr);
} else {
    const outer = args[httpAt + 1];
    const colon = outer.lastIndexOf(':');
    const host = outer.slice(0, colon);
    const innerPort = await freeLoopbackPort();
    args[httpAt + 1] = `127.0.0.1:${innerPort}`;
    const child = run(args, 'ignore');
    // The log names the outer address; whole lines, so that no address is split across chunks.
    let partial = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
        partial += chunk;
        const end = partial.lastIndexOf('\n') + 1;
        process.stderr.write(partial.slice(0, end).replaceAll(`127.0.0.1:${innerPort}`, outer));
        partial = partial.slice(end);
    });
    let connections = 0;
    const proxy = net.createServer({ allowHalfOpen: true }, (client) => {
        const record = fs.createWriteStream(path.join(dir, `http-${process.pid}-${++connections}.bin`));
        const upstream = net.connect({ host: '127.0.0.1', port: innerPort, allowHalfOpen: true });
        client.on('data', (chunk) => {
            record.write(chunk);
            upstream.write(chunk);
        });
        client.on('end', () => {
            record.end();
            upstream.end();
        });
        upstream.on('data', (chunk) => client.write(chunk));
        upstream.on('end', () => client.end());
        for (const [a, b] of [[client, upstream], [upstream, client]]) {
            a.on('error', () => b.destroy());
            a.on('close', () => b.destroy());
        }
    });
    proxy.listen(Number(outer.slice(colon + 1)), host.replace(/^\[|\]$/g, ''));
}
