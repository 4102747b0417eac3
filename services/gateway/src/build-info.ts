import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface BuildInfo {
  version: string;
  revision: string;
  buildTime: string;
}

function gitRevision(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

/** The API's version, revision and build time, sent as response headers (spec 1, section 2). */
export function readBuildInfo(): BuildInfo {
  const rootPackage = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as { version?: string };
  return {
    version: rootPackage.version ?? '0.0.0',
    revision: process.env.BUILD_REVISION ?? gitRevision(),
    buildTime: process.env.BUILD_TIME ?? new Date().toISOString(),
  };
}
