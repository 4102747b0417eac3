#!/usr/bin/env node
// Start smoke for CI (.ci/run), run under the Node.js being checked: `npm start` as a user runs it
// (install, web build, the product with embedded PostgreSQL and demo data) on free ports in a
// fresh data directory, then /ready, sign-in through the API and the demo organisation, then stop.
// Plain Node, no dependencies: it checks the runtime, so it must not need the product to load.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const READY_TIMEOUT_MS = 5 * 60_000;
const STOP_TIMEOUT_MS = 60_000;
// The demo administrator (services/gateway/src/config.ts DEMO_ADMIN) and the first demo organisation.
const ADMIN = { username: 'admin@eelarve.local', password: 'Eelarve-Demo-2026' };
const DEMO_ORGANIZATION = 'Tartu Linnavalitsus';

function isFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The product listens on PORT and its local electronic-ID stand-in on PORT+1: both must be free. */
async function freePortPair() {
  for (let port = 3400 + Math.floor(Math.random() * 80); port < 3500; port += 2) {
    if ((await isFree(port)) && (await isFree(port + 1))) return port;
  }
  throw new Error('no free pair of ports in 3400-3499');
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntilReady(base, product) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (product.exitCode !== null) throw new Error(`npm start ended before it was ready (exit ${product.exitCode})`);
    const response = await fetch(`${base}/ready`).catch(() => null);
    if (response?.ok) return;
    await sleep(1_000);
  }
  throw new Error(`${base}/ready did not answer 200 within ${READY_TIMEOUT_MS / 1000} s`);
}

async function signIn(base) {
  const login = await fetch(`${base}/initial/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  if (login.status !== 200) throw new Error(`sign-in answered ${login.status}: ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const me = await fetch(`${base}/api/auth/me`, { headers: { cookie } });
  if (me.status !== 200) throw new Error(`GET /api/auth/me answered ${me.status}: ${await me.text()}`);
  const { occupations = [] } = await me.json();
  if (!occupations.some((occupation) => occupation.organizationName === DEMO_ORGANIZATION))
    throw new Error(`the demo data is missing: no occupation in ${DEMO_ORGANIZATION}`);
}

/** run.mjs forwards SIGTERM to the product, which drains and stops its database; we wait for that. */
async function stop(product) {
  if (product.exitCode !== null) return product.exitCode;
  const ended = new Promise((resolve) => product.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
  product.kill('SIGTERM');
  // An unref'd timer: once the product has stopped, nothing is left to keep this script alive.
  const timedOut = new Promise((resolve) => setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS).unref());
  const code = await Promise.race([ended, timedOut]);
  if (code === 'timeout') {
    process.kill(-product.pid, 'SIGKILL');
    throw new Error(`npm start did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM`);
  }
  return code;
}

async function main() {
  const port = await freePortPair();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'eelarve-start-smoke-'));
  // As root, the embedded PostgreSQL runs as the postgres user, who must be able to enter it.
  chmodSync(dataDir, 0o755);
  const started = Date.now();
  console.log(`> start smoke on Node.js ${process.version}: npm start at ${base}`);
  const product = spawn(process.execPath, ['scripts/run.mjs', 'start'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO_DATA: 'true', NODE_ENV: 'development' },
    detached: true,
  });
  let failure = null;
  try {
    await waitUntilReady(base, product);
    await signIn(base);
  } catch (error) {
    failure = error;
  }
  const exitCode = await stop(product).catch((error) => {
    failure ??= error;
    return 1;
  });
  rmSync(dataDir, { recursive: true, force: true });
  if (!failure && exitCode !== 0) failure = new Error(`npm start exited with ${exitCode} after SIGTERM`);
  if (failure) {
    console.error(`! start smoke on Node.js ${process.version} failed: ${failure.message}`);
    process.exit(1);
  }
  console.log(
    `> start smoke on Node.js ${process.version} passed in ${Math.round((Date.now() - started) / 1000)} s: ready, signed in, demo data there, stopped cleanly`,
  );
}

await main();
