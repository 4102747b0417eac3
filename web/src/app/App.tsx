import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { ToastProvider } from '../components/Toasts';
import { I18nProvider } from '../i18n/I18nProvider';
import { ErrorBoundary } from './ErrorBoundary';
import { createRouter } from './router';

export function App({ queryClient }: { queryClient: QueryClient }) {
  const [router] = useState(() => createRouter(queryClient));
  return (
    <I18nProvider>
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <ToastProvider>
            <RouterProvider router={router} />
          </ToastProvider>
        </QueryClientProvider>
      </ErrorBoundary>
    </I18nProvider>
  );
}
