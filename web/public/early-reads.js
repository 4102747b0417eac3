// The page's first reads, started before the app's code has loaded (index.html lists this small
// script first; served as is, not bundled, so that it runs at once rather than after the app's
// chunks). The app's first request for one of these reads takes the response in flight
// (src/api/early-reads.ts). The paths are the app's own (src/features/report/opening-paths.ts),
// and on a report the request this browser last asked there (opening-memory.ts), kept equal by
// early-reads.test.ts. Only for a browser that remembers a session in an occupation: anyone else
// is sent to sign in first, and their reads would answer 401.
(() => {
  try {
    const stored = (key) => JSON.parse(window.localStorage.getItem(key) || 'null');
    const session = stored('eelarve.session');
    if (!session?.occupationId) return;
    const reads = new Map();
    const read = (key, path, init) => {
      const response = fetch(path, { credentials: 'same-origin', ...init, headers: { Accept: 'application/json', ...init?.headers } });
      // A failed read is the app's to repeat when it asks; not an unhandled rejection meanwhile.
      response.catch(() => undefined);
      reads.set(key, { response, startedAt: performance.now() });
    };
    const get = (path) => read(path, path);
    get('/api/auth/me');
    const report = /^\/document\/([^/]+)\/budget\/([^/]+)\/report\/?$/.exec(window.location.pathname);
    if (report) {
      const [documentId, budgetId] = [decodeURIComponent(report[1]), decodeURIComponent(report[2])];
      const [d, b] = [encodeURIComponent(documentId), encodeURIComponent(budgetId)];
      get(`/api/document/${d}`);
      get(`/api/user-settings?type=REPORT&documentId=${d}&budgetId=${b}`);
      get(`/api/user-settings?type=REPORT_COLUMNS&documentId=${d}&budgetId=${b}`);
      get(`/api/stored-settings?documentId=${d}&budgetId=${b}&type=REPORT`);
      get(`/api/document/${d}/schemas`);
      get(`/api/document/${d}/classifiers?includeMeta=false`);
      const opening = stored('eelarve.reportOpening');
      const same = opening && opening.budgetId === budgetId && opening.userId === session.userId && opening.occupationId === session.occupationId;
      if (same && typeof opening.body === 'string') {
        const path = `/api/budget/${b}/report`;
        read(`POST ${path} ${opening.body}`, path, { method: 'POST', body: opening.body, headers: { 'Content-Type': 'application/json' } });
      }
    }
    window.__eelarveEarlyReads = reads;
  } catch {
    // Without early reads the app reads as it always does.
  }
})();
