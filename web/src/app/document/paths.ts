/** The document's read path: the document's query and the page's early reads (public/early-reads.js) ask the same. */
export const documentPath = (documentId: string) => `/api/document/${encodeURIComponent(documentId)}`;
