#!/usr/bin/env node
// Runs the official MCP conformance suite against the mcp-cpp conformance server and judges every
// check it records.
//
//   node tests/conformance/run.mjs <path/to/mcp-cpp-conformance> [--out DIR] [--runs 1,3] [--cluster]
//   (or MCP_CPP_CONFORMANCE=<path> node tests/conformance/run.mjs)
//   node tests/conformance/run.mjs <path/to/mcp-cpp-conformance> --gateway <path/to/mcp-cpp-gateway>
//   (the same runs against mcp-cpp-gateway --no-prefix fronting the conformance server over stdio)
//   node tests/conformance/run.mjs --client <path/to/mcp-cpp-conformance-client> [--out DIR]
//   (client mode: the suite drives the client, every client scenario, auth/ ones included; client_runs.mjs)
//
// It builds nothing. It starts the server on a free loopback port, runs the seven runs below with
// the pinned suite versions (package.json: conformance-v01, conformance-v02) under the Node 22
// binary that package.json pins (the suite needs Node >= 22; this script also runs under Node 20),
// reads every checks.json, and exits 1 when:
//   - a check has status FAILURE or WARNING, in any scenario, extensions' included. There are no
//     waivers: every scenario must pass without warnings;
//   - a run crashes, times out, or its summary and its checks.json files disagree;
//   - a run lacks a scenario it is expected to run (`expects`: the tasks extension's ten in the
//     2026-07-28 requirements run, the Skills extension's three in their runs), or one of them
//     recorded no passing check: a suite that stops running them, or runs them vacuously, must
//     not pass for a suite that checked them.
// With --cluster the suite talks to two nodes instead of one: a redis-server of its own and two
// servers sharing it (--store redis://…) and one key ring (MCP_SECRET), behind an nginx doing plain
// round robin with examples/cluster/nginx.conf (so consecutive requests of a session go to different
// nodes). The same runs, judged the same way. Every process listens on 127.0.0.1 and is killed at
// the end; the logs are OUT/redis.log, OUT/node-a.log, OUT/node-b.log and OUT/nginx/error.log.
// With --gateway the suite talks to mcp-cpp-gateway instead, which runs the conformance server as a
// stdio child (--servers, one entry) and serves it with --no-prefix: every scenario must pass through
// the mount as it passes against the server itself (docs/adr/0029-gateway.md). The child's stderr
// is in the gateway's log, OUT/server.log.
// Environment: MCP_CONFORMANCE_RUN_TIMEOUT (s, per run, default 300), MCP_CONFORMANCE_TIMEOUT
// (s, everything, default 1100), MCP_CONFORMANCE_LOG_LEVEL (the servers' --log-level, default
// info), and with --cluster REDIS_SERVER and NGINX (the binaries; default from PATH, then
// /usr/bin/redis-server and /usr/sbin/nginx).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runClientMode } from './client_runs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const NGINX_TEMPLATE = path.join(here, '..', '..', 'examples', 'cluster', 'nginx.conf');

// ---------------------------------------------------------------------------------------------
// The runs. URL is filled in once the server listens.
const SKILLS_SCENARIOS = ['sep-2640-skills-directory', 'sep-2640-skills-enumeration', 'sep-2640-skills-manifest'];
// The tasks extension's scenarios (docs/adr/0021-tasks.md), which the 2026-07-28 requirement set
// runs. tasks-status-notifications is skipped by the suite itself (one SKIPPED check, its harness
// awaiting a rewrite): it must still be there, and may pass.
const TASKS_SCENARIOS = ['tasks-capability-negotiation', 'tasks-dispatch-and-envelope', 'tasks-lifecycle',
  'tasks-mrtr-composition', 'tasks-mrtr-input', 'tasks-request-headers', 'tasks-request-state-removal',
  'tasks-required-task-error', 'tasks-status-notifications', 'tasks-wire-fields'];
const SKIPPED_BY_SUITE = new Set(['tasks-status-notifications']);
const RUNS = [
  { name: 'v0.1.16 --suite all', pkg: 'conformance-v01', args: ['--suite', 'all'] },
  { name: 'v0.2.0-alpha.12 --requirements 2025-11-25', pkg: 'conformance-v02', args: ['--requirements', '2025-11-25'] },
  { name: 'v0.2.0-alpha.12 --requirements 2026-07-28', pkg: 'conformance-v02', args: ['--requirements', '2026-07-28'],
    expects: TASKS_SCENARIOS },
  { name: 'v0.2.0-alpha.12 --suite all --spec-version 2025-11-25', pkg: 'conformance-v02',
    args: ['--suite', 'all', '--spec-version', '2025-11-25'] },
  { name: 'v0.2.0-alpha.12 --suite all --spec-version 2026-07-28', pkg: 'conformance-v02',
    args: ['--suite', 'all', '--spec-version', '2026-07-28'] },
  // Extension scenarios are in neither requirement set nor in a --spec-version suite: each runs on
  // its own (--scenario), at the extension's 2026-07-28 wire, and forced onto the 2025-11-25 wire
  // (there discover() reads the capabilities of initialize).
  { name: 'v0.2.0-alpha.12 Skills extension scenarios (2026-07-28 wire)', pkg: 'conformance-v02',
    scenarios: SKILLS_SCENARIOS, args: [], expects: SKILLS_SCENARIOS },
  { name: 'v0.2.0-alpha.12 Skills extension scenarios (2025-11-25 wire, --force)', pkg: 'conformance-v02',
    scenarios: SKILLS_SCENARIOS, args: ['--spec-version', '2025-11-25', '--force'], expects: SKILLS_SCENARIOS },
];

// ---------------------------------------------------------------------------------------------
// Arguments.
function parseArgs(argv) {
  const opts = { server: process.env.MCP_CPP_CONFORMANCE || '', out: '', runs: null, cluster: false, client: '',
                 gateway: '' };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--out') opts.out = argv[++i];
    else if (a === '--runs') opts.runs = argv[++i].split(',').map((s) => Number(s.trim()));
    else if (a === '--cluster') opts.cluster = true;
    else if (a === '--client') opts.client = argv[++i];
    else if (a === '--gateway') opts.gateway = argv[++i];
    else if (a === '-h' || a === '--help') {
      console.log('usage: run.mjs <server-binary> [--out DIR] [--runs 1,2,...] [--cluster | --gateway <gateway-binary>]\n' +
                  '       (or MCP_CPP_CONFORMANCE=<binary>)\n' +
                  '       run.mjs --client <client-binary> [--out DIR]');
      process.exit(0);
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else opts.server = a;
  }
  if (opts.client) {
    if (!fs.existsSync(opts.client)) throw new Error(`client binary not found: ${opts.client}`);
    opts.client = path.resolve(opts.client);
  } else if (!opts.server) throw new Error('give the mcp-cpp-conformance binary as an argument or in MCP_CPP_CONFORMANCE');
  if (!opts.client && !fs.existsSync(opts.server)) throw new Error(`server binary not found: ${opts.server}`);
  if (opts.server) opts.server = path.resolve(opts.server);
  if (opts.gateway) {
    if (opts.cluster || opts.client) throw new Error('--gateway goes with neither --cluster nor --client');
    if (!fs.existsSync(opts.gateway)) throw new Error(`gateway binary not found: ${opts.gateway}`);
    opts.gateway = path.resolve(opts.gateway);
  }
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

// Starts a process in a group of its own, its output appended to logFile; `ready` is an async
// probe, polled for at most 15 s, that resolves true once the process serves.
async function startProcess(what, binary, args, logFile, ready, env = process.env) {
  fs.writeFileSync(logFile, '');
  const log = fs.openSync(logFile, 'a');
  const child = track(spawn(binary, args, { stdio: ['ignore', log, log], detached: true, env }));
  fs.closeSync(log);
  let exited = null;
  child.on('exit', (code, signal) => { exited = { code, signal }; });
  child.on('error', (err) => { exited = { code: err.message, signal: null }; });
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline && !exited) {
    if (await ready().catch(() => false)) return child;
    await sleep(100);
  }
  const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n') : '';
  throw new Error(`${what} did not come up` +
                  (exited ? ` (it exited: code ${exited.code}, signal ${exited.signal})` : ' within 15 s') +
                  `\n--- its log (${logFile}) ---\n${tail}`);
}

// Any HTTP answer means it listens; the GET without a session is refused, which is fine.
async function answersHttp(url) {
  const res = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(1000) });
  await res.body?.cancel();
  return true;
}

// PING over a socket: true on +PONG.
function answersPing(port) {
  return new Promise((resolve) => {
    const sock = net.connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok) => { clearTimeout(timer); sock.destroy(); resolve(ok); };
    const timer = setTimeout(() => done(false), 1000);
    sock.on('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => { reply += d; if (reply.includes('\r\n')) done(reply.startsWith('+PONG')); });
    sock.on('error', () => done(false));
  });
}

const logLevel = () => process.env.MCP_CONFORMANCE_LOG_LEVEL || 'info';

async function startServer(binary, logFile, extraArgs = [], env = process.env, what = 'the server') {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const child = await startProcess(`${what} on ${url}`, binary,
                                   ['--http', `127.0.0.1:${port}`, '--shutdown-grace', '2s',
                                    '--log-level', logLevel(), ...extraArgs],
                                   logFile, () => answersHttp(url), env);
  return { child, url, port, logFile };
}

function findBinary(envName, name, fallback) {
  // An explicit ${envName} is the only candidate.
  const candidates = process.env[envName] ? [process.env[envName]]
    : [...(process.env.PATH || '').split(':').filter(Boolean).map((d) => path.join(d, name)), fallback];
  const found = candidates.find((p) => { try { fs.accessSync(p, fs.constants.X_OK); return true; } catch { return false; } });
  if (!found) {
    throw new Error(`--cluster needs ${name} (looked for ${[...new Set(candidates)].join(', ')}); ` +
                    `scripts/install-deps.sh --test installs it, or set ${envName}`);
  }
  return found;
}

// mcp-cpp-gateway --no-prefix in front of the conformance server, which it starts over stdio.
async function startGateway(gateway, binary, out) {
  const servers = path.join(out, 'servers.json');
  const child = { command: binary, args: ['--log-level', logLevel()] };
  fs.writeFileSync(servers, JSON.stringify({ mcpServers: { conformance: child } }, null, 2));
  const one = await startServer(gateway, path.join(out, 'server.log'), ['--servers', servers, '--no-prefix'],
                                process.env, 'the gateway');
  return { url: one.url, processes: [{ name: 'the gateway', logFile: one.logFile, child: one.child }] };
}

// redis-server, two nodes sharing it and one key ring, and nginx round robin in front of them,
// from the template of examples/cluster (its @NGINX_PORT@, @NODE_A@ and @NODE_B@ filled in).
// Resolves with { url, processes: [{ name, child, logFile }] }; what it started before a failure
// is killed by killAll.
async function startCluster(binary, out) {
  const redisBin = findBinary('REDIS_SERVER', 'redis-server', '/usr/bin/redis-server');
  const nginxBin = findBinary('NGINX', 'nginx', '/usr/sbin/nginx');
  if (!fs.existsSync(NGINX_TEMPLATE)) throw new Error(`not found: ${NGINX_TEMPLATE}`);
  const processes = [];

  const redisPort = await freePort();
  const redisLog = path.join(out, 'redis.log');
  processes.push({ name: 'redis-server', logFile: redisLog, child: await startProcess(
    `redis-server on 127.0.0.1:${redisPort}`, redisBin,
    ['--bind', '127.0.0.1', '--port', String(redisPort), '--save', '', '--appendonly', 'no',
     '--protected-mode', 'yes', '--daemonize', 'no', '--dir', out, '--logfile', redisLog],
    redisLog, () => answersPing(redisPort)) });

  const store = `redis://127.0.0.1:${redisPort}/0`;
  const env = { ...process.env, MCP_SECRET: crypto.randomBytes(32).toString('base64') };
  const nodes = [];
  for (const name of ['a', 'b']) {
    const logFile = path.join(out, `node-${name}.log`);
    const node = await startServer(binary, logFile, ['--store', store], env, `node ${name.toUpperCase()}`);
    nodes.push(node);
    processes.push({ name: `node ${name.toUpperCase()} (127.0.0.1:${node.port})`, logFile, child: node.child });
  }

  const prefix = path.join(out, 'nginx');
  fs.rmSync(prefix, { recursive: true, force: true });
  fs.mkdirSync(prefix, { recursive: true });
  // Started by root, nginx's workers run as nobody and must reach their temporary directories.
  for (const d of [out, prefix]) fs.chmodSync(d, 0o755);
  const port = await freePort();
  const conf = fs.readFileSync(NGINX_TEMPLATE, 'utf8')
    .replaceAll('@NGINX_PORT@', String(port))
    .replaceAll('@NODE_A@', `127.0.0.1:${nodes[0].port}`)
    .replaceAll('@NODE_B@', `127.0.0.1:${nodes[1].port}`);
  const confFile = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(confFile, conf);
  const errorLog = path.join(prefix, 'error.log');
  const url = `http://127.0.0.1:${port}/mcp`;
  processes.push({ name: 'nginx', logFile: errorLog, child: await startProcess(
    `nginx on ${url}`, nginxBin, ['-p', `${prefix}/`, '-c', confFile, '-e', errorLog, '-g', 'daemon off;'],
    errorLog, () => answersHttp(url)) });

  console.log(`redis-server: ${store}\nnode A: ${nodes[0].url}\nnode B: ${nodes[1].url}\n` +
              `nginx round robin: ${url} (${confFile})`);
  return { url, processes };
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

// A run: one suite invocation, or one per scenario for a run that lists them (a lone scenario
// prints its checks, not a summary). Resolves as runSuite does, with the worst exit status.
async function runAll(node, cli, run, url, dir, logFile, timeoutMs, index) {
  const invocations = run.scenarios
    ? run.scenarios.map((s) => ['server', '--url', url, '--scenario', s, ...run.args, '-o', dir])
    : [['server', '--url', url, ...run.args, '-o', dir]];
  const all = { code: 0, signal: null, timedOut: false, output: '' };
  for (const [n, args] of invocations.entries()) {
    console.log(`\n--- run ${index}: ${run.pkg} ${args.join(' ')}`);
    const res = await runSuite(node, cli, args, invocations.length > 1 ? `${logFile}.${n + 1}` : logFile, timeoutMs);
    all.output += res.output;
    all.timedOut ||= res.timedOut;
    all.signal ??= res.signal;
    if (res.code !== 0) all.code = all.code === 0 || all.code === 1 ? res.code : all.code;
  }
  if (invocations.length > 1) fs.writeFileSync(logFile, all.output);
  return all;
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

// What a run's expected scenarios lack: a scenario with no results, or none of whose checks passed
// (unless the suite itself skips it).
function missingExpected(run, scenarios) {
  const problems = [];
  for (const name of run.expects ?? []) {
    const checks = scenarios.get(name);
    if (!checks) problems.push(`${name} did not run`);
    else if (!SKIPPED_BY_SUITE.has(name) && !checks.some((c) => c.status === 'SUCCESS')) {
      problems.push(`${name} ran no passing check (${checks.map((c) => c.status).join(', ') || 'no checks'})`);
    }
  }
  return problems;
}

function judgeRun(run, scenarios) {
  const rows = [];
  const problems = [];
  for (const [scenario, checks] of [...scenarios].sort((a, b) => a[0].localeCompare(b[0]))) {
    const count = (s) => checks.filter((c) => c.status === s).length;
    const row = { scenario, passed: count('SUCCESS'), failed: count('FAILURE'), warnings: count('WARNING'),
                  verdict: 'ok', notes: [] };
    for (const c of checks) {
      if (!bad(c)) continue;
      const line = `${c.status} ${c.id}: ${c.errorMessage || c.description || ''}`.trim();
      row.verdict = 'FAIL';  // a WARNING fails a scenario as a FAILURE does
      row.notes.push(line);
      problems.push(`run ${run.index} (${run.name}): ${scenario}: ${line}`);
    }
    rows.push(row);
  }
  return { rows, problems };
}

function printRun(index, run, rows, code) {
  const total = (k) => rows.reduce((n, r) => n + r[k], 0);
  // A scenario fails on a FAILURE or a WARNING check (as in the suite's baseline mode).
  const failing = (r) => r.failed > 0 || r.warnings > 0;
  const scenarioFailed = rows.filter(failing).length;
  console.log(`\n=== run ${index}: ${run.name} (exit ${code}) ===`);
  const width = Math.max(...rows.map((r) => r.scenario.length), 8);
  for (const r of rows) {
    const counts = `${String(r.passed).padStart(3)} passed ${String(r.failed).padStart(2)} failed` +
                   (r.warnings ? ` ${r.warnings} warning${r.warnings > 1 ? 's' : ''}` : '');
    console.log(`  ${r.scenario.padEnd(width)}  ${counts}  ${r.verdict}`);
    for (const n of r.notes) console.log(`      ${n}`);
  }
  console.log(`  scenarios: ${rows.length - scenarioFailed} passed, ${scenarioFailed} failed; ` +
              `checks: ${total('passed')} passed, ${total('failed')} failed, ${total('warnings')} warnings`);
  return { scenarios: rows.length, scenarioFailed, checksPassed: total('passed'), checksFailed: total('failed'),
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
  if (opts.client) return (await runClientMode(node, here, opts.client, opts.out)) === 0 ? 0 : 1;
  const behind = opts.cluster ? ' (two nodes, --cluster)' : opts.gateway ? ` (a stdio child of ${opts.gateway})` : '';
  console.log(`server: ${opts.server}${behind}\nresults: ${opts.out}`);
  let server;
  if (opts.cluster) server = await startCluster(opts.server, opts.out);
  else if (opts.gateway) server = await startGateway(opts.gateway, opts.server, opts.out);
  else {
    const one = await startServer(opts.server, path.join(opts.out, 'server.log'));
    server = { url: one.url, processes: [{ name: 'the server', logFile: one.logFile, child: one.child }] };
  }
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
      const started = Date.now();
      const res = await runAll(node, cli, run, server.url, dir, path.join(opts.out, `run${index}.log`), runTimeout,
                               index);
      console.log(`    ${((Date.now() - started) / 1000).toFixed(1)} s, log: ${path.join(opts.out, `run${index}.log`)}`);

      if (res.timedOut) problems.push(`run ${index} (${run.name}): killed after ${runTimeout / 1000} s`);
      else if (res.code !== 0 && res.code !== 1) {
        problems.push(`run ${index} (${run.name}): the suite exited with ${res.code ?? res.signal}\n` +
                      res.output.split('\n').slice(-20).join('\n'));
      }
      const broken = [];
      const scenarios = readChecks(dir, broken);
      for (const b of broken) problems.push(`run ${index} (${run.name}): ${b}`);
      const listed = run.scenarios ?? summaryScenarios(res.output);
      if (!res.timedOut) {
        if (listed === null) problems.push(`run ${index} (${run.name}): the suite printed no summary`);
        else {
          const missingResults = listed.filter((s) => !scenarios.has(s));
          if (missingResults.length) problems.push(`run ${index}: no checks.json for ${missingResults.join(', ')}`);
        }
      }
      if (scenarios.size === 0) problems.push(`run ${index} (${run.name}): no scenario results in ${dir}`);
      for (const m of missingExpected(run, scenarios)) problems.push(`run ${index} (${run.name}): ${m}`);
      const { rows, problems: runProblems } = judgeRun({ index, ...run }, scenarios);
      problems.push(...runProblems);
      const anyFailure = [...scenarios.values()].some((cs) => cs.some((c) => c.status === 'FAILURE'));
      if (res.code === 1 && !anyFailure) {
        problems.push(`run ${index} (${run.name}): the suite exited 1 but no checks.json holds a FAILURE`);
      }
      totals.push({ index, run, ...printRun(index, run, rows, res.timedOut ? 'timeout' : res.code ?? res.signal) });
    }
  } finally {
    // Every process must have lived through the runs: with --cluster, nginx would hide a node that
    // died by sending everything to the other one.
    for (const p of server.processes) {
      const { exitCode, signalCode } = p.child;
      if (exitCode !== null || signalCode !== null) {
        problems.push(`${p.name} exited during the runs (code ${exitCode}, signal ${signalCode}); log: ${p.logFile}`);
      }
    }
    // nginx first, so that no request reaches a node being stopped; redis-server last.
    for (const p of [...server.processes].reverse()) await stopServer(p.child);
  }

  console.log('\n=== summary ===');
  for (const t of totals) {
    console.log(`run ${t.index}: ${t.run.name}: scenarios ${t.scenarios - t.scenarioFailed} passed, ` +
                `${t.scenarioFailed} failed; checks ${t.checksPassed} passed, ${t.checksFailed} failed` +
                (t.warnings ? `, ${t.warnings} warnings` : ''));
  }
  if (problems.length) {
    console.log(`\nconformance: ${problems.length} problem(s):`);
    for (const p of problems) console.log(`  - ${p}`);
    console.log(`logs: ${server.processes.map((p) => p.logFile).join(', ')}`);
    return 1;
  }
  console.log('\nconformance: every check passed, with no warnings (no waivers, no exceptions)');
  return 0;
}

main().then((code) => { killAll(); process.exit(code); },
            (err) => { console.error(`run.mjs: ${err.message || err}`); killAll(); process.exit(1); });
