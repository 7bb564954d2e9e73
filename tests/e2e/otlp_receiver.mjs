// An OTLP/HTTP trace receiver for the tracing suites (docs/adr/0030-tracing.md). Protobuf bodies
// are decoded with @opentelemetry/otlp-transformer's protobuf root (the official .proto files,
// nothing of ours); JSON bodies are parsed as they come, for a field-by-field comparison with that
// package's JSON serializer.
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createRequire } from 'node:module';

import { waitUntil } from './helpers.mjs';

const require = createRequire(import.meta.url);
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js');
const ExportTraceServiceRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 };
export const STATUS_ERROR = 2;

const hex = (bytes) => Buffer.from(bytes ?? []).toString('hex');

// { key: value } of OTLP KeyValues, whichever encoding: int64 values as strings (proto3 JSON, and
// protobufjs with longs: String).
function attributesOf(list = []) {
    const out = {};
    for (const { key, value } of list) {
        out[key] = value.stringValue ?? value.boolValue ?? (value.intValue !== undefined ? String(value.intValue) : value.doubleValue);
    }
    return out;
}

const eventsOf = (events = []) => events.map((e) => ({ name: e.name, attributes: attributesOf(e.attributes) }));
// Span links with hex ids, whichever encoding (JSON's are hex already).
const linksOf = (links = []) => links.map((l) => ({
    traceId: typeof l.traceId === 'string' ? l.traceId : hex(l.traceId),
    spanId: typeof l.spanId === 'string' ? l.spanId : hex(l.spanId),
    attributes: attributesOf(l.attributes),
    flags: l.flags,
}));

// An OTLP/HTTP trace receiver on 127.0.0.1: every request kept, every span decoded into
// { traceId, spanId, parentSpanId (hex, '' for none), name, kind, attributes {key: value}, events,
// links, status, resource {key: value}, scope }. With `tls` (node:https options) it serves https://.
export class Receiver {
    static async start(tls) {
        const receiver = new Receiver(tls);
        await new Promise((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
        receiver.url = `${tls ? 'https' : 'http'}://127.0.0.1:${receiver.server.address().port}`;
        return receiver;
    }

    close() {
        return new Promise((resolve) => {
            this.server.closeAllConnections();
            this.server.close(resolve);
        });
    }

    constructor(tls) {
        this.requests = [];
        this.spans = [];
        const handle = (req, res) => {
            const chunks = [];
            req.on('data', (c) => chunks.push(c));
            req.on('end', () => {
                const body = Buffer.concat(chunks);
                const request = { path: req.url, type: req.headers['content-type'], headers: req.headers, body };
                if (tls) request.peer = req.socket.getPeerCertificate().subject?.CN;
                this.requests.push(request);
                try {
                    this.spans.push(...(request.type === 'application/json' ? Receiver.#fromJson(body) : Receiver.#fromProtobuf(body)));
                    res.writeHead(200, { 'content-type': request.type }).end();
                } catch (e) {
                    request.error = e;
                    res.writeHead(400).end();
                }
            });
        };
        this.server = tls ? createTlsServer(tls, handle) : createServer(handle);
    }

    // Every span of an ExportTraceServiceRequest (decoded already), with its resource and scope.
    static #spans(request, decodeSpan) {
        return request.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => ({
            ...decodeSpan(s),
            attributes: attributesOf(s.attributes),
            events: eventsOf(s.events),
            links: linksOf(s.links),
            status: s.status ?? {},
            resource: attributesOf(rs.resource.attributes),
            scope: ss.scope.name,
        }))));
    }

    static #fromProtobuf(body) {
        const message = ExportTraceServiceRequest.decode(body);
        const plain = ExportTraceServiceRequest.toObject(message, { longs: String, enums: Number });
        return Receiver.#spans(plain, (s) => ({
            traceId: hex(s.traceId), spanId: hex(s.spanId), parentSpanId: hex(s.parentSpanId),
            traceState: s.traceState ?? '', name: s.name, kind: s.kind, flags: s.flags,
            startTimeUnixNano: BigInt(s.startTimeUnixNano), endTimeUnixNano: BigInt(s.endTimeUnixNano),
        }));
    }

    static #fromJson(body) {
        return Receiver.#spans(JSON.parse(body.toString('utf8')), (s) => ({ ...s, parentSpanId: s.parentSpanId ?? '', json: s }));
    }

    async span(predicate, what) {
        let found;
        await waitUntil(() => (found = this.spans.find(predicate)) !== undefined, 15_000, what);
        return found;
    }
}
