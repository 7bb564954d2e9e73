// Debian's prometheus as the suites that check what an operator sees run it (observability,
// dashboard): on a free loopback port, scraping one target every second into a storage directory
// of its own.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { freePort, waitUntil } from './helpers.mjs';

export const PROMETHEUS = process.env.PROMETHEUS ?? '/usr/bin/prometheus';
export const PROMTOOL = process.env.PROMTOOL ?? '/usr/bin/promtool';

export class Prometheus {
    // target: HOST:PORT of a /metrics endpoint; dir: an empty scratch directory; cleanups: where
    // the suite collects what it undoes at its end; job: the scrape job's name.
    static async start(target, { dir, cleanups, job = 'mcp' }) {
        assert.ok(existsSync(PROMETHEUS), `${PROMETHEUS} not found: scripts/install-deps.sh --test installs prometheus`);
        const port = await freePort();
        writeFileSync(
            join(dir, 'prometheus.yml'),
            ['global:', '  scrape_interval: 1s', '  scrape_timeout: 1s', 'scrape_configs:', `  - job_name: ${job}`,
                '    static_configs:', `      - targets: ['${target}']`, ''].join('\n'),
        );
        const prometheus = new Prometheus(port);
        prometheus.child = spawn(PROMETHEUS, [
            `--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`,
            `--web.listen-address=127.0.0.1:${port}`, '--enable-feature=exemplar-storage', '--log.level=warn',
        ], { stdio: ['ignore', 'ignore', 'pipe'] });
        prometheus.child.stderr.setEncoding('utf8').on('data', (c) => (prometheus.log = (prometheus.log + c).slice(-4000)));
        cleanups.push(() => prometheus.child.kill('SIGKILL'));
        await waitUntil(async () => (await fetch(`${prometheus.url}/-/ready`).catch(() => null))?.status === 200, 20_000,
            `Prometheus to be ready:\n${prometheus.log}`);
        return prometheus;
    }

    constructor(port) {
        this.url = `http://127.0.0.1:${port}`;
        this.log = '';
    }

    // Every series of an instant query, as the HTTP API returns them ({metric, value}).
    async query(expr) {
        const res = await fetch(`${this.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
        const body = await res.json();
        assert.equal(body.status, 'success', `${expr}: ${JSON.stringify(body)}`);
        return body.data.result;
    }

    // The instant value of a PromQL expression with one result, or undefined.
    async value(expr) {
        const result = await this.query(expr);
        if (result.length === 0) return undefined;
        assert.equal(result.length, 1, `${expr}: ${JSON.stringify(result)}`);
        return Number(result[0].value[1]);
    }

    // Waits until `expr` is `expected` (or passes `check`), failing with the last value.
    async waitFor(expr, expected, what = expr) {
        let last;
        await waitUntil(async () => {
            last = await this.value(expr);
            return typeof expected === 'function' ? expected(last) : last === expected;
        }, 20_000, `${what} to be ${typeof expected === 'function' ? 'as expected' : expected} (last: ${last})`);
        return last;
    }

    async exemplars(expr) {
        const end = Date.now() / 1000 + 60;
        const res = await fetch(`${this.url}/api/v1/query_exemplars?query=${encodeURIComponent(expr)}&start=${end - 600}&end=${end}`);
        const body = await res.json();
        assert.equal(body.status, 'success', JSON.stringify(body));
        return body.data.flatMap((series) => series.exemplars);
    }
}
