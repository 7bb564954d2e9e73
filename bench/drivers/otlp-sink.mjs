// An OTLP/HTTP receiver that accepts every export and discards it, counting the bodies: the
// collector of bench/tracing-cost.sh, so that the server's cost is measured without a real one.
//   node bench/drivers/otlp-sink.mjs --port PORT   (prints the exports and bytes received on SIGTERM)
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string' } } });
let exports = 0;
let bytes = 0;
http.createServer((req, res) => {
    req.on('data', (chunk) => { bytes += chunk.length; });
    req.on('end', () => {
        exports += 1;
        res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/x-protobuf' });
        res.end();
    });
}).listen(Number(values.port), '127.0.0.1');
process.on('SIGTERM', () => {
    console.log(`exports ${exports} bytes ${bytes}`);
    process.exit(0);
});
