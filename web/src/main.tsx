// First: configures zod before any schema is built (see zod-config.ts).
import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient, setUnauthorizedHandler } from './api';
import { App } from './app/App';
import { createUnauthorizedHandler } from './app/session';
import './styles.css';

const queryClient = createQueryClient();
setUnauthorizedHandler(createUnauthorizedHandler(queryClient));

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
