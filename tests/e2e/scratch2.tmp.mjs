import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpDemo, HttpRecorder, tapTransport, sleep } from './helpers.mjs';
const srv = await HttpDemo.start(['--log-level','debug']);
try {
  const rec = new HttpRecorder();
  const transport = new StreamableHTTPClientTransport(new URL(srv.url), { fetch: rec.fetch });
  const client = new Client({ name: 'x', version: '1' }, { capabilities: {} });
  const errors = []; client.onerror = (e) => errors.push(String(e));
  await client.connect(transport);
  const ac = new AbortController(); let n = 0;
  await client.callTool({ name: 'slow_count', arguments: { to: 100, step_ms: 50 } }, undefined, { signal: ac.signal, onprogress: () => { if (++n === 3) ac.abort('x'); } }).catch(e => console.log('rejected', String(e)));
  await sleep(3000);
  console.log(errors);
  for (const x of rec.exchanges) console.log(x.method, x.requestBody?.slice(0,100), x.status, x.ended, JSON.stringify(x.requestHeaders['last-event-id']), JSON.stringify(x.body.slice(-300)));
  await client.close();
} finally { await srv.close(); console.log(srv.stderr); }
