import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { tapTransport, demoBinary, sleep } from './helpers.mjs';
for (const mode of [{ pin: '2026-07-28' }, 'auto']) {
  const transport = new StdioClientTransport({ command: demoBinary(), args: [], stderr: 'pipe' });
  const wire = tapTransport(transport);
  const client = new Client({ name: 'x', version: '1' }, { capabilities: {}, versionNegotiation: { mode } });
  client.onerror = (e) => console.log('onerror', String(e));
  await client.connect(transport, { timeout: 5000 });
  console.log(JSON.stringify(mode), client.getNegotiatedProtocolVersion(), !!client.getDiscoverResult());
  const ac = new AbortController(); let n = 0;
  await client.callTool({ name: 'slow_count', arguments: { to: 50, step_ms: 20 } }, { signal: ac.signal, onprogress: () => { if (++n === 3) ac.abort('x'); } }).catch(e => console.log('rejected', String(e)));
  await sleep(200);
  const r = await client.readResource({ uri: 'demo://server/stats' }, { cacheMode: 'bypass' });
  console.log(r.contents[0].text);
  for (const m of wire.sent) console.log('>', JSON.stringify(m).slice(0, 250));
  for (const m of wire.received) console.log('<', JSON.stringify(m).slice(0, 250));
  await client.close();
}
