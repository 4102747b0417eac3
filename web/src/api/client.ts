import { recordApiInfo } from './api-info';
import { earlyReadKey, takeEarlyRead } from './early-reads';
import { ApiError, codeForStatus } from './errors';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Leave a 401 to the caller instead of treating it as an expired session: the login call
   * (401 there means a wrong password) and logout (the session is gone either way).
   */
  ignoreUnauthorized?: boolean;
  /** Send the JSON body gzip-compressed (spec 3, section 7: the records import). */
  gzip?: boolean;
}

type UnauthorizedHandler = () => void;
let unauthorizedHandler: UnauthorizedHandler = () => {};

/** Registered once by the app: what to do when any call answers 401 (spec 1, section 4: session expiry). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  unauthorizedHandler = handler;
}

/** Calls the gateway with the session cookie; resolves to the JSON body or throws an ApiError. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, ignoreUnauthorized = false, gzip = false } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (body !== undefined && gzip) headers['Content-Encoding'] = 'gzip';

  const json = body === undefined ? undefined : JSON.stringify(body);
  let response: Response;
  try {
    response = await (earlyResponse(method, path, json, signal, gzip) ??
      fetch(path, {
        method,
        headers,
        body: json === undefined ? undefined : await encodeBody(json, gzip),
        credentials: 'same-origin',
        signal,
      }));
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError(0, 'NETWORK_ERROR', cause instanceof Error ? cause.message : undefined);
  }

  recordApiInfo(response.headers);

  if (response.ok) {
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  const errorBody = await readErrorBody(response);
  const error = new ApiError(
    response.status,
    codeForStatus(response.status, errorBody?.code),
    typeof errorBody?.message === 'string' ? errorBody.message : response.statusText,
    errorBody?.details,
  );
  if (response.status === 401 && !ignoreUnauthorized) unauthorizedHandler();
  throw error;
}

/** JSON text, or its gzip (CompressionStream: a 100,000-row import shrinks about tenfold). */
async function encodeBody(json: string, gzip: boolean): Promise<BodyInit> {
  if (!gzip) return json;
  return new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('gzip'))).blob();
}

/** A read the page started before the app loaded (public/early-reads.js): it answers the app's first ask of the same read. */
function earlyResponse(method: string, path: string, json: string | undefined, signal: AbortSignal | undefined, gzip: boolean) {
  if (signal !== undefined || gzip) return undefined;
  if (method === 'GET' && json === undefined) return takeEarlyRead(earlyReadKey('GET', path));
  if (method === 'POST' && json !== undefined) return takeEarlyRead(earlyReadKey('POST', path, json));
  return undefined;
}

async function readErrorBody(response: Response): Promise<Record<string, unknown> | null> {
  try {
    const parsed: unknown = await response.json();
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
