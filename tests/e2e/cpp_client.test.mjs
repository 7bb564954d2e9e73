// End-to-end: mcp-cpp-client against mcp-cpp-demo and @modelcontextprotocol/server-everything (from
// npm, run as `node <its bin>`) over stdio, and the demo over Streamable HTTP: list, call, read and get, --json, a host configuration
// file, a form with no terminal to ask it on, and the exit status of each kind of failure.
//   MCP_CPP_CLIENT=build/tools/mcp-cpp-client/mcp-cpp-client MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo \
//     node --test tests/e2e/cpp_client.test.mjs
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { demoBinary, HttpDemo } from './helpers.mjs';

const TEST = { timeout: 30_000 };
const here = dirname(fileURLToPath(import.meta.url));
const everythingBin = join(here, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

function clientBinary() {
    const path = process.env.MCP_CPP_CLIENT;
    assert.ok(path, 'MCP_CPP_CLIENT must name the mcp-cpp-client binary (ctest sets it)');
    assert.ok(existsSync(path), `MCP_CPP_CLIENT=${path} does not exist: build the mcp-cpp-client target first`);
    return path;
}

// Runs mcp-cpp-client in a session of its own (no controlling terminal); resolves with its exit
// status and output.
function run(args, timeoutMs = 20_000) {
    return new Promise((resolve, reject) => {
        const child = spawn(clientBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        const timer = setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`mcp-cpp-client ${args.join(' ')} did not end in ${timeoutMs} ms; stderr: ${stderr}`));
        }, timeoutMs);
        child.on('error', reject);
        child.on('close', (status) => {
            clearTimeout(timer);
            resolve({ status, stdout, stderr });
        });
    });
}

const demo = () => ['--', demoBinary(), '--log-level', 'warn'];
const everything = () => {
    assert.ok(existsSync(everythingBin), `${everythingBin} is missing: run npm ci --prefix tests/e2e`);
    return ['--', process.execPath, everythingBin, 'stdio'];
};

async function ok(args) {
    const r = await run(args);
    assert.equal(r.status, 0, `mcp-cpp-client ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return r;
}

describe('mcp-cpp-client against mcp-cpp-demo', () => {
    test('tools/list prints each tool and its arguments, or the listing as JSON', TEST, async () => {
        const { stdout } = await ok(['tools/list', ...demo()]);
        assert.match(stdout, /^echo\tReturns its text argument unchanged\n\targuments: text=string$/m);
        assert.match(stdout, /^word_stats\t/m);
        const json = JSON.parse((await ok(['tools/list', '--json', ...demo()])).stdout);
        const echo = json.tools.find((t) => t.name === 'echo');
        assert.equal(echo.inputSchema.properties.text.type, 'string');
    });

    test('tools/call types k=v by the input schema: JSON where it parses, a string where the schema says so', TEST, async () => {
        assert.equal((await ok(['tools/call', 'echo', 'text=hello there', ...demo()])).stdout, 'hello there\n');
        // "42" parses as JSON, but echo's text is a string: it goes as one.
        assert.equal((await ok(['tools/call', 'echo', 'text=42', ...demo()])).stdout, '42\n');
        const stats = JSON.parse((await ok(['tools/call', 'word_stats', 'text=a b a', 'top=1', '--json', ...demo()])).stdout);
        assert.equal(stats.structuredContent.words, 3);
        assert.deepEqual(stats.structuredContent.top_words, [{ word: 'a', count: 2 }]);
        assert.equal(stats.isError, undefined);
    });

    test('resources/read and prompts/get', TEST, async () => {
        const read = JSON.parse((await ok(['resources/read', 'demo://server/stats', '--json', ...demo()])).stdout);
        assert.equal(read.contents[0].uri, 'demo://server/stats');
        assert.ok('notes' in JSON.parse(read.contents[0].text));
        const { stdout } = await ok(['prompts/get', 'summarize', 'text=The quick brown fox', ...demo()]);
        assert.equal(stdout, 'user: Summarize the following text in two sentences:\n\nThe quick brown fox\n');
    });

    test('a server named by a host configuration file', TEST, async () => {
        const dir = mkdtempSync(join(tmpdir(), 'mcp-cpp-client-'));
        after(() => rmSync(dir, { recursive: true, force: true }));
        const config = join(dir, 'mcp.json');
        writeFileSync(config, JSON.stringify({
            servers: {
                demo: { type: 'stdio', command: demoBinary(), args: ['--log-level', '${env:MCP_TEST_LEVEL}'] },
                other: { type: 'stdio', command: demoBinary() },
            },
        }));
        process.env.MCP_TEST_LEVEL = 'warn';  // the child inherits it; the file's ${env:...} reads it
        const r = await ok(['--config', config, '--server', 'demo', 'tools/call', 'echo', 'text=from the file']);
        assert.equal(r.stdout, 'from the file\n');
        const which = await run(['--config', config, 'tools/list']);
        assert.equal(which.status, 2);
        assert.match(which.stderr, /has 2 servers; name one with --server \(demo, other\)/);
    });

    test('a form with no terminal to ask it on is declined, and said so', TEST, async () => {
        const r = await ok(['tools/call', 'delete_note', 'slug=welcome', ...demo()]);
        assert.match(r.stderr, /the server asks "Delete the note "welcome"\?", and there is no terminal to answer on: declined/);
        assert.equal(r.stdout, 'Kept welcome\n');
    });

    test('failures exit non-zero with a message on stderr', TEST, async () => {
        const unknown = await run(['tools/call', 'nosuch', ...demo()]);
        assert.equal(unknown.status, 1);
        assert.match(unknown.stderr, /the server answered error -32602: Unknown tool: nosuch/);
        // A tool's own failure (isError): its content is printed, and the exit status says so.
        const failed = await run(['tools/call', 'color_swatch', 'color=plaid', ...demo()]);
        assert.equal(failed.status, 1);
        assert.match(failed.stdout, /Invalid arguments: \/color/);
        assert.match(failed.stderr, /the tool color_swatch reported an error \(isError\)/);
        const usage = await run(['tools/call', 'echo', 'no-equals-sign', ...demo()]);
        assert.equal(usage.status, 2);
        assert.match(usage.stderr, /argument "no-equals-sign": expected name=value/);
        const noServer = await run(['tools/list']);
        assert.equal(noServer.status, 2);
        assert.match(noServer.stderr, /name the server once/);
        const missing = await run(['tools/list', '--', '/nonexistent/mcp-server']);
        assert.equal(missing.status, 1);
        assert.match(missing.stderr, /cannot start \/nonexistent\/mcp-server/);
        // Nothing listens on port 9 (discard): the connection is refused, and said so.
        const url = await run(['--url', 'http://127.0.0.1:9/mcp', 'tools/list']);
        assert.equal(url.status, 1);
        assert.match(url.stderr, /127\.0\.0\.1:9: Connection refused/);
    });
});

describe('mcp-cpp-client over Streamable HTTP (--url)', () => {
    let server;
    after(() => server?.close());

    test('lists and calls the demo\'s tools at each revision', TEST, async () => {
        server = await HttpDemo.start();
        for (const version of ['auto', '2026-07-28', '2025-11-25']) {
            const at = ['--url', server.url, '--protocol-version', version];
            assert.match((await ok(['tools/list', ...at])).stdout, /^echo\t/m, version);
            assert.equal((await ok(['tools/call', 'echo', 'text=over http', ...at])).stdout, 'over http\n', version);
        }
    });
});

describe('mcp-cpp-client against @modelcontextprotocol/server-everything', () => {
    test('lists and calls its tools, with numbers from k=v', TEST, async () => {
        const { stdout } = await ok(['tools/list', ...everything()]);
        assert.match(stdout, /^get-sum\t/m);
        assert.match(stdout, /^trigger-long-running-operation\t/m);
        assert.equal((await ok(['tools/call', 'get-sum', 'a=2', 'b=3', ...everything()])).stdout, 'The sum of 2 and 3 is 5.\n');
        const weather = JSON.parse((await ok(['tools/call', 'get-structured-content', 'location=Chicago', '--json', ...everything()])).stdout);
        assert.equal(typeof weather.structuredContent.humidity, 'number');
        const long = await ok(['tools/call', 'trigger-long-running-operation', 'duration=0.2', 'steps=2', ...everything()]);
        assert.match(long.stdout, /Long running operation completed/);
        assert.doesNotMatch(long.stderr, /\x1b\[K/, 'no progress bar when stderr is no terminal');
    });

    test('reads a templated resource and gets a prompt with arguments', TEST, async () => {
        assert.match((await ok(['resources/read', 'demo://resource/dynamic/text/7', ...everything()])).stdout, /^Resource 7: /);
        const prompt = JSON.parse((await ok(['prompts/get', 'args-prompt', 'city=Paris', '--json', ...everything()])).stdout);
        assert.match(prompt.messages[0].content.text, /Paris/);
    });
});
