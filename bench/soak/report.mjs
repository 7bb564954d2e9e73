// The soak's outputs: every sample as CSV, the verdicts and counts as JSON and Markdown, and a
// PNG of the series (gnuplot, from Debian's gnuplot-nox).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const COLUMNS = ['t', 'setup', 'process', 'rss_kb', 'threads', 'fds', 'redis_keys', 'redis_memory_kb', 'scenarios', 'failed'];
const LABEL = { rss_kb: 'RSS (KiB)', threads: 'threads', fds: 'open fds', redis_keys: 'Redis keys', redis_memory_kb: 'Redis used memory (KiB)' };

function csv(rows) {
    return [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => r[c] ?? '').join(','))].join('\n') + '\n';
}

const fmt = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(1)) : String(v ?? ''));

function markdown(result, png) {
    const lines = [];
    lines.push(`# mcp-cpp soak, ${result.started.slice(0, 10)}: ${result.passed ? 'passed' : 'FAILED'}`, '');
    lines.push(`- ${result.minutes} minutes (${result.elapsed_s} s ran), both setups side by side: **one** (one node, sessions in memory) `
        + 'and **two** (nodes A and B sharing one redis-server, the 2025 client switching node on every request).');
    lines.push(`- ${result.scenarios_per_second} scenarios started per second on each setup, at most ${result.workers_per_setup} at a time; `
        + `server options \`${result.server_args.join(' ')}\`.`);
    lines.push(`- A sample every ${result.sample_every_s} s; judged after a warm-up of ${result.warmup_s} s: a series trends upward `
        + 'when the median of the last third of its samples exceeds the median of the first third by more than the tolerance '
        + '(bench/soak/trend.mjs) and its least-squares slope is positive.');
    if (png) lines.push('', `![RSS, threads, fds and Redis over the run](${png})`);
    lines.push('', '## Series after warm-up', '');
    lines.push('| series | metric | samples | first third (median) | last third (median) | growth | tolerated | slope per hour | min | max | verdict |');
    lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const v of result.verdicts) {
        lines.push(`| ${v.series} | ${LABEL[v.metric]} | ${v.samples} | ${fmt(v.first_third_median)} | ${fmt(v.last_third_median)} | `
            + `${fmt(v.growth)} | ${fmt(v.allowed_growth)} | ${fmt(v.slope_per_hour)} | ${fmt(v.min)} | ${fmt(v.max)} | `
            + `${v.upward ? '**trends upward**' : v.verdict} |`);
    }
    lines.push('', '## Scenarios', '');
    const names = Object.keys(Object.values(result.scenarios)[0].by_scenario);
    lines.push(`| setup | ${names.join(' | ')} | all | failed |`);
    lines.push(`|---|${names.map(() => '---:').join('|')}|---:|---:|`);
    for (const [setup, s] of Object.entries(result.scenarios)) {
        lines.push(`| ${setup} | ${names.map((n) => fmt(s.by_scenario[n].ok)).join(' | ')} | ${fmt(s.completed)} | ${fmt(s.failed)} |`);
    }
    lines.push('', 'Every scenario checks every reply: modern (2026 echo, tools/list, resources/read, a form answered through '
        + 'requestState), session (a 2025 session created, used and deleted, or left to expire), elicitAnswered (answered '
        + 'through the other node), elicitAbandoned (the client goes away), resume (a POST stream cut and resumed with '
        + 'Last-Event-ID), cancel (notifications/cancelled), subscribe (an update heard on the GET stream), listen (a 2026 '
        + 'subscriptions/listen stream told of an update).');
    if (result.deaths.length) lines.push('', `Processes that died: ${result.deaths.join(', ')}.`);
    const failures = Object.entries(result.failures).flatMap(([setup, list]) => list.map((f) => ({ setup, ...f })));
    if (failures.length) {
        lines.push('', '## First failures', '');
        for (const f of failures) lines.push(`- ${f.setup}, ${f.scenario}, ${f.at} (${f.ms} ms): ${f.error.replace(/\n/g, ' ')}`);
    }
    return `${lines.join('\n')}\n`;
}

// The gnuplot script: four panels against minutes, the end of warm-up as a dashed line.
function plotScript(result, dataDir, png) {
    const warm = result.warmup_s / 60;
    const series = [['one', 'one'], ['two', 'A'], ['two', 'B']];
    // y: a gnuplot column expression over "t,rss_kb,threads,fds".
    const processPlot = (y) => series.map(([setup, p]) => `'${dataDir}/${setup}-${p}.dat' using ($1/60):${y} with lines lw 2 `
        + `title '${setup === 'one' ? 'one node' : `node ${p} (two)`}'`).join(', ');
    return [
        'set terminal pngcairo size 1400,1000 font ",10" noenhanced',
        `set output '${png}'`,
        'set datafile separator ","',
        'set grid',
        'set key below horizontal',
        'set xlabel "minutes"',
        `set arrow 1 from ${warm}, graph 0 to ${warm}, graph 1 nohead dashtype 2 lc rgb "gray40"`,
        `set multiplot layout 2,2 title "mcp-cpp soak ${result.started.slice(0, 10)}, ${result.minutes} min: ${result.passed ? 'passed' : 'FAILED'} (dashed: end of warm-up)"`,
        'set title "resident memory (MiB)"',
        `plot ${processPlot('($2/1024)')}`,
        'set title "threads"',
        `plot ${processPlot(3)}`,
        'set title "open file descriptors"',
        `plot ${processPlot(4)}`,
        'set title "Redis (two nodes)"',
        'set ylabel "keys"',
        'set y2label "used memory (MiB)"',
        'set y2tics',
        `plot '${dataDir}/two-redis.dat' using ($1/60):2 with lines lw 2 title 'keys', `
            + `'${dataDir}/two-redis.dat' using ($1/60):($3/1024) axes x1y2 with lines lw 2 title 'used memory (right)'`,
        'unset multiplot',
        '',
    ].join('\n');
}

function plot(result, rows, pngPath) {
    const dataDir = mkdtempSync(join(tmpdir(), 'mcp-soak-plot-'));
    try {
        const write = (name, list, columns) => writeFileSync(join(dataDir, `${name}.dat`),
            list.map((r) => [r.t, ...columns.map((c) => r[c])].join(',')).join('\n') + '\n');
        for (const [setup, p] of [['one', 'one'], ['two', 'A'], ['two', 'B']]) {
            write(`${setup}-${p}`, rows.filter((r) => r.setup === setup && r.process === p && r.alive), ['rss_kb', 'threads', 'fds']);
        }
        write('two-redis', rows.filter((r) => r.process === 'redis' && r.alive), ['redis_keys', 'redis_memory_kb']);
        const script = join(dataDir, 'soak.gp');
        writeFileSync(script, plotScript(result, dataDir, pngPath));
        const run = spawnSync('gnuplot', [script], { encoding: 'utf8', timeout: 60_000 });
        if (run.error || run.status !== 0) return `gnuplot failed: ${run.error ?? run.stderr}`;
        return undefined;
    } finally {
        rmSync(dataDir, { recursive: true, force: true });
    }
}

// Writes <base>.csv, .json, .png and .md; a plot that fails fails the run.
export function writeReport(base, result, rows) {
    writeFileSync(`${base}.csv`, csv(rows));
    const plotError = plot(result, rows, `${base}.png`);
    if (plotError) {
        result.passed = false;
        result.plot_error = plotError;
        console.error(`soak: ${plotError}`);
    }
    writeFileSync(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
    const md = markdown(result, plotError ? undefined : `${basename(base)}.png`);
    writeFileSync(`${base}.md`, plotError ? `${md}\nNo plot: ${plotError}\n` : md);
    process.stdout.write(md);
}
