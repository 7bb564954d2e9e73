// Runs the soak's scenarios against one setup until stopped: a fixed number of workers, each
// picking scenarios at random by weight, started at a steady rate (what the servers hold at any
// moment then depends on that rate, not on how fast the shared machine happens to be). Counts
// what ran and what went wrong (with the first few failures kept whole).
import { scenarios, weights } from './scenarios.mjs';

const KEEP_FAILURES = 20;
// A scenario that takes longer than this is a failure: a reply that never came, a stream that
// never ended. Every wait inside a scenario is bounded below it already.
const SCENARIO_LIMIT_MS = 60_000;

function weightedPicker() {
    const entries = Object.entries(weights);
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    return () => {
        let r = Math.random() * total;
        for (const [name, w] of entries) {
            r -= w;
            if (r < 0) return name;
        }
        return entries.at(-1)[0];
    };
}

function limited(promise, what) {
    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} took more than ${SCENARIO_LIMIT_MS} ms`)), SCENARIO_LIMIT_MS);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class Driver {
    // nodes: [{ name, url }]; workers: scenarios running at once at most; perSecond: scenarios
    // started per second (fewer when the workers are all busy: a slow moment is not made up for).
    constructor(setup, nodes, { workers, perSecond }) {
        this.setup = setup;
        this.nodes = nodes;
        this.workers = workers;
        this.intervalMs = 1000 / perSecond;
        this.nextStart = 0;
        this.stopped = false;
        this.counts = Object.fromEntries(Object.keys(scenarios).map((name) => [name, { ok: 0, failed: 0 }]));
        this.failures = [];
        this.failed = 0;
        this.completed = 0;
        this.loops = [];
    }

    start() {
        const next = weightedPicker();
        for (let w = 0; w < this.workers; ++w) {
            this.loops.push((async () => {
                while (!this.stopped) {
                    await this.#turn();
                    if (this.stopped) break;
                    const name = next();
                    const started = Date.now();
                    try {
                        await limited(scenarios[name](this.nodes), name);
                        this.counts[name].ok++;
                    } catch (e) {
                        this.counts[name].failed++;
                        this.failed++;
                        if (this.failures.length < KEEP_FAILURES) {
                            this.failures.push({ at: new Date().toISOString(), scenario: name, ms: Date.now() - started,
                                error: String(e.cause ? `${e.message} (${e.cause.message ?? e.cause})` : e.message ?? e).slice(0, 800) });
                        }
                    }
                    this.completed++;
                }
            })());
        }
    }

    // Waits for this worker's start time: one start every intervalMs across the workers.
    async #turn() {
        const now = Date.now();
        this.nextStart = Math.max(this.nextStart + this.intervalMs, now);
        const wait = this.nextStart - now;
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }

    // Resolves once every worker finished its current scenario (each bounded by SCENARIO_LIMIT_MS).
    async stop() {
        this.stopped = true;
        await Promise.all(this.loops);
    }
}
