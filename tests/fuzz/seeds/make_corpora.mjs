#!/usr/bin/env node
// Builds candidate seeds for every fuzz target into OUT/<target>/ (files named by the SHA-1 of
// their content), from:
//   - recordings of real traffic (record.mjs: the e2e suites and the conformance suite) for
//     fuzz_core, fuzz_http, fuzz_jsonrpc and fuzz_stdio_lines;
//   - the demo's own tool schemas (asked of the demo binary) and Debian's JSON-Schema-Test-Suite
//     for fuzz_schema;
//   - the hand-written cases below for the other targets.
//
//   node tests/fuzz/seeds/make_corpora.mjs --recordings DIR [--recordings DIR...] \
//        --demo build/examples/demo/mcp-cpp-demo --out OUT
//
// The candidates are many and overlap; tests/fuzz/README.md shows how libFuzzer's -merge
// keeps, into tests/fuzz/corpus/, only those that add coverage.
// Recorded values the fuzz targets cannot know are replaced by their placeholders (fuzz_core.cpp,
// fuzz_http.cpp): a client's answer to a server request gets id "@request", a requestState
// "@state", a cursor "@cursor", an Mcp-Session-Id header "@session".
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const opts = { recordings: [], demo: '', out: '', schemaSuite: '/usr/share/json-schema-test-suite/tests/draft7' };
for (let i = 2; i < process.argv.length; i += 2) {
    const [flag, value] = [process.argv[i], process.argv[i + 1]];
    if (flag === '--recordings') opts.recordings.push(value);
    else if (flag === '--demo') opts.demo = value;
    else if (flag === '--out') opts.out = value;
    else if (flag === '--schema-suite') opts.schemaSuite = value;
    else throw new Error(`unknown option ${flag}`);
}
if (!opts.out) throw new Error('--out DIR is required');

// The longest input each target is fuzzed with (campaign.sh): longer candidates are left out.
const maxLength = { fuzz_http: 72000, fuzz_core: 8192 };
const counts = {};
function seed(target, content) {
    const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
    if (bytes.length > (maxLength[target] ?? 4096)) return;
    const dir = path.join(opts.out, target);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, crypto.createHash('sha1').update(bytes).digest('hex'));
    if (!fs.existsSync(file)) counts[target] = (counts[target] ?? 0) + 1;
    fs.writeFileSync(file, bytes);
}

// ---- Placeholders.
function withPlaceholders(message) {
    if (!message || typeof message !== 'object' || Array.isArray(message)) return message;
    const isResponse = !('method' in message) && ('result' in message || 'error' in message);
    if (isResponse && typeof message.id === 'string') message.id = '@request';
    const params = message.params;
    if (params && typeof params === 'object') {
        if (typeof params.requestState === 'string') params.requestState = '@state';
        if (typeof params.cursor === 'string') params.cursor = '@cursor';
    }
    return message;
}

function placeholderLine(line) {
    try {
        return JSON.stringify(withPlaceholders(JSON.parse(line)));
    } catch {
        return line;  // not JSON: as it was (the hostile suites send such lines on purpose)
    }
}

// Consecutive lines, at most `limit` bytes each group.
function groups(lines, limit) {
    const out = [];
    let current = '';
    for (const line of lines) {
        if (current && current.length + line.length + 1 > limit) {
            out.push(current);
            current = '';
        }
        if (line.length + 1 <= limit) current += line + '\n';
    }
    if (current) out.push(current);
    return out;
}

// ---- HTTP: one connection's bytes into its requests.
function splitRequests(bytes) {
    const requests = [];
    let at = 0;
    while (at < bytes.length) {
        const headEnd = bytes.indexOf('\r\n\r\n', at);
        if (headEnd < 0) break;
        const head = bytes.subarray(at, headEnd).toString('latin1');
        let end = headEnd + 4;
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
            while (true) {  // chunks, then the trailer's empty line
                const lineEnd = bytes.indexOf('\r\n', end);
                if (lineEnd < 0) return requests;
                const size = parseInt(bytes.subarray(end, lineEnd).toString('latin1'), 16);
                if (Number.isNaN(size)) return requests;
                end = lineEnd + 2;
                if (size === 0) {
                    const trailerEnd = bytes.indexOf('\r\n\r\n', end - 2);
                    if (trailerEnd < 0) return requests;
                    end = trailerEnd + 4;
                    break;
                }
                end += size + 2;
            }
        } else if (length) {
            end += Number(length[1]);
        }
        if (end > bytes.length) break;
        requests.push({ head, bytes: bytes.subarray(at, end), body: bytes.subarray(headEnd + 4, end) });
        at = end;
    }
    return requests;
}

function sessionPlaceholder(bytes) {
    return Buffer.from(bytes.toString('latin1').replace(/(\r\nMcp-Session-Id:[ \t]*)[^\r\n]*/gi, '$1@session'), 'latin1');
}

// ---- Recordings.
for (const dir of opts.recordings) {
    for (const name of fs.readdirSync(dir).sort()) {
        const bytes = fs.readFileSync(path.join(dir, name));
        if (bytes.length === 0) continue;
        if (name.startsWith('stdio-')) {
            const lines = bytes.toString('utf8').split('\n').filter((l) => l.trim());
            for (const line of lines) seed('fuzz_jsonrpc', line);
            for (const group of groups(lines.map(placeholderLine), 8192)) seed('fuzz_core', group);
            for (const group of groups(lines, 4000)) seed('fuzz_stdio_lines', Buffer.concat([Buffer.from([group.length % 64]), Buffer.from(group)]));
        } else if (name.startsWith('http-')) {
            const connection = sessionPlaceholder(bytes);
            seed('fuzz_http', connection);
            const requests = splitRequests(connection);
            const bodies = [];
            for (const r of requests) {
                seed('fuzz_http', r.bytes);
                const body = r.body.toString('utf8');
                if (!/^\s*[{[]/.test(body)) continue;  // chunked or not JSON: the HTTP seeds have it
                seed('fuzz_jsonrpc', body);
                bodies.push(placeholderLine(body));
            }
            for (const group of groups(bodies, 8192)) seed('fuzz_core', group);
        }
    }
}

// ---- fuzz_schema: the demo's tool schemas, then the JSON-Schema-Test-Suite.
if (opts.demo) {
    const conversation = [
        { jsonrpc: '2.0', id: 1, method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'seeds', version: '1' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        ...[2, 3, 4, 5, 6].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/list' })),
    ];
    // One page is all the default page size needs; the demo stays below it.
    const output = execFileSync(opts.demo, [], {
        input: conversation.map((m) => JSON.stringify(m)).join('\n') + '\n', stdio: ['pipe', 'pipe', 'ignore'] });
    for (const line of output.toString().split('\n').filter(Boolean)) {
        const message = JSON.parse(line);
        for (const tool of message.result?.tools ?? []) {
            for (const schema of [tool.inputSchema, tool.outputSchema].filter(Boolean)) {
                seed('fuzz_schema', `${JSON.stringify(schema)}\n{}\n{"text":"hello","top":3,"slug":"a-b","to":2,"color":"red"}\n`);
            }
        }
    }
}
if (opts.schemaSuite && fs.existsSync(opts.schemaSuite)) {
    for (const file of fs.readdirSync(opts.schemaSuite).filter((f) => f.endsWith('.json')).sort()) {
        for (const group of JSON.parse(fs.readFileSync(path.join(opts.schemaSuite, file), 'utf8'))) {
            const lines = [JSON.stringify(group.schema), ...group.tests.map((t) => JSON.stringify(t.data))];
            seed('fuzz_schema', lines.join('\n') + '\n');
        }
    }
}

// ---- Hand-written seeds for the targets no recording reaches.
const uriTemplates = [
    ['demo://notes/{slug}', 'demo://notes/welcome', 'demo://notes/a%20b', 'demo://notes/'],
    ['db://tables/{table}/rows{?limit,offset}{&x.y*}{/p%20q:3}', 'db://tables/t/rows?limit=1&offset=2/abc'],
    ['{+path}/here', '/foo/bar/here'], ['{#x,hello,y}', '#1024,Hello%20World!,768'],
    ['{/var,x}/here', '/value/1024/here'], ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='], ['{&x,y}', '&x=1024&y=768'], ['{.list*}', '.red.green.blue'],
    ['{/list*,path:4}', '/red/green/blue/%2Ffoo'], ['{var:3}', 'val'], ['{a}-{b}-{c}!{d}', 'x-x-x-x-x-x!y'],
    ['files://{dir}/{name}.{ext}', 'files://docs/readme.md'], ['{?q*}', '?a=1&b=2'],
    ['docs://\u00e9t\u00e9/{x}', 'docs://%C3%A9t%C3%A9/y'], ['{x,+y}', 'a,b'], ['{a:0}', ''], ['{a}}', '']];
for (const lines of uriTemplates) seed('fuzz_uri_template', lines.join('\n'));

const resp = ['+OK\r\n', '-ERR unknown command\r\n', ':42\r\n', ':-1\r\n', '$5\r\nhello\r\n', '$0\r\n\r\n', '$-1\r\n', '*-1\r\n',
    '*0\r\n', '*2\r\n$3\r\nfoo\r\n$3\r\nbar\r\n', '*3\r\n$7\r\nmessage\r\n$6\r\nmcp:ch\r\n$2\r\nhi\r\n',
    '*4\r\n$8\r\npmessage\r\n$5\r\nmcp:*\r\n$5\r\nmcp:a\r\n$1\r\nx\r\n', '*2\r\n*1\r\n:1\r\n*1\r\n$-1\r\n',
    '*1\r\n*1\r\n*1\r\n*1\r\n:0\r\n', '+PONG\r\n:1\r\n$2\r\nok\r\n', '$3\r\nabc', '*2\r\n:1\r\n', '$5\r\nhelloXX', '?\r\n'];
resp.forEach((r, i) => seed('fuzz_resp', Buffer.concat([Buffer.from([i]), Buffer.from(r)])));

const now = Date.now();
const tokens = [
    [0, 'AQdmdXp6LWFjdGl2ZQABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f'], [0, ''], [0, 'not a token'], [0, 'AQ'],
    [1, JSON.stringify({ m: 'tools/call', d: 'abc', p: '', a: { confirm_delete: { action: 'accept', content: { confirm: true } } }, t: now })],
    [1, JSON.stringify({ m: 'tools/call', d: '', p: 'alice', a: {}, t: -9007199254740991 })],
    [1, 'session-1\nstream-2\n17'], [1, 'tools\nadd_note'], [1, ''],
    [2, 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='],
    [2, '# rotation\nnew:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\nold : ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=\n'],
    [2, 'bad id!:AAAA'], [2, 'kid:'], [2, '::']];
for (const [mode, text] of tokens) seed('fuzz_sealed_tokens', Buffer.concat([Buffer.from([mode]), Buffer.from(text)]));

const b64url = (s) => Buffer.from(s).toString('base64url');
const jwtHeader = { alg: 'EdDSA', typ: 'at+jwt', kid: 'ed' };
const jwtClaims = { iss: 'https://issuer.example', aud: 'https://mcp.example/mcp', sub: 'alice', scope: 'notes:read notes:write',
    exp: Math.floor(now / 1000) + 3600, iat: Math.floor(now / 1000) };
const jwt = [
    [0, JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', kid: 'ed' }] })],
    [0, JSON.stringify({ keys: [{ kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
        y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0', kid: 'ec', use: 'sig', alg: 'ES256' }] })],
    [0, JSON.stringify({ keys: [{ kty: 'RSA', n: 'AQAB', e: 'AQAB' }, { kty: 'oct', k: 'AAAA' }, { use: 'enc' }, 1, null] })],
    [0, '{"keys":{}}'], [0, '[]'],
    [1, `${b64url(JSON.stringify(jwtHeader))}.${b64url(JSON.stringify(jwtClaims))}.${b64url('signature')}`],
    [1, `${b64url('{"alg":"none"}')}.${b64url('{}')}.`], [1, 'a.b.c'], [1, '...'],
    [2, `${JSON.stringify(jwtHeader)}\n${JSON.stringify(jwtClaims)}`],
    [2, `{"kid":"ec"}\n${JSON.stringify({ ...jwtClaims, aud: ['x', 'https://mcp.example/mcp'], scope: undefined, scp: ['a', 'b'] })}`],
    [2, `{"crit":["b64"]}\n{"iss":"https://issuer.example","exp":1e300,"nbf":-1}`]];
for (const [mode, text] of jwt) seed('fuzz_jwt', Buffer.concat([Buffer.from([mode]), Buffer.from(text)]));

for (const text of ['', 'hello world', 'a%20b%zz%', '%C3%A9', 'SGVsbG8=', 'SGVsbG8', 'SGVsbG9=', 'SGVs bG8=', '____',
    '\u00e9\u4e2d\u{1F600}']) seed('fuzz_encodings', text);
// Not UTF-8: a lone byte, a truncated sequence, a surrogate, beyond U+10FFFF, an overlong '/'.
for (const bytes of [[0xff, 0xfe], [0x63, 0x61, 0x66, 0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf]])
    seed('fuzz_encodings', Buffer.from(bytes));

for (const [target, n] of Object.entries(counts).sort()) console.log(`${target}: ${n} candidate seeds`);
