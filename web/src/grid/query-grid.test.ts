import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { et } from '../i18n/messages/et';
import { QueryGrid } from './QueryGrid';

// The grid itself needs a browser; here it only has to be there or not.
vi.mock('./DataGrid', () => ({ DataGrid: () => createElement('div', { 'data-testid': 'data-grid' }) }));

const render = (node: ReactNode) => renderToStaticMarkup(createElement(IntlProvider, { locale: 'et', messages: et }, node));

function grid(query: { isPending: boolean; isError: boolean; error: unknown; data: unknown }) {
  return render(
    createElement(QueryGrid<{ id: string }>, {
      query: { ...query, refetch: vi.fn() } as never,
      rows: [],
      loadFailed: 'budgets.loadFailed',
      testId: 'budgets-grid',
    }),
  );
}

describe('a list grid loaded by a query', () => {
  it('shows a failed load as one error with a retry, in place of the grid and its "no data"', () => {
    const markup = grid({ isPending: false, isError: true, error: new ApiError(503, 'SERVICE_UNAVAILABLE'), data: undefined });
    expect(markup).toContain('data-testid="list-error"');
    expect(markup).toContain(et['budgets.loadFailed']);
    expect(markup).toContain(et['error.SERVICE_UNAVAILABLE']);
    expect(markup).toContain(`data-testid="list-retry">${et['grid.retry']}<`);
    expect(markup).not.toContain('data-testid="data-grid"');
  });

  it('keeps rows loaded before a failed refresh below the error', () => {
    const markup = grid({ isPending: false, isError: true, error: new ApiError(503, 'SERVICE_UNAVAILABLE'), data: [] });
    expect(markup).toContain('data-testid="list-error"');
    expect(markup).toContain('data-testid="data-grid"');
  });

  it('shows only the grid when the load succeeded', () => {
    const markup = grid({ isPending: false, isError: false, error: null, data: [] });
    expect(markup).not.toContain('list-error');
    expect(markup).toContain('data-testid="data-grid"');
  });
});
