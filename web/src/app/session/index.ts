/** The session and its signed-in user, shared by every feature (issue 9: no feature reads another's). */
export { fetchMe, ME_QUERY_KEY, meQueryOptions, useCurrentUser, useMeQuery, useRefreshMe } from './current-user';
export { logout, useEnterOccupation, useFreshMe, useLogout, useStartSession } from './api';
export { isUsableWith, type OccupationSummary, orderOccupations } from './occupations';
export { createUnauthorizedHandler, resetClientState } from './session';
export { readSession } from './session-storage';
