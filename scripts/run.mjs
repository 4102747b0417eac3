#!/usr/bin/env node
// The two commands of README: `npm start` (install, build, start with demo data) and
// `npm test` (install, then every suite). Plain Node so it runs before anything is installed.
import { execSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const command = process.argv[2];

function run(line, options = {}) {
  const result = spawnSync(line, { cwd: root, stdio: 'inherit', shell: true, ...options });
  if (result.status !== 0 && !options.allowFailure) process.exit(result.status ?? 1);
  return result.status;
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
  console.log(`\ntests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
  rmSync(reportFile, { force: true });
}

/**
 * Runs the gateway (no pnpm/tsx wrapper in between) in its own process group and hands it each
 * Ctrl+C exactly once: the terminal signals every process of its group and npm forwards the signal
 * to us as well, so signals within a second of the last one count as the same press. The first
 * makes the gateway drain and stop the database; a second press forces it. We wait for it to end.
 */
function serve() {
  const server = spawn(process.execPath, ['--import', 'tsx', 'services/gateway/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { DEMO_DATA: 'true', ...process.env },
    detached: true,
  });
  let lastForwarded = 0;
  const forward = (signal) => {
    if (Date.now() - lastForwarded < 1_000) return;
    lastForwarded = Date.now();
    server.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (command === 'start') {
  install();
  run('pnpm --filter @eelarve/web build');
  serve();
} else if (command === 'test') {
  install();
  ensureChromium();
  run('pnpm lint');
  run('pnpm typecheck');
  run('pnpm --filter @eelarve/web build');
  const reportFile = path.join(os.tmpdir(), `eelarve-vitest-${process.pid}.json`);
  const status = run(`pnpm exec vitest run --reporter=default --reporter=json --outputFile.json=${reportFile}`, { allowFailure: true });
  summarise(reportFile);
  process.exit(status ?? 1);
} else {
  console.error('usage: node scripts/run.mjs start|test');
  process.exit(2);
}
