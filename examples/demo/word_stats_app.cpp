#include "word_stats_app.hpp"

namespace demo {

// Self-contained (the host's default CSP allows inline scripts and styles, nothing from outside).
// It speaks the MCP Apps postMessage protocol by hand: ui/initialize, then
// ui/notifications/initialized; it renders each ui/notifications/tool-result with textContent
// only, so nothing in the data is ever parsed as HTML.
const char* const kWordStatsApp = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Word statistics</title>
<style>
  :root { color-scheme: light dark; --bar: #3b6fd8; }
  body { margin: 0; padding: 16px; font-family: var(--font-sans, system-ui, sans-serif);
         background: var(--color-background-primary, #ffffff); color: var(--color-text-primary, #171717); }
  h1 { font-size: 18px; margin: 0 0 12px; }
  #status { color: var(--color-text-secondary, #5f5f5f); }
  .totals { display: flex; gap: 12px; margin-bottom: 16px; }
  .total { border: 1px solid var(--color-border-primary, #d4d4d4); border-radius: 8px; padding: 8px 14px; min-width: 5em; }
  .total b { display: block; font-size: 24px; }
  .row { display: grid; grid-template-columns: 9em 1fr 3em; align-items: center; gap: 8px; margin: 6px 0; }
  .word { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .bar { background: var(--bar); height: 16px; border-radius: 3px; }
  .count { text-align: right; font-variant-numeric: tabular-nums; }
</style>
</head>
<body>
<h1>Word statistics</h1>
<p id="status">Waiting for the result of word_stats…</p>
<div class="totals" id="totals" hidden>
  <div class="total"><b id="words">0</b>words</div>
  <div class="total"><b id="characters">0</b>characters</div>
  <div class="total"><b id="lines">0</b>lines</div>
</div>
<div id="top"></div>
<script>
(() => {
  const status = document.getElementById('status');
  let nextId = 1;
  const pending = new Map();
  const send = (message) => window.parent.postMessage(message, '*');
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ jsonrpc: '2.0', id, method, params });
  });
  const notify = (method, params) => send({ jsonrpc: '2.0', method, params });

  function reportSize() {
    const { width, height } = document.documentElement.getBoundingClientRect();
    notify('ui/notifications/size-changed', { width: Math.ceil(width), height: Math.ceil(height) });
  }

  function applyContext(context) {
    const variables = context && context.styles && context.styles.variables;
    if (variables) for (const [name, value] of Object.entries(variables)) {
      if (typeof value === 'string') document.documentElement.style.setProperty(name, value);
    }
  }

  function render(result) {
    const stats = result && result.structuredContent;
    if (!result || result.isError || !stats || !Array.isArray(stats.top_words)) {
      const text = result && Array.isArray(result.content) && result.content[0] && result.content[0].text;
      status.textContent = 'No statistics: ' + (text || 'the tool returned no structured result');
      return;
    }
    status.textContent = 'Most frequent words';
    for (const key of ['words', 'characters', 'lines']) document.getElementById(key).textContent = String(stats[key]);
    document.getElementById('totals').hidden = false;
    const top = document.getElementById('top');
    top.replaceChildren();
    const most = Math.max(1, ...stats.top_words.map((w) => w.count));
    for (const { word, count } of stats.top_words) {
      const row = document.createElement('div');
      row.className = 'row';
      const label = document.createElement('span');
      label.className = 'word';
      label.textContent = word;
      const bar = document.createElement('div');
      bar.className = 'bar';
      bar.style.width = (100 * count / most) + '%';
      const n = document.createElement('span');
      n.className = 'count';
      n.textContent = String(count);
      row.append(label, bar, n);
      top.append(row);
    }
    reportSize();
  }

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.method === undefined && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(message.error.message)); else resolve(message.result);
    } else if (message.method === 'ui/notifications/tool-result') {
      render(message.params);
    } else if (message.method === 'ui/notifications/host-context-changed') {
      applyContext(message.params);
    } else if (message.method === 'ui/resource-teardown' && message.id !== undefined) {
      send({ jsonrpc: '2.0', id: message.id, result: {} });
    }
  });

  request('ui/initialize', {
    appCapabilities: {},
    appInfo: { name: 'mcp-cpp-demo word_stats', version: '0.1.0' },
    protocolVersion: '2026-01-26',
  }).then((result) => {
    applyContext(result && result.hostContext);
    notify('ui/notifications/initialized', {});
    reportSize();
  }, (error) => { status.textContent = 'The host refused the view: ' + error.message; });
})();
</script>
</body>
</html>
)html";

}  // namespace demo
