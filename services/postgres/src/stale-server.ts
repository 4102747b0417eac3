import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * A gateway killed outright (an out-of-memory kill, SIGKILL) cannot stop its embedded server: the
 * server keeps running, holds the data directory's lock (postmaster.pid), and the next start
 * fails. Before starting, we look at that lock:
 * - no lock, or the pid in it is gone, or it now belongs to some other program: the lock is
 *   stale; remove it (Postgres itself refuses to start when the pid was reused by a live process);
 * - a postgres whose parent is a live Node process: another gateway (or CLI) runs this data
 *   directory; refuse with a clear message rather than pull the database from under it;
 * - a postgres whose parent is gone (it was adopted by init): an orphan of a dead gateway; stop
 *   it (fast shutdown, so committed work stays) and start our own.
 * We stop rather than reuse the orphan: it is not our child, so we could not notice its death,
 * read its log or restart it, and it may run on another port with other settings.
 */

export type StaleServerEvent = { type: 'stale-server-stopped'; pid: number } | { type: 'stale-lock-removed'; pid: number };

interface ProcessInfo {
  ppid: number;
  args: string[];
}

/** Seconds a fast shutdown gets before an immediate one (SIGQUIT), and that before SIGKILL. */
const FAST_STOP_MS = 30_000;
const IMMEDIATE_STOP_MS = 5_000;

export async function clearStaleServer(dataDir: string, onEvent: (event: StaleServerEvent) => void = () => {}): Promise<void> {
  const lockFile = path.join(dataDir, 'postmaster.pid');
  const pid = await lockedPid(lockFile);
  if (pid === null) return;
  const server = processInfo(pid);
  if (!server || !isServerOf(server, dataDir)) {
    await unlink(lockFile).catch(() => {});
    onEvent({ type: 'stale-lock-removed', pid });
    return;
  }
  const owner = processInfo(server.ppid);
  if (server.ppid > 1 && owner && isNode(owner)) {
    throw new Error(`PostgreSQL in ${dataDir} (pid ${pid}) belongs to the running process ${server.ppid} (${owner.args.join(' ')}); stop that process first`);
  }
  await stopProcess(pid);
  onEvent({ type: 'stale-server-stopped', pid });
}

async function lockedPid(lockFile: string): Promise<number | null> {
  const text = await readFile(lockFile, 'utf8').catch(() => null);
  const pid = Number(text?.split('\n')[0]?.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** A live (not zombie) process's parent and command line, or null when there is none. */
export function processInfo(pid: number): ProcessInfo | null {
  return existsSync('/proc/self/stat') ? processInfoFromProc(pid) : processInfoFromPs(pid);
}

function processInfoFromProc(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z' || state === 'X') return null;
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { ppid: Number(ppid), args };
  } catch {
    return null;
  }
}

function processInfoFromPs(pid: number): ProcessInfo | null {
  try {
    const line = execFileSync('ps', ['-o', 'stat=', '-o', 'ppid=', '-o', 'args=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const [state, ppid, ...args] = line.split(/\s+/);
    if (!state || state.startsWith('Z')) return null;
    return { ppid: Number(ppid), args };
  } catch {
    // ps exits non-zero when there is no such process.
    return null;
  }
}

function isServerOf(info: ProcessInfo, dataDir: string): boolean {
  if (!/^postgres(:|$)/.test(path.basename(info.args[0] ?? ''))) return false;
  const flag = info.args.indexOf('-D');
  return flag < 0 || path.resolve(info.args[flag + 1] ?? '') === path.resolve(dataDir);
}

function isNode(info: ProcessInfo): boolean {
  return /^node/.test(path.basename(info.args[0] ?? ''));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!processInfo(pid)) return true;
    await sleep(100);
  }
  return !processInfo(pid);
}

/** Fast shutdown, then immediate shutdown, then SIGKILL, each given its time. */
async function stopProcess(pid: number): Promise<void> {
  for (const [signal, waitMs] of [
    ['SIGINT', FAST_STOP_MS],
    ['SIGQUIT', IMMEDIATE_STOP_MS],
    ['SIGKILL', IMMEDIATE_STOP_MS],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
      throw error;
    }
    if (await waitForExit(pid, waitMs)) return;
  }
  throw new Error(`the stale PostgreSQL server (pid ${pid}) did not stop`);
}
