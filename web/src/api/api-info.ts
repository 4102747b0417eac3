import { API_BUILD_TIME_HEADER, API_REVISION_HEADER, API_VERSION_HEADER } from '@eelarve/shared';
import { useSyncExternalStore } from 'react';

/** The API build seen in the latest response headers (shown in the drawer footer). */
export interface ApiInfo {
  version: string | null;
  revision: string | null;
  buildTime: string | null;
}

let current: ApiInfo = { version: null, revision: null, buildTime: null };
const listeners = new Set<() => void>();

export function recordApiInfo(headers: Headers): void {
  const version = headers.get(API_VERSION_HEADER);
  const revision = headers.get(API_REVISION_HEADER);
  const buildTime = headers.get(API_BUILD_TIME_HEADER);
  if (!version && !revision && !buildTime) return;
  if (version === current.version && revision === current.revision && buildTime === current.buildTime) return;
  current = { version, revision, buildTime };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useApiInfo(): ApiInfo {
  return useSyncExternalStore(subscribe, () => current);
}

/**
 * The front end's own build, injected by vite.config.ts (`define`). Outside a Vite build (unit
 * tests) the constants do not exist, hence the typeof guards.
 */
export const FRONT_END_INFO = {
  version: typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0',
  revision: typeof __APP_REVISION__ === 'string' ? __APP_REVISION__ : 'dev',
  buildTime: typeof __APP_BUILD_TIME__ === 'string' ? __APP_BUILD_TIME__ : null,
  environment: typeof __APP_ENVIRONMENT__ === 'string' ? __APP_ENVIRONMENT__ : 'development',
} as const;
