// The soak's mixed load: each scenario is what a client does from start to end, on a session of
// its own where it needs one (created and, most of the time, deleted), every reply checked. A
// wrong reply throws; the driver counts it. On two nodes the 2025 client switches node on every
// request (tests/e2e/cluster.mjs RoundRobinSession), as a load balancer without sticky sessions.
import { modernCall, responseOf, RoundRobinSession } from '../../tests/e2e/cluster.mjs';
import { modernHeaders, modernRequest, SseReader } from '../../tests/e2e/helpers.mjs';

const ELICITING = { elicitation: { form: {} } };
// Notes the load writes: a fixed set, so the demo's own data does not grow with the run.
const NOTE_SLUGS = Array.from({ length: 8 }, (_, i) => `soak-${i}`);

class WrongReply extends Error {}

function expect(condition, what, detail) {
    if (!condition) throw new WrongReply(`${what}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`.slice(0, 600));
}

function textOf(message, what) {
    expect(message && !message.error && message.result?.content?.[0]?.type === 'text', what, message);
    return message.result.content[0].text;
}

const progressOf = (messages) => messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress);
const pick = (list) => list[Math.floor(Math.random() * list.length)];

// A 2025 session of its own on `nodes`; `fn` runs with it; it is deleted afterwards unless the
// scenario leaves it to expire ({ keep: true }).
async function withSession(nodes, capabilities, fn, { keep = false } = {}) {
    const s = new RoundRobinSession(nodes, { capabilities, clientName: 'mcp-cpp-soak' });
    s.cursor = Math.floor(Math.random() * nodes.length);
    try {
        await s.initialize();
        await fn(s);
        if (!keep) {
            const del = await s.delete();
            expect(del.status >= 200 && del.status < 300, 'DELETE', `${del.status} ${del.text}`);
        }
    } finally {
        s.close();
    }
}

// Reads an SSE stream to its end (bounded): the JSON-RPC messages it carried.
async function readAll(reader, timeoutMs) {
    await reader.rest(timeoutMs);
    return reader.events.filter((e) => e.data).map((e) => JSON.parse(e.data));
}

export const scenarios = {
    // 2026-07-28: a subscriptions/listen stream for one note (on two nodes, not on the node where
    // the note changes half the time): acknowledged, then told of the change; the client leaves.
    async listen(nodes) {
        const slug = pick(NOTE_SLUGS);
        const uri = `demo://notes/${slug}`;
        const message = modernRequest('listen', 'subscriptions/listen', { notifications: { resourceSubscriptions: [uri] } });
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), 20_000);
        try {
            const res = await fetch(pick(nodes).url, {
                method: 'POST', headers: modernHeaders(message), body: JSON.stringify(message), signal: controller.signal,
            });
            expect(res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('text/event-stream'), 'listen stream', res.status);
            const reader = new SseReader(res);
            const { message: ack } = await reader.next(() => true, 10_000, 'the acknowledgement');
            expect(ack.method === 'notifications/subscriptions/acknowledged', 'the acknowledgement', ack);
            const add = await modernCall(pick(nodes).url, 'add', 'tools/call', { name: 'add_note', arguments: { slug, body: `soak ${Math.random()}` } });
            expect(add.status === 200, 'add_note', add.text);
            await reader.next((m) => m.method === 'notifications/resources/updated' && m.params.uri === uri, 10_000, 'the update');
        } finally {
            clearTimeout(timer);
            controller.abort();
        }
    },

    // 2026-07-28: stateless calls, a list, a read, and a form answered through a second round
    // (requestState), each on any node.
    async modern(nodes) {
        const text = `soak ${Math.random()}`;
        const echo = await modernCall(pick(nodes).url, 'echo', 'tools/call', { name: 'echo', arguments: { text } });
        expect(echo.status === 200 && textOf(echo.message, '2026 echo') === text, '2026 echo', echo.text);
        const list = await modernCall(pick(nodes).url, 'list', 'tools/list');
        expect(list.status === 200 && list.message?.result?.tools?.some((t) => t.name === 'slow_count'), '2026 tools/list', list.text);
        const read = await modernCall(pick(nodes).url, 'read', 'resources/read', { uri: 'demo://notes/welcome' });
        expect(read.status === 200 && read.message?.result?.contents?.[0]?.text?.startsWith('# Welcome'), '2026 resources/read', read.text);
        const params = { name: 'delete_note', arguments: { slug: 'welcome' } };
        const ask = await modernCall(pick(nodes).url, 'ask', 'tools/call', params, { caps: ELICITING });
        expect(ask.message?.result?.resultType === 'input_required', '2026 input_required', ask.text);
        const done = await modernCall(pick(nodes).url, 'answer', 'tools/call', {
            ...params,
            inputResponses: { confirm_delete: { action: 'accept', content: { confirm: false } } },
            requestState: ask.message.result.requestState,
        }, { caps: ELICITING });
        expect(textOf(done.message, '2026 retry') === 'Kept welcome', '2026 retry', done.text);
    },

    // A 2025 session created, used (a call, a level, the lists) and deleted; one in five is left
    // to expire instead.
    async session(nodes) {
        await withSession(nodes, {}, async (s) => {
            const text = `soak ${Math.random()}`;
            const echo = await s.request('tools/call', { name: 'echo', arguments: { text } });
            expect(echo.status === 200 && textOf(echo.message, '2025 echo') === text, '2025 echo', echo.text);
            const level = await s.request('logging/setLevel', { level: pick(['debug', 'info', 'error']) });
            expect(level.status === 200 && level.message?.result, 'logging/setLevel', level.text);
            const list = await s.request('prompts/list', {});
            expect(list.status === 200 && list.message?.result?.prompts?.length >= 2, 'prompts/list', list.text);
        }, { keep: Math.random() < 0.2 });
    },

    // An elicitation answered through another node (on two nodes), the call finishing with it.
    async elicitAnswered(nodes) {
        await withSession(nodes, ELICITING, async (s) => {
            const call = await s.stream('tools/call', { name: 'delete_note', arguments: { slug: 'welcome' } });
            expect(call.status === 200, 'delete_note stream', call.status);
            const { message: question } = await call.reader.next((m) => m.method === 'elicitation/create', 10_000, 'elicitation/create');
            const sent = await s.send({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: false } } });
            expect(sent.status === 202, 'the answer', `${sent.status} ${sent.text}`);
            const { message } = await call.reader.next((m) => m.id === call.id && !('method' in m), 10_000, 'the result');
            expect(textOf(message, 'answered delete_note') === 'Kept welcome', 'answered delete_note', message);
        });
    },

    // An elicitation nobody answers: the client goes away; half the time it deletes the session
    // (which releases the handler), otherwise the handler waits for --elicitation-timeout.
    async elicitAbandoned(nodes) {
        const leave = Math.random() < 0.5;
        await withSession(nodes, ELICITING, async (s) => {
            const call = await s.stream('tools/call', { name: 'delete_note', arguments: { slug: 'welcome' } });
            expect(call.status === 200, 'delete_note stream', call.status);
            await call.reader.next((m) => m.method === 'elicitation/create', 10_000, 'elicitation/create');
            call.abort();
        }, { keep: leave });
    },

    // A POST stream cut after two steps and resumed with Last-Event-ID (on the other node when
    // there are two): the steps after the cut, once each, then the result.
    async resume(nodes) {
        await withSession(nodes, {}, async (s) => {
            const call = await s.stream('tools/call', { name: 'slow_count', arguments: { to: 6, step_ms: 40 }, _meta: { progressToken: 'cut' } });
            expect(call.status === 200, 'slow_count stream', call.status);
            await call.reader.next((m) => m.method === 'notifications/progress' && m.params.progress === 2, 10_000, 'progress 2');
            const lastId = call.reader.events.slice(0, call.reader.consumed).filter((e) => e.id).at(-1)?.id;
            expect(lastId, 'an event id on the stream', call.reader.text.slice(0, 300));
            call.abort();
            const resumed = await s.get({ lastEventId: lastId });
            expect(resumed.status === 200, 'GET with Last-Event-ID', `${resumed.status} ${resumed.text}`);
            const messages = await readAll(resumed.reader, 10_000);
            expect(JSON.stringify(progressOf(messages)) === '[3,4,5,6]', 'the steps after the cut', progressOf(messages));
            expect(textOf(responseOf(messages, call.id), 'resumed slow_count') === 'Counted to 6', 'resumed slow_count', messages);
        });
    },

    // notifications/cancelled (through another node on two): the call stops, with no response.
    async cancel(nodes) {
        await withSession(nodes, {}, async (s) => {
            const call = await s.stream('tools/call', { name: 'slow_count', arguments: { to: 200, step_ms: 20 }, _meta: { progressToken: 'c' } });
            expect(call.status === 200, 'slow_count stream', call.status);
            await call.reader.next((m) => m.method === 'notifications/progress', 10_000, 'the first progress');
            const sent = await s.notify('notifications/cancelled', { requestId: call.id, reason: 'soak' });
            expect(sent.status === 202, 'notifications/cancelled', `${sent.status} ${sent.text}`);
            const messages = await readAll(call.reader, 10_000);
            expect(!responseOf(messages, call.id), 'no response to a cancelled call', messages.at(-1));
            expect(progressOf(messages).length < 200, 'the count stopped early', progressOf(messages).length);
        });
    },

    // A resource subscription heard on the GET stream (held by another node on two) when the note
    // changes through a 2026 call on any node, then unsubscribed.
    async subscribe(nodes) {
        await withSession(nodes, {}, async (s) => {
            const slug = pick(NOTE_SLUGS);
            const uri = `demo://notes/${slug}`;
            const sub = await s.request('resources/subscribe', { uri });
            expect(sub.status === 200 && sub.message?.result, 'resources/subscribe', sub.text);
            const get = await s.get();
            expect(get.status === 200, 'GET stream', `${get.status} ${get.text}`);
            try {
                const body = `soak ${Math.random()}`;
                const add = await modernCall(pick(nodes).url, 'add', 'tools/call', { name: 'add_note', arguments: { slug, body } });
                expect(add.status === 200 && add.message?.result?.content?.[0]?.type === 'resource_link', 'add_note', add.text);
                await get.reader.next((m) => m.method === 'notifications/resources/updated' && m.params.uri === uri, 10_000, 'the update');
            } finally {
                get.abort();
            }
            const unsub = await s.request('resources/unsubscribe', { uri });
            expect(unsub.status === 200 && unsub.message?.result, 'resources/unsubscribe', unsub.text);
        });
    },
};

// How often each scenario runs, relative to the others.
export const weights = { modern: 4, session: 4, elicitAnswered: 2, elicitAbandoned: 1, resume: 2, cancel: 1, subscribe: 2, listen: 1 };

export { WrongReply };
