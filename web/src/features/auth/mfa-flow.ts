import type { AuthenticationType, Me } from '@eelarve/shared';
import { type ApiError, isApiError } from '../../api';
import type { OccupationSummary } from '../../app/session/occupations';
import { isUsableWith } from '../../app/session/occupations';

/**
 * The way into an occupation whose organisation does not allow the session's authentication type
 * (spec 1, section 4):
 * - a password session and an organisation that allows MFA: the MFA code (or its setup first);
 * - any other mismatch: log out and log in again with a predefined authentication type.
 */
export type OccupationRoute = { kind: 'select' } | { kind: 'mfa'; path: string } | { kind: 'relogin'; path: string };

export function mfaPath(mfaAdded: boolean, occupationId?: string | null): string {
  const base = mfaAdded ? '/enter-mfa-code' : '/setup-mfa';
  return occupationId ? `${base}?${new URLSearchParams({ occupationId }).toString()}` : base;
}

/** /login with the authentication type the chosen organisation needs. */
export function reloginPath(authenticationType: AuthenticationType, occupationId?: string | null): string {
  const params = new URLSearchParams({ authenticationType });
  if (occupationId) params.set('occupationId', occupationId);
  return `/login?${params.toString()}`;
}

/** MFA is reachable from a password session without logging out. */
export function reachableWithMfa(me: Me, allowed: readonly AuthenticationType[]): boolean {
  return me.authenticationType === 'LOGIN' && allowed.includes('LOGIN_WITH_MFA');
}

/** The type to log in with again: a password when allowed, then the electronic ID. */
export function preferredReloginType(me: Me, allowed: readonly AuthenticationType[]): AuthenticationType | null {
  const order: AuthenticationType[] = ['LOGIN', 'LOGIN_WITH_MFA', 'PASS'];
  return order.find((type) => type !== me.authenticationType && allowed.includes(type)) ?? null;
}

function routeForTypes(me: Me, allowed: readonly AuthenticationType[], occupationId: string): OccupationRoute {
  if (reachableWithMfa(me, allowed)) return { kind: 'mfa', path: mfaPath(me.mfaAdded, occupationId) };
  const type = preferredReloginType(me, allowed);
  return type ? { kind: 'relogin', path: reloginPath(type, occupationId) } : { kind: 'select' };
}

export function routeForOccupation(me: Me, occupation: OccupationSummary): OccupationRoute {
  if (isUsableWith(occupation, me.authenticationType)) return { kind: 'select' };
  return routeForTypes(me, occupation.allowedAuthenticationTypes, occupation.id);
}

function detailsOf(error: ApiError): Record<string, unknown> {
  return typeof error.details === 'object' && error.details !== null && !Array.isArray(error.details) ? (error.details as Record<string, unknown>) : {};
}

/**
 * The server's answer when an occupation cannot be entered as things are: 403 ENTER_MFA_CODE or
 * MFA_NOT_SET_UP (details.occupationId), or ORGANIZATION_UNSUITABLE with the required types.
 * Null: an ordinary error.
 */
export function routeForSelectError(me: Me, error: unknown, occupationId: string): OccupationRoute | null {
  if (!isApiError(error)) return null;
  const details = detailsOf(error);
  const id = typeof details.occupationId === 'string' ? details.occupationId : occupationId;
  if (error.code === 'ENTER_MFA_CODE') return { kind: 'mfa', path: mfaPath(true, id) };
  if (error.code === 'MFA_NOT_SET_UP') return { kind: 'mfa', path: mfaPath(false, id) };
  if (error.code === 'ORGANIZATION_UNSUITABLE' && Array.isArray(details.requiredAuthenticationTypes)) {
    const route = routeForTypes(me, details.requiredAuthenticationTypes as AuthenticationType[], id);
    return route.kind === 'select' ? null : route;
  }
  return null;
}

/**
 * Spec 1, section 4: "With only MFA-capable organisations: if MFA is not added go to setup,
 * otherwise to code entry." The occupation is passed on when there is only one.
 */
export function automaticMfaPath(me: Me): string | null {
  if (me.occupationId || me.occupations.length === 0) return null;
  if (me.occupations.some((occupation) => isUsableWith(occupation, me.authenticationType))) return null;
  if (!me.occupations.every((occupation) => reachableWithMfa(me, occupation.allowedAuthenticationTypes))) return null;
  return mfaPath(me.mfaAdded, me.occupations.length === 1 ? me.occupations[0]!.id : null);
}
