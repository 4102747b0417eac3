import type { AppConfig } from '../../config';
import type { Flow } from './flow-cookie';
import type { ElectronicIdFailure } from './oidc-client';

/** The provider's redirect back (authorization code response). */
export const CALLBACK_PATH = '/public/auth/pass-callback';

/** What a flow is started for, before the provider's part is added. */
export type FlowStart = Pick<Flow, 'mode' | 'redirect' | 'userId' | 'sessionHash' | 'token' | 'tokenType'>;

/** Where the web client shows the outcome of a failed flow: the page it started from. */
export function failureLocation(flow: Pick<FlowStart, 'mode' | 'token' | 'tokenType'> | null, reason: ElectronicIdFailure): string {
  const flags = new URLSearchParams({ eidError: 'true', eidReason: reason });
  if (flow?.mode === 'bind') return `/account?${flags}`;
  if (flow?.mode === 'confirm' && flow.token) {
    const page = flow.tokenType === 'RESET' ? '/update-password' : '/confirm';
    return `${page}?${new URLSearchParams({ token: flow.token, ...(flow.tokenType ? { type: flow.tokenType } : {}) })}&${flags}`;
  }
  return `/login?${flags}`;
}

/** Only a path on this site: no scheme, no host, no protocol-relative `//`. */
export function safeRedirect(value: string | undefined): string | undefined {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  const base = 'http://local.invalid';
  const url = new URL(value, base);
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : undefined;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The redirect URI registered with the provider: under PUBLIC_URL. Cookies are per host, so the
 * callback must reach the host the flow started on; outside production a loopback alias of
 * PUBLIC_URL (127.0.0.1 for localhost, same port) is used as it is, which is what the local
 * demo provider registers too.
 */
export function callbackUrl(config: Pick<AppConfig, 'publicUrl' | 'environment'>, request: { protocol: string; host: string }): string {
  const canonical = new URL(config.publicUrl);
  if (config.environment !== 'production' && canonical.pathname === '/') {
    const own = new URL(`${request.protocol}://${request.host}`);
    if (own.protocol === canonical.protocol && own.port === canonical.port && LOOPBACK.has(own.hostname) && LOOPBACK.has(canonical.hostname)) {
      return `${own.origin}${CALLBACK_PATH}`;
    }
  }
  return `${config.publicUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`;
}
