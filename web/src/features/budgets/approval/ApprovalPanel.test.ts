import type { ApprovalAction } from '@eelarve/shared';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/messages/en';
import { et } from '../../../i18n/messages/et';
import { ApprovalActions } from './ApprovalPanel';

const catalogs = { et, en };

function render(actions: ApprovalAction[], locale: 'et' | 'en' = 'et') {
  const node = createElement(ApprovalActions, { actions, onChoose: () => {} });
  return renderToStaticMarkup(createElement(IntlProvider, { locale, messages: catalogs[locale] }, node));
}

/** The buttons' test ids and labels, in the order shown. */
function buttons(markup: string): Array<[string, string]> {
  return [...markup.matchAll(/<button[^>]*data-testid="budget-approval-([A-Z_]+)"[^>]*>([^<]*)<\/button>/g)].map((match) => [
    match[1] as string,
    match[2] as string,
  ]);
}

describe('the approval actions (as the server offers them)', () => {
  it('shows exactly the actions given, in their order, whatever the caller’s privileges', () => {
    expect(buttons(render(['APPROVE', 'SEND_BACK']))).toEqual([
      ['APPROVE', et['budgets.approval.action.APPROVE']],
      ['SEND_BACK', et['budgets.approval.action.SEND_BACK']],
    ]);
    expect(buttons(render(['REOPEN']))).toEqual([['REOPEN', et['budgets.approval.action.REOPEN']]]);
  });

  it('names them in the UI language', () => {
    expect(buttons(render(['SUBMIT'], 'en'))).toEqual([['SUBMIT', 'Submit for approval']]);
    expect(buttons(render(['SUBMIT'], 'et'))).toEqual([['SUBMIT', 'Saada kinnitamisele']]);
  });

  it('shows nothing when the server offers no action (a reader, or a step that is not the caller’s)', () => {
    expect(render([])).toBe('');
  });
});
