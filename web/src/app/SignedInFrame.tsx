import { useLocation } from 'react-router';
import { DocumentSider } from '../features/documents/DocumentSider';
import { AppShell } from '../features/shell/AppShell';

/** The document sider sits beside the dashboard and the document pages (spec 2, Document sider). */
function showDocumentSider(pathname: string): boolean {
  return pathname === '/' || pathname.startsWith('/document/');
}

/** The signed-in frame with the document sider where it belongs: the shell and the documents stay apart. */
export function SignedInFrame() {
  const { pathname } = useLocation();
  return <AppShell sider={showDocumentSider(pathname) ? <DocumentSider /> : null} />;
}
