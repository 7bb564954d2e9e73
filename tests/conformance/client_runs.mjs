// The client mode of run.mjs: the official suite drives mcp-cpp-conformance-client, one scenario
// per invocation (`conformance client --command CLIENT --scenario NAME`):
//   - 0.1.16: every client scenario of `conformance list --client` by name (what `--suite all`
//     runs; it sets no protocol version), auth/ ones included;
//   - 0.2.0-alpha.12: every scenario of `conformance list --client` at every revision of its
//     window (--spec-version, which the suite hands the client as MCP_CONFORMANCE_PROTOCOL_VERSION;
//     so every scenario of `--requirements 2025-11-25` and `--requirements 2026-07-28` at its
//     revision), and the extension scenarios one by one.
// A scenario fails when any check of it is FAILURE, WARNING or SKIPPED, when it recorded no check,
// or when the suite crashed or timed out. The exceptions are named below, each with its reason.
// MCP_CONFORMANCE_CLIENT_FILTER (a regular expression) runs only the scenarios whose name matches.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// Scenarios not run, by name, each with the reason (none may be left out silently).
const NOT_RUN = new Map([
]);
// Judged statuses: anything else (SUCCESS, INFO) passes.
const BAD = new Set(['FAILURE', 'WARNING', 'SKIPPED']);
// http-standard-headers, at its only revision (2026-07-28), also expects Mcp-Method on initialize
// and notifications/initialized, which that revision removed: a client of it never sends them, and
// the suite marks those two SKIPPED. Only those two are let pass.
const suiteSkip = (scenario, c) => scenario === 'http-standard-headers' && c.status === 'SKIPPED' &&
  /did not send a (initialize|notifications\/initialized) request/.test(c.errorMessage ?? '');

// A package's client scenarios: [{ name, versions: [...] | ['extension'] | ['draft'] }].
function listClientScenarios(node, cli) {
  const listed = spawnSync(node, [cli, 'list', '--client'], { encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`conformance list --client failed:\n${listed.stderr}`);
  const out = [];
  for (const line of listed.stdout.split('\n')) {
    const m = line.match(/^\s*-\s+(\S+)\s+\[([^\]]*)\]/);
    if (m && !NOT_RUN.has(m[1])) out.push({ name: m[1], versions: m[2].split(',').map((s) => s.trim()) });
  }
  if (out.length === 0) throw new Error(`conformance list --client listed no scenario:\n${listed.stdout}`);
  return out;
}

// Every invocation: { pkg, scenario, version } (version null: none given).
export function clientInvocations(node, here) {
  const cli = (pkg) => path.join(here, 'node_modules', pkg, 'dist', 'index.js');
  const v01 = listClientScenarios(node, cli('conformance-v01'));
  const v02 = listClientScenarios(node, cli('conformance-v02'));
  const runs = v01.map(({ name }) => ({ pkg: 'conformance-v01', scenario: name, version: null }));
  for (const { name, versions } of v02) {
    // An extension's scenario is in no revision's window: at the suite's default wire (2025-11-25),
    // and forced onto 2026-07-28, as run.mjs does for the server's.
    if (versions.includes('extension')) {
      runs.push({ pkg: 'conformance-v02', scenario: name, version: null });
      runs.push({ pkg: 'conformance-v02', scenario: name, version: '2026-07-28', force: true });
    }
    else {
      for (const version of versions) runs.push({ pkg: 'conformance-v02', scenario: name, version });
      // 2025-03-26's (the authorization fallbacks of that revision) also as the suite runs them
      // without --spec-version: the client at the suite's default wire.
      if (versions.includes('2025-03-26')) runs.push({ pkg: 'conformance-v02', scenario: name, version: null });
    }
  }
  const filter = process.env.MCP_CONFORMANCE_CLIENT_FILTER ? new RegExp(process.env.MCP_CONFORMANCE_CLIENT_FILTER) : null;
  return filter ? runs.filter((r) => filter.test(r.scenario)) : runs;
}

function runOne(node, cli, args, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(node, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    }, timeoutMs);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, timedOut, output }); });
  });
}

function checksUnder(dir) {
  const checks = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === 'checks.json') {
      checks.push(...JSON.parse(fs.readFileSync(path.join(entry.parentPath ?? entry.path, entry.name), 'utf8')));
    }
  }
  return checks;
}

// Runs them all (two at a time); resolves with the number of failed invocations.
export async function runClientMode(node, here, client, out) {
  const runs = clientInvocations(node, here);
  console.log(`client: ${client}\nresults: ${out}\n${runs.length} scenario runs`);
  for (const [name, why] of NOT_RUN) console.log(`not run: ${name}: ${why}`);
  const failures = [];
  let next = 0;
  const worker = async () => {
    while (next < runs.length) {
      const run = runs[next++];
      const label = `${run.pkg} ${run.scenario}${run.version ? ` @ ${run.version}` : ''}${run.force ? ' (--force)' : ''}`;
      const dir = path.join(out, `${run.pkg}-${run.scenario.replaceAll('/', '_')}-${run.version ?? 'default'}`);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const args = ['client', '--command', client, '--scenario', run.scenario, '--timeout', '20000', '-o', dir];
      if (run.version) args.push('--spec-version', run.version);
      if (run.force) args.push('--force');
      const started = Date.now();
      const res = await runOne(node, path.join(here, 'node_modules', run.pkg, 'dist', 'index.js'), args, 60000);
      fs.writeFileSync(path.join(dir, 'suite.log'), res.output);
      const checks = res.timedOut ? [] : checksUnder(dir);
      const bad = checks.filter((c) => BAD.has(c.status) && !suiteSkip(run.scenario, c));
      const problems = bad.map((c) => `${c.status} ${c.id}: ${c.errorMessage || c.description || ''}`.trim());
      if (res.timedOut) problems.push('the suite timed out');
      else if (checks.length === 0) problems.push(`no checks recorded (suite exit ${res.code})`);
      else if (res.code !== 0 && problems.length === 0) problems.push(`the suite exited ${res.code} with no failing check`);
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`${problems.length ? 'FAIL' : 'ok  '} ${label} (${checks.length} checks, ${secs} s)`);
      for (const p of problems) console.log(`      ${p}`);
      if (problems.length) failures.push(label);
    }
  };
  await Promise.all([worker(), worker()]);
  console.log(`\nclient conformance: ${runs.length - failures.length} of ${runs.length} scenario runs passed`);
  for (const f of failures) console.log(`  - failed: ${f}`);
  return failures.length;
}
