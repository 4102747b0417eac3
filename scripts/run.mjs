#!/usr/bin/env node
// The two commands of README: `npm start` (install, build, start with demo data) and
// `npm test` (install, then every suite). Plain Node so it runs before anything is installed.
import { execSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serviceNodeFlags } from './service-flags.mjs';

const root = path.resolve(import.meta.dirname, '..');
const command = process.argv[2];

function run(line, options = {}) {
  const result = spawnSync(line, { cwd: root, stdio: 'inherit', shell: true, ...options });
  if (result.status !== 0 && !options.allowFailure) process.exit(result.status ?? 1);
  return result.status;
}

/**
 * Runs independent steps at the same time (each mostly waits on one core, the machine has two),
 * prints each one's output whole once it ends, in the given order, and exits if any failed.
 */
async function runTogether(lines) {
  const steps = lines.map((line) => {
    const child = spawn(line, { cwd: root, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output += chunk));
    return new Promise((resolve) => child.on('close', (code) => resolve({ line, code, output: () => output })));
  });
  let failed = 0;
  for (const step of steps) {
    const { line, code, output } = await step;
    console.log(`> ${line}`);
    process.stdout.write(output());
    if (code !== 0) failed = code ?? 1;
  }
  if (failed !== 0) process.exit(failed);
}

function has(line) {
  try {
    execSync(line, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function ensurePnpm() {
  if (has('pnpm --version')) return;
  console.log('> installing pnpm (npm install -g pnpm@10)');
  run('npm install -g pnpm@10');
}

/** Browser tests drive Debian's Chromium; as root we can install it. */
function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return;
  if (os.userInfo().uid === 0 && has('apt-get --version')) {
    console.log('> installing chromium for the browser tests (apt-get)');
    run('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null');
  } else {
    console.warn('! /usr/bin/chromium is missing: install the chromium package for the browser tests');
  }
}

function install() {
  ensurePnpm();
  run('pnpm install --frozen-lockfile --reporter=append-only');
}

function summarise(reportFile) {
  if (!existsSync(reportFile)) return;
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const skipped = report.numPendingTests + report.numTodoTests;
  // The names of failed tests next to the counts, so that a run's last lines say what to look at.
  for (const file of report.testResults ?? []) {
    if (file.status === 'failed' && file.message) {
      console.log(`failed: ${path.relative(process.cwd(), file.name)}: ${file.message.split('\n')[0]}`);
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      console.log(`failed: ${path.relative(process.cwd(), file.name)} > ${test.fullName}`);
      const message = (test.failureMessages ?? [])[0];
      if (message) console.log(`  ${message.split('\n').slice(0, 6).join('\n  ')}`);
    }
  }
  console.log(`\ntests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
  rmSync(reportFile, { force: true });
}

/**
 * The gateway's API tests that lean most on the runtime itself: crypto, cookies and sessions (auth,
 * sessions, passwords, mfa, secrets), fetch and JOSE (electronic-id), streams, multipart and zip
 * (uploads), zlib and static files (web-serving, security-headers), SMTP sockets (mail), child
 * processes and signals (restarts), background tasks (documents, copy-interruptions, tasks), demo
 * seeding and route access. About a third of the gateway suite's time: the rest (races, fuzzing,
 * read-model details) checks our logic more than the runtime, and running it on Node.js 24 as well
 * would add minutes to every CI run.
 */
const RUNTIME_API_TESTS = [
  'auth',
  'sessions',
  'passwords',
  'mfa',
  'secrets',
  'electronic-id',
  'uploads',
  'web-serving',
  'security-headers',
  'mail',
  'restarts',
  'documents',
  'copy-interruptions',
  'tasks',
  'demo',
  'route-access',
].map((name) => `services/gateway/test/${name}.test.ts`);

const quote = (word) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Runs vitest on the Node.js that runs this script (not the one pnpm would find on PATH), so
 * `<node24> scripts/run.mjs api-tests` tests on Node.js 24; ends with the `tests:` line CI parses.
 */
function vitest(paths = []) {
  const reportFile = path.join(os.tmpdir(), `eelarve-vitest-${process.pid}.json`);
  const vitestBin = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const line = [process.execPath, vitestBin, 'run', ...paths, '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`].map(quote).join(' ');
  // As `pnpm exec` did: the workspace's tools first on PATH for tests that spawn them.
  const env = { ...process.env, PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}` };
  const status = run(line, { allowFailure: true, env });
  summarise(reportFile);
  process.exit(status ?? 1);
}

/** A service's entry (no pnpm/tsx wrapper in between) in its own process group, so only we signal it. */
function startService(entry, env) {
  return spawn(process.execPath, [...serviceNodeFlags(), '--import', 'tsx', entry], { cwd: root, stdio: 'inherit', env, detached: true });
}

/** Resolves once the gateway answers HTTP (its database is up and migrated, DATA_DIR/postgres.json written). */
async function gatewayAnswers(env, gateway) {
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  const url = `http://${host}:${env.PORT ?? 3000}/health`;
  while (gateway.exitCode === null && gateway.signalCode === null) {
    const answered = await fetch(url).then(
      () => true,
      () => false,
    );
    if (answered) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/**
 * Runs the gateway and, once it answers, the task worker beside it (services/workers: document
 * and budget copies), and hands them each Ctrl+C exactly once: the terminal signals every process
 * of its group and npm forwards the signal to us as well, so signals within a second of the last
 * one count as the same press. The first stops the worker (its running tasks finish, or go back
 * to the queue), then the gateway, which drains and stops the database last; a second press
 * forces both. We wait for the gateway to end.
 */
function serve() {
  const env = { DEMO_DATA: 'true', ...process.env };
  const gateway = startService('services/gateway/src/main.ts', env);
  let worker = null;
  let stopping = false;
  gatewayAnswers(env, gateway).then((up) => {
    if (!up || stopping) return;
    worker = startService('services/workers/src/main.ts', env);
    worker.on('exit', (code, signal) => {
      if (!stopping) console.error(`! the task worker stopped (${signal ?? `exit code ${code}`}); copies wait until it runs again`);
    });
  });
  const workerRunning = () => worker && worker.exitCode === null && worker.signalCode === null;
  let presses = 0;
  let lastForwarded = 0;
  const forward = (signal) => {
    if (Date.now() - lastForwarded < 1_000) return;
    lastForwarded = Date.now();
    stopping = true;
    presses += 1;
    if (presses > 1 || !workerRunning()) {
      if (workerRunning()) worker.kill('SIGKILL');
      gateway.kill(signal);
      return;
    }
    // The worker first: its tasks still need the database the gateway stops last.
    const stopGateway = () => gateway.kill(signal);
    const bound = setTimeout(stopGateway, 35_000);
    worker.once('exit', () => {
      clearTimeout(bound);
      stopGateway();
    });
    worker.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  gateway.on('exit', (code, signal) => {
    if (workerRunning()) worker.kill('SIGTERM');
    process.exit(code ?? (signal ? 1 : 0));
  });
}

if (command === 'start') {
  install();
  run('pnpm --filter @eelarve/web build');
  serve();
} else if (command === 'test') {
  install();
  ensureChromium();
  await runTogether(['pnpm lint', 'pnpm typecheck', 'pnpm --filter @eelarve/web build']);
  vitest();
} else if (command === 'api-tests') {
  // .ci/run runs these on Node.js 24 after `npm test`; `api-tests all` runs the whole gateway suite.
  install();
  vitest(process.argv[3] === 'all' ? ['services/gateway/test'] : RUNTIME_API_TESTS);
} else {
  console.error('usage: node scripts/run.mjs start|test|api-tests [all]');
  process.exit(2);
}
