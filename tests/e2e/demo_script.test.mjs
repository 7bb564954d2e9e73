// scripts/demo.sh as a stdio client starts it: on an empty build directory, so that it installs, configures
// and builds first, with its stdout read as the MCP channel. Every byte of stdout must be a JSON-RPC line
// (apt's, CMake's and Ninja's output go to stderr), and the server must answer.
//   node --test tests/e2e/demo_script.test.mjs          (scripts/test.sh --full runs it, label long)
// The build directory is build-demo-check/ beside build/, so that under scripts/test.sh ccache serves
// what build/ compiled (CCACHE_BASEDIR and CCACHE_IGNOREOPTIONS there); alone it builds from scratch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const buildDir = join(root, 'build-demo-check');

test('demo.sh on an empty build directory writes only JSON-RPC lines to stdout', { timeout: 1_200_000 }, async () => {
    rmSync(buildDir, { recursive: true, force: true });
    const child = spawn(join(root, 'scripts', 'demo.sh'), [], {
        cwd: root,
        env: { ...process.env, MCP_BUILD_DIR: 'build-demo-check' },
        stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const answered = new Promise((resolve) => {
        child.stdout.on('data', (chunk) => {
            stdout += chunk;
            // The tools/list answer is the last message asked for: then the client hangs up.
            if (stdout.includes('"id":2')) resolve();
        });
    });
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));

    // Written at once, before the build: the server reads them once it runs.
    const send = (msg) => child.stdin.write(`${JSON.stringify(msg)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
        protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'demo-check', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

    await Promise.race([answered, exited]);
    child.stdin.end();
    const { code, signal } = await exited;
    try {
        assert.equal(code, 0, `demo.sh exited with ${code} (${signal}); its stderr ends:\n${stderr.slice(-4000)}`);
        assert.ok(stderr.includes('mcp-cpp-demo'), 'the build output went to stderr');
        assert.ok(stdout.endsWith('\n'), `stdout ends with a whole line: ${JSON.stringify(stdout.slice(-200))}`);
        const lines = stdout.slice(0, -1).split('\n');
        const messages = lines.map((line, i) => {
            let msg;
            assert.doesNotThrow(() => { msg = JSON.parse(line); }, `stdout line ${i + 1} is not JSON: ${line.slice(0, 200)}`);
            assert.equal(msg.jsonrpc, '2.0', `stdout line ${i + 1} is not JSON-RPC: ${line.slice(0, 200)}`);
            return msg;
        });
        assert.equal(messages.find((m) => m.id === 1)?.result?.serverInfo?.name, 'mcp-cpp-demo');
        assert.ok(messages.find((m) => m.id === 2)?.result?.tools?.some((t) => t.name === 'echo'), 'tools/list lists echo');
    } finally {
        rmSync(buildDir, { recursive: true, force: true });
    }
});
