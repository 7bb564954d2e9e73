// A small MCP server over stdio that misbehaves as its first argument says, for the client's
// stdio tests (test_client_stdio.cpp). It speaks just enough of the protocol to get there.
//
//   legacy        refuses server/discover (-32601) and initializes in 2025-06-18
//   silent        never answers server/discover, initializes in the version asked for
//   incompatible  answers server/discover with -32022, supporting only 1999-01-01
//   hostile       answers tools/call with a malformed line, an oversized one, a response for an
//                 unknown id, then the response twice
//   mute          never answers tools/call
//   flood         sends 20,000 log notifications before it answers tools/call
//   tools         lists a tool whose x-mcp-header annotation is valid, one whose is not, and one
//                 whose schemas are remote references
//   input-loop    answers every tools/call with input_required, checking that each retry echoes
//                 the last requestState verbatim, answers the request and has a fresh id
//   replies       answers tools/call with the reply its tool's name asks for, written by hand
//                 (repliesByTool): the shapes a client may read from the text or must parse
import { createInterface } from 'node:readline';

const scenario = process.argv[2];
const write = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const result = (id, value) => write({ jsonrpc: '2.0', id, result: value });
const error = (id, code, message, data) => write({ jsonrpc: '2.0', id, error: { code, message, data } });
const discovered = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: `fake-${scenario}`, version: '1' } },
};
const ok = { content: [{ type: 'text', text: 'ok' }] };
const annotatedTools = [
  { name: 'good', inputSchema: { type: 'object', properties: { r: { type: 'string', 'x-mcp-header': 'Region' } } } },
  { name: 'bad', inputSchema: { type: 'object', properties: { r: { type: 'object', 'x-mcp-header': 'Region' } } } },
  {
    name: 'remote_ref',
    inputSchema: { $ref: 'https://schemas.example.invalid/input.json' },
    outputSchema: { $ref: 'https://schemas.example.invalid/output.json' },
  },
];

// The replies of the `replies` scenario, as text ({id} is the request's id).
const repliesByTool = {
  'result-first': '{"result":{"content":[{"type":"text","text":"result first"}]},"jsonrpc":"2.0","id":{id}}',
  'rich': '{"jsonrpc":"2.0","id":{id},"result":{"content":[{"type":"text","text":"rich","annotations":{"priority":1}},' +
    '{"type":"image","data":"AAAA","mimeType":"image/png"}],"structuredContent":{"n":1},"isError":true,"_meta":{"k":"v"}}}',
  'extra-member': '{"jsonrpc":"2.0","id":{id},"result":{"content":[{"type":"text","text":"extra"}]},"x":1}',
  'malformed': '{"jsonrpc":"2.0","id":{id},"result":{"content":[}',
  'result-and-error': '{"jsonrpc":"2.0","id":{id},"result":{},"error":{"code":-32000,"message":"both"}}',
  'no-text': '{"jsonrpc":"2.0","id":{id},"result":{"content":[{"type":"text"}]}}',
};

const seenIds = new Set();
let lastState = null;
let round = 0;

function discover(m) {
  if (scenario === 'legacy') return error(m.id, -32601, 'Method not found');
  if (scenario === 'silent') return;
  if (scenario === 'incompatible')
    return error(m.id, -32022, 'Unsupported protocol version', { supported: ['1999-01-01'], requested: '2026-07-28' });
  result(m.id, discovered);
}

function initialize(m) {
  const version = scenario === 'legacy' ? '2025-06-18' : m.params.protocolVersion;
  result(m.id, { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: `fake-${scenario}`, version: '1' } });
}

function callTool(m) {
  switch (scenario) {
    case 'hostile':
      process.stdout.write('{not json\n');
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(4096) } }) + '\n');
      result(999999, ok);
      result(m.id, ok);
      result(m.id, ok);
      return;
    case 'mute':
      return;
    case 'flood':
      for (let i = 0; i < 20000; ++i)
        write({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `line ${i}` } });
      return result(m.id, ok);
    case 'input-loop': {
      if (seenIds.has(m.id)) return error(m.id, -32000, 'bad retry: the id was used before');
      seenIds.add(m.id);
      const p = m.params;
      if (lastState !== null) {
        if (p.requestState !== lastState) return error(m.id, -32000, `bad retry: requestState ${JSON.stringify(p.requestState)}`);
        if (!p.inputResponses || p.inputResponses.confirm?.action !== 'accept')
          return error(m.id, -32000, 'bad retry: no answer under "confirm"');
      } else if ('requestState' in p || 'inputResponses' in p) {
        return error(m.id, -32000, 'bad first request: it carries state');
      }
      lastState = `state ${++round} \u00e9 "quoted" +/=`;
      return result(m.id, {
        resultType: 'input_required',
        inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } } } },
        requestState: lastState,
      });
    }
    case 'replies':
      return process.stdout.write(repliesByTool[m.params.name].replace('{id}', String(m.id)) + '\n');
    default:
      if (m.params?.name === 'remote_ref') return result(m.id, { ...ok, structuredContent: { anything: true } });
      return result(m.id, ok);
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    return;
  }
  if (m.id === undefined || !m.method) return;  // notifications and responses
  if (m.method === 'server/discover') return discover(m);
  if (m.method === 'initialize') return initialize(m);
  if (m.method === 'tools/call') return callTool(m);
  if (m.method === 'tools/list') return result(m.id, { tools: scenario === 'tools' ? annotatedTools : [] });
  error(m.id, -32601, 'Method not found');
});
