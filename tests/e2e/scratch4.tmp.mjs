import { HttpDemo, SseReader, modernRequest, modernHeaders, tryConnect, sleep } from './helpers.mjs';
const grace = process.argv[2];
const srv = await HttpDemo.start(grace ? ['--shutdown-grace', grace] : []);
const t0 = Date.now(); const T = () => Date.now() - t0;
try {
  // 2026 call
  const m = modernRequest(1, 'tools/call', { name: 'slow_count', arguments: { to: grace ? 1000 : 20, step_ms: 50 }, _meta: { progressToken: 'a' } });
  const r1 = await fetch(srv.url, { method: 'POST', headers: modernHeaders(m), body: JSON.stringify(m) });
  // 2025 session
  const init = await fetch(srv.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) });
  const sid = init.headers.get('mcp-session-id'); await init.text();
  const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
  await (await fetch(srv.url, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  const get = await fetch(srv.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' } });
  const g = new SseReader(get);
  const r2 = await fetch(srv.url, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_count', arguments: { to: grace ? 1000 : 20, step_ms: 50 }, _meta: { progressToken: 'b' } } }) });
  const a = new SseReader(r1), b = new SseReader(r2);
  await a.next(m => m.method === 'notifications/progress');
  await b.next(m => m.method === 'notifications/progress');
  console.log(T(), 'SIGTERM');
  srv.signal('SIGTERM');
  await sleep(100);
  console.log(T(), 'connect after signal:', String(await tryConnect(srv.port)));
  const ra = a.next(m => 'id' in m, 15000, 'a result').then(x => console.log(T(), 'A', JSON.stringify(x.message))).catch(e => console.log(T(), 'A err', String(e).slice(0, 400)));
  const rb = b.next(m => 'id' in m, 15000, 'b result').then(x => console.log(T(), 'B', JSON.stringify(x.message))).catch(e => console.log(T(), 'B err', String(e).slice(0, 400)));
  const rg = g.rest(15000).then(ev => console.log(T(), 'GET ended', JSON.stringify(ev))).catch(e => console.log(T(), 'G err', String(e).slice(0, 200)));
  await Promise.all([ra, rb, rg]);
  console.log(T(), 'exit', JSON.stringify(await srv.exited(15000)));
} finally { await srv.close(); console.log(srv.stderr); }
