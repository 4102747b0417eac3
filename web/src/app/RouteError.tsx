import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ApplicationErrorPage } from './errors/ApplicationErrorPage';
import { NotFoundPage } from './errors/NotFoundPage';

/** The router's error element: a crash while rendering a route. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error('Application error', error);
  return <ApplicationErrorPage error={error} />;
}
