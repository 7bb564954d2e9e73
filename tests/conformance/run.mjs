#!/usr/bin/env node
// Runs the official MCP conformance suite against the mcp-cpp conformance server and judges every
// check it records.
//
//   node tests/conformance/run.mjs <path/to/mcp-cpp-conformance> [--out DIR] [--runs 1,3]
//   (or MCP_CPP_CONFORMANCE=<path> node tests/conformance/run.mjs)
//
// It builds nothing. It starts the server on a free loopback port, runs the five runs below with
// the pinned suite versions (package.json: conformance-v01, conformance-v02) under the Node 22
// binary that package.json pins (the suite needs Node >= 22; this script also runs under Node 20),
// reads every checks.json, and exits 1 when:
//   - a check has status FAILURE or WARNING, except in the scenarios of extensions mcp-cpp
//     declares not supported (tasks-*, sep-2640-skills-*: docs/adr/0002-declared-not-supported.md),
//     which are not judged. There are no waivers: every other scenario must pass without warnings;
//   - a run crashes, times out, or its summary and its checks.json files disagree.
// Environment: MCP_CONFORMANCE_RUN_TIMEOUT (s, per run, default 300), MCP_CONFORMANCE_TIMEOUT
// (s, everything, default 1100).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------------------------
// The runs. URL is filled in once the server listens.
const RUNS = [
  { name: 'v0.1.16 --suite all', pkg: 'conformance-v01', args: ['--suite', 'all'] },
  { name: 'v0.2.0-alpha.12 --requirements 2025-11-25', pkg: 'conformance-v02', args: ['--requirements', '2025-11-25'] },
  { name: 'v0.2.0-alpha.12 --requirements 2026-07-28', pkg: 'conformance-v02', args: ['--requirements', '2026-07-28'] },
  { name: 'v0.2.0-alpha.12 --suite all --spec-version 2025-11-25', pkg: 'conformance-v02',
    args: ['--suite', 'all', '--spec-version', '2025-11-25'] },
  { name: 'v0.2.0-alpha.12 --suite all --spec-version 2026-07-28', pkg: 'conformance-v02',
    args: ['--suite', 'all', '--spec-version', '2026-07-28'] },
];

// Extensions declared not supported (docs/adr/0002-declared-not-supported.md): their scenarios
// run (the suite has no switch to leave them out) but are not judged.
const NOT_SUPPORTED = [
  { pattern: /^tasks-/, why: 'tasks extension, declared not supported (ADR 0002)' },
  { pattern: /^sep-2640-skills-/, why: 'skills extension, declared not supported (ADR 0002)' },
];

// ---------------------------------------------------------------------------------------------
// Arguments.
function parseArgs(argv) {
  const opts = { server: process.env.MCP_CPP_CONFORMANCE || '', out: '', runs: null };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--out') opts.out = argv[++i];
    else if (a === '--runs') opts.runs = argv[++i].split(',').map((s) => Number(s.trim()));
    else if (a === '-h' || a === '--help') {
      console.log('usage: run.mjs <server-binary> [--out DIR] [--runs 1,2,...]\n' +
                  '       (or MCP_CPP_CONFORMANCE=<binary>)');
      process.exit(0);
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else opts.server = a;
  }
  if (!opts.server) throw new Error('give the mcp-cpp-conformance binary as an argument or in MCP_CPP_CONFORMANCE');
  if (!fs.existsSync(opts.server)) throw new Error(`server binary not found: ${opts.server}`);
  opts.server = path.resolve(opts.server);
  if (!opts.out) opts.out = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cpp-conformance-'));
  opts.out = path.resolve(opts.out);
  if (opts.runs) {
    for (const n of opts.runs) if (!(n >= 1 && n <= RUNS.length)) throw new Error(`--runs: no run ${n}`);
  }
  return opts;
}

// ---------------------------------------------------------------------------------------------
// Processes.
const children = new Set();
function killAll(signal = 'SIGKILL') {
  for (const c of children) {
    try { process.kill(-c.pid, signal); } catch { try { c.kill(signal); } catch { /* gone */ } }
  }
}
process.on('exit', () => killAll());
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => { console.error(`\nrun.mjs: ${sig}, stopping`); killAll(); process.exit(130); });
}

function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function startServer(binary, logFile) {
  const port = await freePort();
  const log = fs.openSync(logFile, 'w');
  const child = track(spawn(binary, ['--http', `127.0.0.1:${port}`, '--shutdown-grace', '2s'],
                            { stdio: ['ignore', log, log], detached: true }));
  let exited = null;
  child.on('exit', (code, signal) => { exited = { code, signal }; });
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline) {
    if (exited) break;
    try {
      // Any HTTP answer means it listens; the GET without a session is refused, which is fine.
      const res = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(1000) });
      await res.body?.cancel();
      return { child, url, port };
    } catch { await sleep(100); }
  }
  const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
  throw new Error(`the server did not answer on ${url}` +
                  (exited ? ` (it exited: code ${exited.code}, signal ${exited.signal})` : ' within 15 s') +
                  `\n--- server log (${logFile}) ---\n${tail}`);
}

async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
  const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, 5000);
  await done;
  clearTimeout(timer);
}

// Runs one suite invocation; resolves with its exit status and output (also saved to logFile).
function runSuite(node, cli, args, logFile, timeoutMs) {
  return new Promise((resolve) => {
    const log = fs.createWriteStream(logFile);
    const child = track(spawn(node, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
    let output = '';
    const collect = (d) => { output += d; log.write(d); };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      log.end();
      resolve({ code, signal, timedOut, output });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Results.
const TIMESTAMP = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

// Reads DIR/server-<scenario>-<timestamp>/checks.json; `broken` gets what could not be read.
function readChecks(dir, broken) {
  const scenarios = new Map();  // scenario -> checks[]
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith('server-') || !TIMESTAMP.test(entry.name)) continue;
    const scenario = entry.name.slice('server-'.length).replace(TIMESTAMP, '');
    const file = path.join(dir, entry.name, 'checks.json');
    let checks;
    try {
      checks = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (!Array.isArray(checks)) throw new Error('not an array of checks');
    } catch (err) {
      broken.push(`${scenario}: ${file}: ${err.message}`);
      continue;
    }
    if (scenarios.has(scenario)) broken.push(`${scenario}: two result directories in ${dir}`);
    scenarios.set(scenario, checks);
  }
  return scenarios;
}

// The scenarios of the suite's own SUMMARY block ("✓ name: 3 passed, 0 failed").
function summaryScenarios(output) {
  const names = [];
  const start = output.indexOf('=== SUMMARY ===');
  if (start < 0) return null;
  for (const line of output.slice(start).split('\n')) {
    const m = line.match(/^[✓✗]\s+(\S+):\s+\d+ passed, \d+ failed/);
    if (m) names.push(m[1]);
  }
  return names;
}

const bad = (c) => c.status === 'FAILURE' || c.status === 'WARNING';

function judgeRun(run, scenarios) {
  const rows = [];
  const problems = [];
  for (const [scenario, checks] of [...scenarios].sort((a, b) => a[0].localeCompare(b[0]))) {
    const count = (s) => checks.filter((c) => c.status === s).length;
    const row = { scenario, passed: count('SUCCESS'), failed: count('FAILURE'), warnings: count('WARNING'),
                  verdict: 'ok', notes: [] };
    const excluded = NOT_SUPPORTED.find((n) => n.pattern.test(scenario));
    for (const c of checks) {
      if (!bad(c)) continue;
      if (excluded) {
        row.verdict = 'not supported';  // not judged; its checks are not listed one by one
        continue;
      }
      const line = `${c.status} ${c.id}: ${c.errorMessage || c.description || ''}`.trim();
      row.verdict = 'FAIL';  // a WARNING fails a judged scenario as a FAILURE does
      row.notes.push(line);
      problems.push(`run ${run.index} (${run.name}): ${scenario}: ${line}`);
    }
    if (excluded) row.notes.unshift(`(${excluded.why})`);
    rows.push(row);
  }
  return { rows, problems };
}

function printRun(index, run, rows, code) {
  const total = (k) => rows.reduce((n, r) => n + r[k], 0);
  // A scenario fails on a FAILURE or a WARNING check (as in the suite's baseline mode).
  const failing = (r) => r.failed > 0 || r.warnings > 0;
  const scenarioFailed = rows.filter(failing).length;
  const failedAs = (v) => rows.filter((r) => failing(r) && r.verdict === v).length;
  const why = [['FAIL', 'judged'], ['not supported', 'not supported, not judged']]
    .map(([v, label]) => [failedAs(v), label]).filter(([n]) => n > 0).map(([n, label]) => `${n} ${label}`);
  console.log(`\n=== run ${index}: ${run.name} (exit ${code}) ===`);
  const width = Math.max(...rows.map((r) => r.scenario.length), 8);
  for (const r of rows) {
    const counts = `${String(r.passed).padStart(3)} passed ${String(r.failed).padStart(2)} failed` +
                   (r.warnings ? ` ${r.warnings} warning${r.warnings > 1 ? 's' : ''}` : '');
    console.log(`  ${r.scenario.padEnd(width)}  ${counts}  ${r.verdict}`);
    for (const n of r.notes) console.log(`      ${n}`);
  }
  console.log(`  scenarios: ${rows.length - scenarioFailed} passed, ${scenarioFailed} failed` +
              (why.length ? ` (${why.join(', ')})` : '') + '; ' +
              `checks: ${total('passed')} passed, ${total('failed')} failed, ${total('warnings')} warnings`);
  return { scenarios: rows.length, scenarioFailed, why, checksPassed: total('passed'), checksFailed: total('failed'),
           warnings: total('warnings') };
}

// ---------------------------------------------------------------------------------------------
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const runTimeout = Number(process.env.MCP_CONFORMANCE_RUN_TIMEOUT || 300) * 1000;
  const overall = Number(process.env.MCP_CONFORMANCE_TIMEOUT || 1100) * 1000;
  const overallTimer = setTimeout(() => {
    console.error(`\nrun.mjs: the overall timeout (${overall / 1000} s) expired; stopping`);
    killAll();
    process.exit(1);
  }, overall);
  overallTimer.unref();

  const node = path.join(here, 'node_modules', 'node', 'bin', 'node');
  const missing = [node, ...new Set(RUNS.map((r) => path.join(here, 'node_modules', r.pkg, 'dist', 'index.js')))]
    .filter((f) => !fs.existsSync(f));
  if (missing.length) {
    throw new Error(`not installed: ${missing.join(', ')}\n` +
                    'run `npm ci --prefix tests/conformance` (scripts/install-deps.sh --test)');
  }

  fs.mkdirSync(opts.out, { recursive: true });
  console.log(`server: ${opts.server}\nresults: ${opts.out}`);
  const server = await startServer(opts.server, path.join(opts.out, 'server.log'));
  console.log(`listening: ${server.url}`);

  const problems = [];
  const totals = [];
  try {
    for (const [i, run] of RUNS.entries()) {
      const index = i + 1;
      if (opts.runs && !opts.runs.includes(index)) continue;
      const dir = path.join(opts.out, `run${index}`);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const cli = path.join(here, 'node_modules', run.pkg, 'dist', 'index.js');
      const args = ['server', '--url', server.url, ...run.args, '-o', dir];
      console.log(`\n--- run ${index}: ${run.pkg} ${args.join(' ')}`);
      const started = Date.now();
      const res = await runSuite(node, cli, args, path.join(opts.out, `run${index}.log`), runTimeout);
      console.log(`    ${((Date.now() - started) / 1000).toFixed(1)} s, log: ${path.join(opts.out, `run${index}.log`)}`);

      if (res.timedOut) problems.push(`run ${index} (${run.name}): killed after ${runTimeout / 1000} s`);
      else if (res.code !== 0 && res.code !== 1) {
        problems.push(`run ${index} (${run.name}): the suite exited with ${res.code ?? res.signal}\n` +
                      res.output.split('\n').slice(-20).join('\n'));
      }
      const broken = [];
      const scenarios = readChecks(dir, broken);
      for (const b of broken) problems.push(`run ${index} (${run.name}): ${b}`);
      const listed = summaryScenarios(res.output);
      if (!res.timedOut) {
        if (listed === null) problems.push(`run ${index} (${run.name}): the suite printed no summary`);
        else {
          const missingResults = listed.filter((s) => !scenarios.has(s));
          if (missingResults.length) problems.push(`run ${index}: no checks.json for ${missingResults.join(', ')}`);
        }
      }
      if (scenarios.size === 0) problems.push(`run ${index} (${run.name}): no scenario results in ${dir}`);
      const { rows, problems: runProblems } = judgeRun({ index, ...run }, scenarios);
      problems.push(...runProblems);
      const anyFailure = [...scenarios.values()].some((cs) => cs.some((c) => c.status === 'FAILURE'));
      if (res.code === 1 && !anyFailure) {
        problems.push(`run ${index} (${run.name}): the suite exited 1 but no checks.json holds a FAILURE`);
      }
      totals.push({ index, run, ...printRun(index, run, rows, res.timedOut ? 'timeout' : res.code ?? res.signal) });
    }
  } finally {
    await stopServer(server.child);
  }

  console.log('\n=== summary ===');
  for (const t of totals) {
    console.log(`run ${t.index}: ${t.run.name}: scenarios ${t.scenarios - t.scenarioFailed} passed, ` +
                `${t.scenarioFailed} failed` + (t.why.length ? ` (${t.why.join(', ')})` : '') +
                `; checks ${t.checksPassed} passed, ${t.checksFailed} failed` +
                (t.warnings ? `, ${t.warnings} warnings` : ''));
  }
  if (problems.length) {
    console.log(`\nconformance: ${problems.length} problem(s):`);
    for (const p of problems) console.log(`  - ${p}`);
    console.log(`server log: ${path.join(opts.out, 'server.log')}`);
    return 1;
  }
  console.log('\nconformance: every judged check passed, with no warnings (no waivers; only the ' +
              'declared-not-supported extensions tasks-* and sep-2640-skills-* are not judged)');
  return 0;
}

main().then((code) => { killAll(); process.exit(code); },
            (err) => { console.error(`run.mjs: ${err.message || err}`); killAll(); process.exit(1); });
