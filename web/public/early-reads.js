// The page's first reads, started before the app's code has loaded (index.html lists this small
// script first; served as is, not bundled, so that it runs at once rather than after the app's
// chunks). The app's first request for one of these paths takes the response in flight
// (src/api/early-reads.ts); the paths are the app's own (src/features/report/opening-paths.ts,
// kept equal by early-reads.test.ts). Only for a browser that remembers a session in an
// occupation: anyone else is sent to sign in first, and their reads would answer 401.
(() => {
  try {
    const session = JSON.parse(window.localStorage.getItem('eelarve.session') || 'null');
    if (!session?.occupationId) return;
    const enc = encodeURIComponent;
    const paths = ['/api/auth/me'];
    const report = /^\/document\/([^/]+)\/budget\/([^/]+)\/report\/?$/.exec(window.location.pathname);
    if (report) {
      const [documentId, budgetId] = [enc(decodeURIComponent(report[1])), enc(decodeURIComponent(report[2]))];
      paths.push(
        `/api/document/${documentId}`,
        `/api/user-settings?type=REPORT&documentId=${documentId}&budgetId=${budgetId}`,
        `/api/user-settings?type=REPORT_COLUMNS&documentId=${documentId}&budgetId=${budgetId}`,
        `/api/stored-settings?documentId=${documentId}&budgetId=${budgetId}&type=REPORT`,
        `/api/document/${documentId}/schemas`,
        `/api/document/${documentId}/classifiers?includeMeta=false`,
      );
    }
    const reads = new Map();
    for (const path of paths) {
      const response = fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      // A failed read is the app's to repeat when it asks; not an unhandled rejection meanwhile.
      response.catch(() => undefined);
      reads.set(path, { response, startedAt: performance.now() });
    }
    window.__eelarveEarlyReads = reads;
  } catch {
    // Without early reads the app reads as it always does.
  }
})();
