import type { StoredSettingType } from '@eelarve/shared';
import { documentPath } from '../../app/document/paths';

/**
 * The paths of the report screen's reads before its data. The page's early reads
 * (public/early-reads.js) start the same paths before the app's code is loaded, and the queries
 * (api.ts) take those answers; early-reads.test.ts keeps the two lists equal.
 */
const enc = encodeURIComponent;

export const userSettingPath = (type: 'REPORT' | 'REPORT_COLUMNS', documentId: string, budgetId: string) =>
  `/api/user-settings?type=${type}&documentId=${enc(documentId)}&budgetId=${enc(budgetId)}`;

export const storedSettingsPath = (documentId: string, budgetId: string, type: StoredSettingType) =>
  `/api/stored-settings?documentId=${enc(documentId)}&budgetId=${enc(budgetId)}&type=${type}`;

export const schemesPath = (documentId: string) => `/api/document/${enc(documentId)}/schemas`;

export const classifiersPath = (documentId: string) => `/api/document/${enc(documentId)}/classifiers?includeMeta=false`;

/** What the report's first request is computed from (report-prefetch.ts): the document, the remembered settings, the views, schemes and classifiers. */
export const reportOpeningPaths = (documentId: string, budgetId: string): string[] => [
  documentPath(documentId),
  userSettingPath('REPORT', documentId, budgetId),
  userSettingPath('REPORT_COLUMNS', documentId, budgetId),
  storedSettingsPath(documentId, budgetId, 'REPORT'),
  schemesPath(documentId),
  classifiersPath(documentId),
];

/** The report route's path, as the router has it: /document/{documentId}/budget/{budgetId}/report. */
export function reportRouteParams(pathname: string): { documentId: string; budgetId: string } | null {
  const match = /^\/document\/([^/]+)\/budget\/([^/]+)\/report\/?$/.exec(pathname);
  return match?.[1] && match[2] ? { documentId: decodeURIComponent(match[1]), budgetId: decodeURIComponent(match[2]) } : null;
}
