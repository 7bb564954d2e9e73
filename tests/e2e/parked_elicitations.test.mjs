// End-to-end, at scale: 1000 tool calls parked in elicitation at once on the 2025-11-25 wire over
// Streamable HTTP — 1000 open POST SSE streams, each holding an elicitation/create nobody answers
// yet. The demo's delete_note is replayable (docs/adr/0015-parked-calls.md): a parked call holds no
// handler thread. While they wait, other calls are served promptly; the server's memory per parked
// call is measured (VmRSS); once all are answered every call completes and memory comes back down.
// Then the same with clients that hang up once asked (answered later, results fetched by resuming
// each stream with Last-Event-ID), and a session deleted while 1000 calls wait in it. Raw HTTP
// through node:http, no SDK.
//   MCP_CPP_DEMO=build/examples/demo/mcp-cpp-demo node --test tests/e2e/parked_elicitations.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';

import { HttpDemo, SCALE, parseSse, sleep, waitUntil, withTimeout } from './helpers.mjs';

const PARKED = 1000;
const VERSION = '2025-11-25';

// Enough sockets for every parked stream plus the calls made while they wait.
const agent = new http.Agent({ keepAlive: true, maxSockets: PARKED + 200, maxFreeSockets: 64 });

function procStatus(pid) {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1]);
    return { rssKiB: field('VmRSS'), threads: field('Threads') };
}

// One POST whose response is read as it arrives: JSON or SSE. `messages` grows with every
// JSON-RPC message; `ended` is set when the body is complete. All waits are bounded.
class Exchange {
    constructor(url, message, headers, timeoutMs) {
        this.messages = [];
        this.events = [];
        this.text = '';
        this.status = undefined;
        this.contentType = undefined;
        this.ended = false;
        this.error = undefined;
        this.waiters = new Set();
        const body = JSON.stringify(message);
        const req = http.request(url, {
            method: 'POST',
            agent,
            headers: {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                'content-length': Buffer.byteLength(body),
                ...headers,
            },
            timeout: timeoutMs,
        });
        this.req = req;
        req.on('timeout', () => req.destroy(new Error(`no activity for ${timeoutMs} ms`)));
        req.on('error', (e) => {
            this.error = e;
            this.ended = true;
            this.#wake();
        });
        req.on('response', (res) => {
            this.status = res.statusCode;
            this.headers = res.headers;
            this.contentType = (res.headers['content-type'] ?? '').split(';')[0].trim();
            res.setEncoding('utf8');
            res.on('data', (chunk) => {
                this.text += chunk;
                this.#parse(false);
                this.#wake();
            });
            res.on('end', () => {
                this.#parse(true);
                this.ended = true;
                this.#wake();
            });
            res.on('error', (e) => {
                this.error = e;
                this.ended = true;
                this.#wake();
            });
            this.#wake();
        });
        req.end(body);
    }

    #parse(complete) {
        if (this.contentType === 'text/event-stream') {
            this.events = parseSse(this.text, { complete }).filter((e) => e.data);
            this.messages = this.events.map((e) => JSON.parse(e.data));
        } else if (this.contentType === 'application/json' && complete && this.text) {
            this.messages = [JSON.parse(this.text)];
        }
    }

    #wake() {
        for (const w of [...this.waiters]) w();
    }

    // Resolves with the first message satisfying pred; fails at the end of the body or after timeoutMs.
    until(pred, timeoutMs, what) {
        return new Promise((resolve, reject) => {
            const check = () => {
                const m = this.messages.find(pred);
                if (m) {
                    done();
                    resolve(m);
                } else if (this.ended) {
                    done();
                    reject(new Error(`the response ended (${this.status} ${this.error?.message ?? ''}) before ${what}: ${this.text.slice(-500)}`));
                }
            };
            const timer = setTimeout(() => {
                done();
                reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${this.text.slice(-500)}`));
            }, timeoutMs);
            const done = () => {
                clearTimeout(timer);
                this.waiters.delete(check);
            };
            this.waiters.add(check);
            check();
        });
    }

    finished(timeoutMs, what) {
        return withTimeout(new Promise((resolve) => {
            const check = () => {
                if (this.ended) {
                    this.waiters.delete(check);
                    resolve(this);
                }
            };
            this.waiters.add(check);
            check();
        }), timeoutMs, what);
    }

    abort() {
        this.req.destroy();
    }
}

describe(`${PARKED} tool calls parked in elicitation (2025-11-25, Streamable HTTP)`, { timeout: 180_000 }, () => {
    let srv;
    let sessionId;
    let nextId = 0;
    const open = [];
    before(async () => {
        // One client holds every parked call's connection: more than a client's share by default.
        srv = await HttpDemo.start(['--handler-idle-timeout', '1s', '--elicitation-timeout', '2m',
            '--max-connections-per-client', String(2 * PARKED)]);
    });
    after(async () => {
        for (const x of open) x.abort();
        await srv?.close();
        agent.destroy();
    });

    const headers = () => ({ 'mcp-protocol-version': VERSION, 'mcp-session-id': sessionId });
    const post = (message, timeoutMs = 30_000) => {
        const x = new Exchange(srv.url, message, sessionId ? headers() : { 'mcp-protocol-version': VERSION }, timeoutMs);
        open.push(x);
        return x;
    };
    // A request and its response, in full.
    const call = async (method, params, timeoutMs = 10_000) => {
        const id = `c${++nextId}`;
        const x = post({ jsonrpc: '2.0', id, method, params });
        const response = await x.until((m) => m.id === id && ('result' in m || 'error' in m), timeoutMs, `the response to ${method}`);
        await x.finished(timeoutMs, `the end of the ${method} response`);
        return response;
    };

    // Opens PARKED delete_note calls and waits until every one is parked in its elicitation.
    async function park(slugs, tag) {
        const started = Date.now();
        const streams = slugs.map((slug, i) => {
            const id = `${tag}-${i}`;
            const x = post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'delete_note', arguments: { slug } } }, 90_000);
            return { id, slug, x };
        });
        const requests = await Promise.all(streams.map((s) => s.x.until((m) => m.method === 'elicitation/create', 40_000, `the elicitation of ${s.slug}`)));
        for (const s of streams) s.eventId = s.x.events.find((e) => JSON.parse(e.data).method === 'elicitation/create').id;
        for (const [i, r] of requests.entries()) {
            assert.equal(typeof r.id, 'string');
            assert.match(r.params.message, new RegExp(`"${streams[i].slug}"`), 'each stream carries the question about its own note');
        }
        assert.equal(new Set(requests.map((r) => r.id)).size, slugs.length, 'every request id is distinct');
        assert.equal(streams.filter((s) => s.x.status === 200 && s.x.contentType === 'text/event-stream').length, slugs.length,
            'every call is an open SSE stream');
        assert.equal(streams.filter((s) => s.x.ended).length, 0, 'none has ended');
        return { streams, requests, ms: Date.now() - started };
    }

    // Declines every parked call (a POSTed JSON-RPC response each: 202) and checks each completes.
    async function answerAll({ streams, requests }) {
        const started = Date.now();
        for (let i = 0; i < requests.length; i += 100) {
            const answers = requests.slice(i, i + 100).map((r) => post({ jsonrpc: '2.0', id: r.id, result: { action: 'decline' } }));
            await Promise.all(answers.map((a) => a.finished(20_000, 'an answer to be accepted')));
            for (const a of answers) assert.equal(a.status, 202, a.text);
        }
        const results = await Promise.all(streams.map((s) => s.x.until((m) => m.id === s.id && ('result' in m || 'error' in m), 30_000, `the result of ${s.slug}`)));
        await Promise.all(streams.map((s) => s.x.finished(10_000, `the end of the stream of ${s.slug}`)));
        results.forEach((r, i) => assert.equal(r.result?.content?.[0]?.text, `Kept ${streams[i].slug}`, JSON.stringify(r)));
        return Date.now() - started;
    }

    // Waits for the extra handler threads to exit (idle timeout 1 s) and returns /proc status.
    async function settle(base, what) {
        await waitUntil(() => procStatus(srv.child.pid).threads <= base.threads + 2, 15_000,
            `the thread count to return near ${base.threads} ${what} (now ${procStatus(srv.child.pid).threads})`);
        await sleep(300);
        return procStatus(srv.child.pid);
    }

    // Resumes a 2025 POST stream after `eventId`; resolves with the response to `id` it carries.
    const resume = (eventId, id) => new Promise((resolve, reject) => {
        const req = http.request(srv.url, {
            method: 'GET',
            agent,
            timeout: 20_000,
            headers: { ...headers(), accept: 'text/event-stream', 'last-event-id': eventId },
        }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c) => {
                text += c;
                const found = parseSse(text).filter((e) => e.data).map((e) => JSON.parse(e.data)).find((m) => m.id === id);
                if (found) {
                    req.destroy();
                    resolve(found);
                }
            });
            res.on('end', () => reject(new Error(`the resumed stream ended without the response to ${id}: ${res.statusCode} ${text.slice(0, 300)}`)));
        });
        req.on('timeout', () => req.destroy(new Error(`resuming ${id}: no response in time`)));
        req.on('error', reject);
        req.end();
    });

    const stats = async () => JSON.parse((await call('resources/read', { uri: 'demo://server/stats' })).result.contents[0].text);

    test('park, stay responsive, measure, answer, recover (twice); hang up and resume; delete the session', { timeout: 170_000 }, async () => {
        const testStarted = Date.now();
        // A session whose client can answer forms.
        const init = post({
            jsonrpc: '2.0',
            id: 'init',
            method: 'initialize',
            params: { protocolVersion: VERSION, capabilities: { elicitation: {} }, clientInfo: { name: 'mcp-cpp-e2e-parked', version: '1.0.0' } },
        });
        const initResult = await init.until((m) => m.id === 'init', 10_000, 'the initialize result');
        assert.ok(initResult.result, JSON.stringify(initResult));
        sessionId = init.headers['mcp-session-id'];
        assert.ok(sessionId, 'a session id');
        const initialized = post({ jsonrpc: '2.0', method: 'notifications/initialized' });
        await initialized.finished(10_000, 'notifications/initialized');
        assert.equal(initialized.status, 202);

        // delete_note asks only about notes that exist: create one per call, 50 at a time.
        const slugs = Array.from({ length: PARKED }, (_, i) => `parked-${i}`);
        for (let i = 0; i < slugs.length; i += 50) {
            const batch = await Promise.all(slugs.slice(i, i + 50).map((slug) => call('tools/call', { name: 'add_note', arguments: { slug, body: `# ${slug}` } })));
            for (const r of batch) assert.ok(r.result && !r.result.isError, JSON.stringify(r));
        }
        assert.equal((await stats()).notes, PARKED + 2);

        // Baseline once the pool is back to its core threads.
        await sleep(1500);
        const base = procStatus(srv.child.pid);

        // ---- Cycle 1: park them all.
        const first = await park(slugs, 'one');
        // While all are parked, other calls are served promptly.
        const latencies = [];
        for (let i = 0; i < 20; ++i) {
            const t0 = Date.now();
            const r = await call('tools/call', { name: 'echo', arguments: { text: `ping ${i}` } }, 5000);
            latencies.push(Date.now() - t0);
            assert.equal(r.result?.content?.[0]?.text, `ping ${i}`);
        }
        const echoes = await Promise.all(Array.from({ length: 20 }, (_, i) => call('tools/call', { name: 'echo', arguments: { text: `burst ${i}` } }, 5000)));
        echoes.forEach((r, i) => assert.equal(r.result?.content?.[0]?.text, `burst ${i}`));
        const maxLatency = Math.max(...latencies);
        assert.ok(maxLatency < 1000, `echo latencies while parked: max ${maxLatency} ms`);
        assert.equal((await stats()).notes, PARKED + 2, 'stats readable while parked');

        // A burst of calls may grow the pool for a moment; while they wait, the extra threads exit
        // (--handler-idle-timeout 1s): a parked call holds none. The deadline queue's thread starts
        // with the first parked call.
        const parked = await settle(base, `while ${PARKED} calls are parked`);
        const grown = parked.rssKiB - base.rssKiB;
        const perCallKiB = Math.round(grown / PARKED);
        console.log(`parked ${PARKED} calls in ${first.ms} ms; echo latency while parked: max ${maxLatency} ms, ` +
            `median ${latencies.sort((a, b) => a - b)[latencies.length >> 1]} ms`);
        console.log(`VmRSS ${base.rssKiB} KiB → ${parked.rssKiB} KiB parked; threads ${base.threads} → ${parked.threads}`);
        console.log(`RSS per parked call: ${perCallKiB} KiB`);
        assert.ok(perCallKiB < 64 * SCALE, `RSS per parked call ${perCallKiB} KiB with its connection open (bound ${64 * SCALE} KiB)`);
        // Serving others answered none of the parked calls.
        assert.equal(first.streams.filter((s) => s.x.ended).length, 0, 'no parked call ended while others were served');

        console.log(`answered and completed ${PARKED} calls in ${await answerAll(first)} ms`);
        assert.equal((await stats()).notes, PARKED + 2, 'declined: every note kept');
        const end1 = await settle(base, 'after cycle 1');
        console.log(`after cycle 1: VmRSS ${end1.rssKiB} KiB (${end1.rssKiB - base.rssKiB} KiB above the baseline); threads ${end1.threads}`);

        // ---- Cycle 2: the same again; what cycle 1 left must be reused, not added to.
        const second = await park(slugs, 'two');
        assert.ok(!second.requests.some((r) => first.requests.some((q) => q.id === r.id)), 'fresh request ids');
        const parked2 = procStatus(srv.child.pid);
        await answerAll(second);
        const end2 = await settle(base, 'after cycle 2');
        console.log(`cycle 2: VmRSS ${parked2.rssKiB} KiB parked, ${end2.rssKiB} KiB after; threads ${parked2.threads} → ${end2.threads}`);

        // A second cycle leaves no more behind than the first: what the allocator kept from cycle 1
        // is reused, nothing accumulates per parked call.
        assert.ok(end2.rssKiB - end1.rssKiB <= Math.max(grown / 5, 4096),
            `a second cycle left ${end2.rssKiB - end1.rssKiB} KiB more than the first (bound: 20% of the ${grown} KiB growth)`);

        // Nothing is left parked: a new call elicits afresh and completes on its answer.
        const id = 'after';
        const x = post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'delete_note', arguments: { slug: 'parked-0' } } });
        const q = await x.until((m) => m.method === 'elicitation/create', 10_000, 'a fresh elicitation');
        const ack = post({ jsonrpc: '2.0', id: q.id, result: { action: 'accept', content: { confirm: true } } });
        await ack.finished(10_000, 'the answer');
        assert.equal(ack.status, 202);
        const done = await x.until((m) => m.id === id && 'result' in m, 10_000, 'the result');
        assert.equal(done.result.content[0].text, 'Deleted parked-0');
        // The old ids are spent: answering one again changes nothing.
        const stale = post({ jsonrpc: '2.0', id: first.requests[1].id, result: { action: 'accept', content: { confirm: true } } });
        await stale.finished(10_000, 'a stale answer');
        assert.equal(stale.status, 202);
        await sleep(200);
        assert.equal((await stats()).notes, PARKED + 1, 'only parked-0 was deleted');

        // ---- Cycle 3: the clients hang up once asked; the answers come later, and each result is
        // fetched by resuming its stream (GET with Last-Event-ID).
        const rest = slugs.slice(1);  // parked-0 is deleted
        const third = await park(rest, 'three');
        for (const s of third.streams) s.x.abort();
        await sleep(500);
        const detached = await settle(base, 'while the calls are parked and their clients gone');
        console.log(`detached: VmRSS ${detached.rssKiB} KiB (${Math.round((detached.rssKiB - base.rssKiB) / PARKED)} KiB ` +
            `per parked call above the baseline), threads ${detached.threads}`);
        // Answered 50 at a time, each batch's results fetched next: a session keeps its 64 most
        // recent finished streams for a resume.
        for (let i = 0; i < third.requests.length; i += 50) {
            const answers = third.requests.slice(i, i + 50).map((r) => post({ jsonrpc: '2.0', id: r.id, result: { action: 'decline' } }));
            await Promise.all(answers.map((a) => a.finished(20_000, 'an answer to be accepted')));
            for (const a of answers) assert.equal(a.status, 202, a.text);
            const batch = third.streams.slice(i, i + 50);
            const results = await Promise.all(batch.map((s) => resume(s.eventId, s.id)));
            results.forEach((r, j) => assert.equal(r.result?.content?.[0]?.text, `Kept ${batch[j].slug}`, JSON.stringify(r)));
        }

        // ---- Cycle 4: the session is deleted while 1000 calls wait in it: every stream ends, no
        // call runs again, and the server goes on serving.
        const fourth = await park(rest, 'four');
        const del = await new Promise((resolve, reject) => {
            const req = http.request(srv.url, { method: 'DELETE', agent, headers: headers() }, (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode));
            });
            req.on('error', reject);
            req.end();
        });
        assert.equal(del, 200);
        await Promise.all(fourth.streams.map((s) => s.x.finished(20_000, `the end of ${s.slug}'s stream after DELETE`)));
        assert.equal(fourth.streams.filter((s) => s.x.messages.some((m) => m.id === s.id)).length, 0, 'no parked call answered');

        const last = procStatus(srv.child.pid);
        console.log(`finally: VmRSS ${last.rssKiB} KiB, threads ${last.threads}; whole test ${Date.now() - testStarted} ms`);
        assert.equal(srv.exitInfo, undefined, 'the server is still running');
    });
});
