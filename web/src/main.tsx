// First: configures zod before any schema is built (see zod-config.ts).
import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient, setUnauthorizedHandler } from './api';
import { App } from './app/App';
import { createUnauthorizedHandler } from './app/session';
import './styles.css';

// The app's code runs from here: a reader of the page's timeline (the browser tests, a profile)
// tells by this mark the reads public/early-reads.js started before it from the app's own.
performance.mark('eelarve:app-started');

const queryClient = createQueryClient();
setUnauthorizedHandler(createUnauthorizedHandler(queryClient));

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
