// End-to-end: the demo's MCP App for word_stats, rendered as a host renders it. The official SDK v1
// client, declaring io.modelcontextprotocol/ui, finds the tool's view through _meta.ui.resourceUri,
// reads the ui:// resource and calls the tool over Streamable HTTP. A host page in headless Chromium
// (Debian's /usr/bin/chromium, driven by playwright-core; never a browser of its own) loads the view
// in a sandboxed iframe under the spec's restrictive default CSP, answers ui/initialize and sends it
// the tool's input and result. The rendering is checked in the view's DOM and in a screenshot (the
// bars' pixels), which is kept: $MCP_E2E_ARTIFACTS/word_stats_app.png.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/apps_chromium.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium } from 'playwright-core';

import { decodePng, HttpDemo, waitUntil } from './helpers.mjs';

const REQUEST = { timeout: 15_000 };
const TEST = { timeout: 90_000 };
const APP_MIME = 'text/html;profile=mcp-app';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARTIFACTS = process.env.MCP_E2E_ARTIFACTS || join(tmpdir(), 'mcp-cpp-e2e-artifacts');
// The bars' colour in the view (examples/demo/word_stats_app.cpp: --bar).
const BAR = [0x3b, 0x6f, 0xd8];
const TEXT = 'the cat saw the dog and the dog saw the cat\nthe end';

// What a host's sandbox applies when the view declares no CSP (MCP Apps, "Restrictive Default").
const DEFAULT_CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
    "img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

// A value inside an inline <script>: JSON that cannot close the script element.
const inline = (value) => JSON.stringify(value).replace(/</g, '\\u003c');

// The host: a sandboxed iframe (scripts only, an opaque origin), the MCP Apps handshake, then the
// tool's input and result as notifications. Every message from the view is kept in window.hostLog.
function hostPage(viewHtml, toolInput, toolResult) {
    const guarded = viewHtml.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${DEFAULT_CSP}">`);
    return `<!DOCTYPE html><html><head><meta charset="utf-8"></head>
<body style="margin:0;background:#ffffff">
<iframe id="view" sandbox="allow-scripts" style="border:0;width:640px;height:420px"></iframe>
<script>
const view = document.getElementById('view');
const input = ${inline(toolInput)};
const result = ${inline(toolResult)};
window.hostLog = [];
const post = (message) => view.contentWindow.postMessage(message, '*');
window.addEventListener('message', (event) => {
  if (event.source !== view.contentWindow) return;
  const m = event.data;
  window.hostLog.push(m);
  if (m.method === 'ui/initialize' && m.id !== undefined) {
    post({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2026-01-26', hostCapabilities: {},
      hostInfo: { name: 'mcp-cpp-e2e-host', version: '1.0.0' },
      hostContext: { theme: 'light', displayMode: 'inline', containerDimensions: { width: 640, maxHeight: 420 } } } });
  } else if (m.method === 'ui/notifications/initialized') {
    post({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: input } });
    post({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: result });
  }
});
view.srcdoc = ${inline(guarded)};
</script>
</body></html>`;
}

describe('MCP Apps: the word_stats view in headless Chromium', () => {
    let demo;
    let client;
    let browser;

    before(async () => {
        assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: scripts/install-deps.sh --test installs Debian's chromium`);
        demo = await HttpDemo.start();
        client = new Client({ name: 'mcp-cpp-e2e-apps', version: '1.0.0' },
            { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME] } } } });
        await client.connect(new StreamableHTTPClientTransport(new URL(demo.url)), REQUEST);
        browser = await chromium.launch({
            executablePath: CHROMIUM,
            headless: true,
            args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
                '--disable-component-update', '--disable-sync'],
            timeout: 60_000,
        });
    });

    after(async () => {
        await browser?.close();
        await client?.close();
        await demo?.close();
    });

    test('the extension is declared and the tool points to an app resource', TEST, async () => {
        assert.deepEqual(client.getServerCapabilities().extensions?.['io.modelcontextprotocol/ui'], {});
        const { tools } = await client.listTools({}, REQUEST);
        const tool = tools.find((t) => t.name === 'word_stats');
        assert.deepEqual(tool._meta, { ui: { resourceUri: 'ui://mcp-cpp-demo/word-stats', visibility: ['model', 'app'] } });
        const { resources } = await client.listResources({}, REQUEST);
        const listed = resources.find((r) => r.uri === tool._meta.ui.resourceUri);
        assert.equal(listed?.mimeType, APP_MIME);
        const { contents } = await client.readResource({ uri: tool._meta.ui.resourceUri }, REQUEST);
        assert.equal(contents.length, 1);
        assert.equal(contents[0].mimeType, APP_MIME);
        assert.match(contents[0].text, /^<!DOCTYPE html>/);
        assert.deepEqual(contents[0]._meta, { ui: { prefersBorder: true } });
    });

    test('the view renders the structured result the tool returned, and the screenshot shows it', TEST, async () => {
        const { tools } = await client.listTools({}, REQUEST);
        const uri = tools.find((t) => t.name === 'word_stats')._meta.ui.resourceUri;
        const html = (await client.readResource({ uri }, REQUEST)).contents[0].text;
        const input = { text: TEXT, top: 4 };
        const result = await client.callTool({ name: 'word_stats', arguments: input }, undefined, REQUEST);
        // Hosts without apps read the same data as text.
        assert.equal(result.isError, undefined);
        assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
        const stats = result.structuredContent;
        assert.equal(stats.words, 13);
        assert.deepEqual(stats.top_words[0], { word: 'the', count: 5 });

        const page = await browser.newPage({ viewport: { width: 640, height: 420 } });
        try {
            const blocked = [];
            page.on('request', (r) => { if (!r.url().startsWith('data:') && !r.url().startsWith('about:')) blocked.push(r.url()); });
            await page.setContent(hostPage(html, input, result));
            const frame = await waitUntil(() => page.frames().find((f) => f !== page.mainFrame()), 10_000, 'the view frame');
            await frame.waitForSelector('#top .row', { timeout: 20_000 });

            // The DOM holds exactly the tool's data.
            const shown = await frame.evaluate(() => ({
                totals: ['words', 'characters', 'lines'].map((id) => Number(document.getElementById(id).textContent)),
                rows: [...document.querySelectorAll('#top .row')].map((row) => ({
                    word: row.querySelector('.word').textContent,
                    count: Number(row.querySelector('.count').textContent),
                    width: row.querySelector('.bar').getBoundingClientRect().width,
                })),
            }));
            assert.deepEqual(shown.totals, [stats.words, stats.characters, stats.lines]);
            assert.deepEqual(shown.rows.map(({ word, count }) => ({ word, count })), stats.top_words);
            assert.ok(shown.rows[0].width > shown.rows.at(-1).width, 'bars are scaled to the counts');

            // The handshake went as the spec says, and the view reported its size once rendered.
            const log = await page.evaluate(() => window.hostLog);
            assert.equal(log[0].method, 'ui/initialize');
            assert.equal(log[0].params.appInfo.name, 'mcp-cpp-demo word_stats');
            assert.ok(log.some((m) => m.method === 'ui/notifications/initialized'));
            assert.ok(log.some((m) => m.method === 'ui/notifications/size-changed' && m.params.height > 0));
            assert.deepEqual(blocked, [], 'the view fetched nothing');

            mkdirSync(ARTIFACTS, { recursive: true });
            const file = join(ARTIFACTS, 'word_stats_app.png');
            const png = await page.locator('#view').screenshot();
            writeFileSync(file, png);
            console.log(`screenshot: ${file}`);
            const image = decodePng(png);
            let bar = 0;
            const colours = new Set();
            for (let y = 0; y < image.height; ++y) {
                for (let x = 0; x < image.width; ++x) {
                    const [r, g, b] = image.pixel(x, y);
                    colours.add((r << 16) | (g << 8) | b);
                    if (Math.abs(r - BAR[0]) <= 2 && Math.abs(g - BAR[1]) <= 2 && Math.abs(b - BAR[2]) <= 2) ++bar;
                }
            }
            // Four bars of 16 px: the top word's alone spans hundreds of pixels.
            assert.ok(bar > 2000, `bar pixels in the screenshot: ${bar}`);
            assert.ok(colours.size > 20, `distinct colours in the screenshot: ${colours.size} (a blank page has 1)`);
        } finally {
            await page.close();
        }
    });

    test('an error result is shown as text, never as HTML', TEST, async () => {
        const { tools } = await client.listTools({}, REQUEST);
        const uri = tools.find((t) => t.name === 'word_stats')._meta.ui.resourceUri;
        const html = (await client.readResource({ uri }, REQUEST)).contents[0].text;
        const hostile = { isError: true, content: [{ type: 'text', text: '<img src=x onerror="document.title=1">bad' }] };
        const page = await browser.newPage();
        try {
            await page.setContent(hostPage(html, {}, hostile));
            const frame = await waitUntil(() => page.frames().find((f) => f !== page.mainFrame()), 10_000, 'the view frame');
            await frame.waitForFunction(() => document.getElementById('status').textContent.startsWith('No statistics'),
                undefined, { timeout: 20_000 });
            const status = await frame.evaluate(() => document.getElementById('status').textContent);
            assert.match(status, /<img src=x/);
            assert.equal(await frame.evaluate(() => document.querySelectorAll('img').length), 0);
        } finally {
            await page.close();
        }
    });
});
