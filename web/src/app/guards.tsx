import { type ReactNode, useEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { Spinner } from '../components/Spinner';
import { useCurrentUser, useMeQuery } from './session';
import { clearExpiredSession, postLoginTarget, rememberSession } from './session/session-storage';
import { ApplicationErrorPage } from './errors/ApplicationErrorPage';
import { ForbiddenPage } from './errors/ForbiddenPage';
import type { AccessRule } from './access';

/** Loads the session's user once before any page renders. */
export function AuthGate() {
  const { data: me, isPending, isError, error } = useMeQuery();

  useEffect(() => {
    if (me) rememberSession(me);
  }, [me]);

  if (isPending) return <Spinner fullPage />;
  if (isError) return <ApplicationErrorPage error={error} />;
  return <Outlet />;
}

/** /login: a signed-in user is sent on (occupation selection, the remembered page, or home). */
export function PublicOnly() {
  const { data: me } = useMeQuery();
  if (me) return <Navigate to={postLoginTarget(me)} replace />;
  return <Outlet />;
}

/** Pages that need a user but not yet an occupation (/select-occupation). */
export function RequireUser() {
  const { data: me } = useMeQuery();
  if (!me) return <Navigate to="/login" replace />;
  return <Outlet />;
}

/** The main area: no user goes to /login, a user without an occupation to /select-occupation. */
export function RequireOccupation() {
  const { data: me } = useMeQuery();
  if (!me) return <Navigate to="/login" replace />;
  if (!me.occupationId) return <Navigate to="/select-occupation" replace />;
  return <SignedIn />;
}

function SignedIn() {
  useEffect(() => {
    // Signed in again: the last session's expiry record has served its purpose.
    clearExpiredSession();
  }, []);
  return <Outlet />;
}

/** Shows the forbidden page when the user lacks the privilege for the area. */
export function RequireAccess({ rule, children }: { rule: AccessRule; children?: ReactNode }) {
  const me = useCurrentUser();
  if (!rule(me)) return <ForbiddenPage />;
  return children ?? <Outlet />;
}
