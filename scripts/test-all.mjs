#!/usr/bin/env node
// Runs every test suite of the product, one after another, and ends with one line
// "N passed, N failed" totalling all of them. Exit code 1 if anything failed.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { passLines } from './pass-lines.mjs';

const root = path.resolve(fileURLToPath(import.meta.url), '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-results-'));
const only = process.argv.slice(2);
const wallStart = Date.now();

/** Steps that are not test runners: a failure counts as one failed check. */
const checks = [
  { name: 'typecheck', cmd: ['npx', 'turbo', 'run', 'typecheck', '--output-logs=errors-only'] },
  { name: 'lint', cmd: ['npm', 'run', 'lint'] },
];

/**
 * vitest suites, by workspace; each writes a JSON report we total. A suite with `alongside`
 * runs in the background while the named one runs (its log follows that suite's): the
 * scale-out bed mostly waits on its processes, so it shares the machine with the browser tests,
 * which wait on Chromium and leave a core partly idle, instead of adding its minutes to the run.
 * The SPA's component tests come last, on the whole machine (two workers: 2 min 45 s alone on
 * 2 cores, 7 min 22 s beside the bed with one).
 */
const suites = [
  { name: 'contracts', dir: 'packages/contracts' },
  { name: 'api', dir: 'apps/api' },
  // Browser tests: Chromium against the real API on a fresh seeded database (apps/web/e2e).
  { name: 'e2e', dir: 'apps/web', args: ['--config', 'e2e/vitest.config.ts'] },
  { name: 'web', dir: 'apps/web' },
];

// The scale-out bed (apps/api/cluster): mariadbd primary and replica, two API processes, HAProxy.
// It needs Debian's mariadb-server and haproxy and takes about nine minutes: always in CI,
// elsewhere on request (TEST_CLUSTER=1, or `npm run test:cluster`).
if (process.env.CI === 'true' || process.env.TEST_CLUSTER === '1') {
  suites.push({ name: 'cluster', dir: 'apps/api', args: ['--config', 'cluster/vitest.config.ts'], alongside: 'e2e' });
} else {
  console.error(
    '\n*** SKIPPED: the scale-out bed — set TEST_CLUSTER=1 (CI=true runs it) or run `npm run test:cluster`. ***\n',
  );
}

/**
 * Checks run in the background beside the browser tests: the benchmark smokes, which wait on
 * MariaDB and only check that every scenario answers and produces its numbers (no timing is
 * judged), so sharing the machine with Chromium costs them wall time, not results.
 */
const beside = [];

// The benchmark is not a test, but a 10 000-user smoke of it runs here so it cannot rot.
const mysqlUrl = process.env.TEST_MYSQL_URL;
if (mysqlUrl) {
  const smokeDb = new URL(mysqlUrl.replace(/^mariadb:/, 'mysql:'));
  smokeDb.pathname = '/ua_bench_smoke';
  // The imports bench seeds a scratch database of its own and drops it at the end.
  const importsDb = new URL(smokeDb);
  importsDb.pathname = '/ua_bench_imports_smoke';
  beside.push(
    { name: 'bench-smoke', cmd: ['npm', 'run', 'bench', '--', '--smoke', '--database-url', smokeDb.toString()] },
    // Bulks with a webhook and their deliveries to a verifying receiver, on the database just seeded.
    {
      name: 'bench-webhooks-smoke',
      cmd: ['npm', 'run', 'bench', '--', '--webhooks', '--smoke', '--reuse', '--database-url', smokeDb.toString()],
    },
    // A bulk job over every active user there, a dry run, a cancel and the reactivation.
    {
      name: 'bench-jobs-smoke',
      cmd: ['npm', 'run', 'bench', '--', '--jobs', '--smoke', '--reuse', '--database-url', smokeDb.toString()],
    },
    // A role given to 80 % of them: GET /roles, the preview and the save of a change, a member's next request.
    {
      name: 'bench-roles-smoke',
      cmd: ['npm', 'run', 'bench', '--', '--roles', '--smoke', '--reuse', '--database-url', smokeDb.toString()],
    },
    // "Forgot password" for an existing, an unknown, an inactive and a deleted account: all answer 202.
    {
      name: 'bench-password-reset-smoke',
      cmd: [
        'npm',
        'run',
        'bench',
        '--',
        '--password-reset',
        '--smoke',
        '--reuse',
        '--database-url',
        smokeDb.toString(),
      ],
    },
    // Sign-ins with the password alone beside password + TOTP code: every one opens a session.
    {
      name: 'bench-two-factor-smoke',
      cmd: ['npm', 'run', 'bench', '--', '--two-factor', '--smoke', '--reuse', '--database-url', smokeDb.toString()],
    },
    // Each import scenario at 10 000 lines: dry run, create, upsert again, XLSX against CSV.
    {
      name: 'bench-imports-smoke',
      cmd: ['npm', 'run', 'bench', '--', '--imports', '--smoke', '--database-url', importsDb.toString()],
    },
  );
} else {
  const line = 'SKIPPED: benchmark smoke — TEST_MYSQL_URL is not set.';
  if (process.env.CI === 'true') checks.push({ name: 'bench-smoke', cmd: ['sh', '-c', `echo "${line}" >&2; exit 1`] });
  else console.error(`\n*** ${line} ***\n`);
}

/**
 * The browser tests run two files at once on their own (11 min 12 s alone against 15 min 56 s
 * one at a time), but beside the bed and the smokes that saturates both cores: in one full run
 * the browser tests took 18 min 55 s, the bed 21 min 42 s (was 14 min 41 s), and a job test and a
 * frozen-primary scenario ran past their time limits. Here they keep to one file at a time
 * unless E2E_WORKERS says otherwise (docs/decisions.md, "The CI run's time").
 */
const chosen = (name) => !only.length || only.includes(name);
const besideE2e = beside.some((c) => chosen(c.name)) || suites.some((s) => s.alongside === 'e2e' && chosen(s.name));
if (besideE2e && process.env.E2E_WORKERS === undefined) process.env.E2E_WORKERS = '1';

const results = [];
/** Names of failed tests, repeated after the summary so the tail of a long log names them. */
const failures = [];
const failedTests = (json, suite) =>
  (json.testResults ?? []).flatMap((file) => {
    const where = path.relative(root, file.name ?? '');
    const tests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    if (tests.length === 0 && file.status === 'failed') return [`${suite}: ${where}: ${file.message ?? 'failed'}`];
    return tests.map(
      (t) => `${suite}: ${where} > ${t.fullName}\n      ${(t.failureMessages?.[0] ?? '').split('\n')[0]}`,
    );
  });
/** Each file's wall time, so the log says where a slow suite spends it (the 30-minute budget). */
const slowest = [];
const slowFiles = (json, suite) =>
  (json.testResults ?? []).map((file) => ({
    where: `${suite}: ${path.relative(root, file.name ?? '')}`,
    seconds: ((file.endTime ?? 0) - (file.startTime ?? 0)) / 1000,
  }));
const run = (cmd, cwd) => spawnSync(cmd[0], cmd.slice(1), { cwd, stdio: 'inherit', env: process.env });
/**
 * Lines that say why a runner failed when no test did (an unhandled error, the secret scan and
 * each of its findings, a worker that died): kept so the summary can repeat them, since the log's tail is what is read.
 */
const RUNNER_FAILURE =
  /unhandled|originated in|secret scan|secret\(s\)| · (password|hash|token|session|webhook|link|totp|recovery) · |worker.*(exit|crash|timeout)|ERR_|Error:/i;
/** The same, without waiting: its output to `logFile` when given, else to ours (and `why`); resolves with the exit code. */
const runAsync = (cmd, cwd, logFile, why = []) =>
  new Promise((resolve) => {
    const log = logFile ? fs.openSync(logFile, 'w') : null;
    const child = spawn(cmd[0], cmd.slice(1), {
      cwd,
      stdio: log === null ? ['inherit', 'pipe', 'pipe'] : ['ignore', log, log],
      env: process.env,
    });
    if (log === null) {
      const keep = (line) => {
        if (!RUNNER_FAILURE.test(line)) return;
        why.push(line.trim());
        if (why.length > 200) why.shift();
      };
      passLines(child.stdout, process.stdout, keep);
      passLines(child.stderr, process.stderr, keep);
    }
    child.on('exit', (code) => {
      if (log !== null) fs.closeSync(log);
      resolve(code ?? 1);
    });
  });

for (const check of checks) {
  if (only.length && !only.includes(check.name)) continue;
  console.log(`\n=== ${check.name} ===`);
  const started = Date.now();
  const res = run(check.cmd, root);
  results.push({
    name: check.name,
    seconds: (Date.now() - started) / 1000,
    passed: 0,
    failed: res.status === 0 ? 0 : 1,
    skipped: 0,
    crashed: res.status !== 0,
  });
}

/** Starts the background checks (those `only` allows); `finish()` waits for them and prints their log. */
function startBeside() {
  const chosen = beside.filter((c) => !only.length || only.includes(c.name));
  if (chosen.length === 0) return { finish: async () => undefined };
  const checksFile = path.join(tmp, 'beside.json');
  const resultsFile = path.join(tmp, 'beside-results.json');
  const logFile = path.join(tmp, 'beside.log');
  fs.writeFileSync(checksFile, JSON.stringify(chosen.map((c) => ({ ...c, cwd: root }))));
  const log = fs.openSync(logFile, 'w');
  console.log(
    `\n=== in the background: ${chosen.map((c) => c.name).join(', ')} (their log follows the last suite) ===`,
  );
  const child = spawn(process.execPath, [path.join(root, 'scripts/run-checks.mjs'), checksFile, resultsFile], {
    cwd: root,
    stdio: ['ignore', log, log],
    env: process.env,
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    async finish() {
      await exited;
      fs.closeSync(log);
      console.log(fs.readFileSync(logFile, 'utf8'));
      const ended = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : [];
      for (const check of chosen) {
        const r = ended.find((e) => e.name === check.name);
        const ok = r?.status === 0;
        if (!ok) {
          const tail = r?.tail?.length ? r.tail.join('\n      ') : '(it did not end, or said nothing)';
          failures.push(`${check.name}: exited ${r?.status ?? 'without a status'}; its last lines:\n      ${tail}`);
        }
        results.push({
          name: check.name,
          seconds: r?.seconds ?? 0,
          passed: 0,
          failed: ok ? 0 : 1,
          skipped: 0,
          crashed: !ok,
        });
      }
    },
  };
}

/** Runs one vitest suite (its output to `logFile` when given) and totals its JSON report. */
async function runSuite(suite, logFile) {
  const report = path.join(tmp, `${suite.name}.json`);
  const started = Date.now();
  const why = [];
  const status = await runAsync(
    ['npx', 'vitest', 'run', ...(suite.args ?? []), '--reporter=default', '--reporter=json', `--outputFile=${report}`],
    path.join(root, suite.dir),
    logFile,
    why,
  );
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (fs.existsSync(report)) {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed = json.numPassedTests ?? 0;
    // numFailedTestSuites counts describe blocks as well as files (one failing test inside two
    // describes read as three failures): count failed tests, plus files that failed with none
    // (an error while loading, a hook that threw).
    const brokenFiles = (json.testResults ?? []).filter(
      (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'),
    );
    failed = (json.numFailedTests ?? 0) + brokenFiles.length;
    skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    failures.push(...failedTests(json, suite.name));
    slowest.push(...slowFiles(json, suite.name));
  }
  // A runner that died (config error, missing database with CI=true) is a failure even with no report.
  const crashed = status !== 0 && failed === 0;
  if (crashed) {
    // Why, from its own log when it wrote one (a suite run alongside another), else from ours.
    const said = logFile && fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n') : why;
    const reasons = said.filter((line) => RUNNER_FAILURE.test(line)).slice(-30);
    failures.push(
      `${suite.name}: the runner exited ${status} with no failed test; its log said:\n      ${reasons.join('\n      ') || '(nothing that names a cause)'}`,
    );
  }
  const seconds = (Date.now() - started) / 1000;
  results.push({ name: suite.name, seconds, passed, failed: failed + (crashed ? 1 : 0), skipped, crashed });
}

// The background lane starts with the browser tests.
let besideRun = null;
const chosenSuites = suites.filter((suite) => !only.length || only.includes(suite.name));
for (const suite of suites) {
  if (suite.name === 'e2e') besideRun = startBeside();
  if (!chosenSuites.includes(suite) || suite.alongside) continue;
  // Suites that run alongside this one start with it (or alone, when it was not chosen).
  const partners = chosenSuites.filter((other) => other.alongside === suite.name);
  console.log(`\n=== ${suite.name} (${suite.dir}) ===`);
  if (partners.length) {
    console.log(`    in the background: ${partners.map((p) => p.name).join(', ')} (their log follows)`);
  }
  const logs = partners.map((partner) => path.join(tmp, `${partner.name}.log`));
  const background = partners.map((partner, i) => runSuite(partner, logs[i]));
  await runSuite(suite);
  await Promise.all(background);
  for (const [i, partner] of partners.entries()) {
    console.log(`\n=== ${partner.name} (${partner.dir}, ran alongside ${suite.name}) ===`);
    console.log(fs.readFileSync(logs[i], 'utf8'));
  }
}
// A suite whose partner was not chosen runs on its own.
for (const suite of chosenSuites) {
  if (!suite.alongside || chosenSuites.some((other) => other.name === suite.alongside)) continue;
  console.log(`\n=== ${suite.name} (${suite.dir}) ===`);
  await runSuite(suite);
}

await (besideRun ?? startBeside()).finish();

/** 75 s → "1 min 15 s": the durations the README's "Working on it" table is kept true from. */
const duration = (seconds) => {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2)} s`;
};
console.log('\nSummary');
for (const r of results) {
  console.log(
    `  ${r.name.padEnd(21)} ${duration(r.seconds).padStart(10)} ${String(r.passed).padStart(5)} passed  ${String(r.failed).padStart(3)} failed${r.skipped ? `  ${r.skipped} skipped` : ''}${r.crashed ? '  (runner failed)' : ''}`,
  );
}
// Wall time: the background lane's steps overlap the browser tests, so the steps add up to more.
console.log(`  ${'total'.padEnd(21)} ${duration((Date.now() - wallStart) / 1000).padStart(10)}`);
const total = results.reduce(
  (a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, skipped: a.skipped + r.skipped }),
  {
    passed: 0,
    failed: 0,
    skipped: 0,
  },
);
console.log('\nSlowest files');
for (const f of slowest.sort((a, b) => b.seconds - a.seconds).slice(0, 25)) {
  console.log(`  ${duration(f.seconds).padStart(10)}  ${f.where}`);
}
if (failures.length) {
  console.log('\nFailed tests');
  for (const f of failures) console.log(`  ${f}`);
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed > 0 ? 1 : 0);
