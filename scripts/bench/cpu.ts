/**
 * CPU time spent by this process and by an embedded PostgreSQL server (Linux /proc only). Other
 * busy processes on the machine stretch wall-clock figures but hardly change these, so a
 * benchmark can tell a slow query from a crowded machine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const USER_HZ = 100;

/** utime + stime of a process (or of one thread: `<pid>/task/<tid>`), with its waited-for children's, and its parent, from /proc/<pid>/stat. */
function procStat(pid: string): { ppid: number; own: number; children: number } | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = (index: number) => Number(fields[index]);
    return { ppid: ticks(1), own: ticks(11) + ticks(12), children: ticks(13) + ticks(14) };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) one process has used so far; null when it is gone. */
export function processSeconds(pid: number): number | null {
  const stat = procStat(String(pid));
  return stat ? stat.own / USER_HZ : null;
}

/** CPU seconds of a process's main thread (its thread id is the process id), e.g. the event loop of a Node process with worker threads; null when it is gone. */
export function mainThreadSeconds(pid: number): number | null {
  const stat = procStat(`${pid}/task/${pid}`);
  return stat ? stat.own / USER_HZ : null;
}

/** The postmaster's process id, from the data directory's postmaster.pid. */
export function postmasterPidOf(dataDir: string): number | null {
  try {
    return Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

/** CPU seconds of the server: the postmaster, its live backends, and the ones that have exited. */
function serverSeconds(postmasterPid: number): number | null {
  const postmaster = procStat(String(postmasterPid));
  if (!postmaster) return null;
  let ticks = postmaster.own + postmaster.children;
  for (const entry of readdirSync('/proc')) {
    const stat = /^\d+$/.test(entry) ? procStat(entry) : null;
    if (stat?.ppid === postmasterPid) ticks += stat.own;
  }
  return ticks / USER_HZ;
}

export interface CpuSeconds {
  client: number;
  /** Null when the server is not ours to watch (DATABASE_URL) or /proc is not there. */
  server: number | null;
}

/** A reading of both; the difference of two readings is what happened between them. */
export function cpuNow(postmasterPid: number | null): CpuSeconds {
  const { user, system } = process.cpuUsage();
  return { client: (user + system) / 1e6, server: postmasterPid === null ? null : serverSeconds(postmasterPid) };
}

export function cpuSince(start: CpuSeconds, postmasterPid: number | null): CpuSeconds {
  const now = cpuNow(postmasterPid);
  return { client: now.client - start.client, server: now.server === null || start.server === null ? null : now.server - start.server };
}
