import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient } from './auth-flows';
import { browserSuite, call, documentWithMaster, formatDdMmYyyy, newContext, signIn, watchErrors } from './harness';

/**
 * A budget's approval route in the browser (issue 10, point 6): a preparer submits, a status
 * administrator (another user) sends it back with a reason, the preparer submits again and the
 * administrator approves; the history shows the four steps with who, occupation and when. Each
 * page offers the actions the server answers for its user: four eyes leaves approving out for the
 * submitter, and a step whose grant was withdrawn meanwhile is refused, translated, in the dialog.
 */

interface Member {
  email: string;
  name: string;
  occupationName: string;
  occupationId: string;
}

const step = (page: Page) => page.getByTestId('budget-approval-step').getAttribute('data-step');

/** Takes one action through its dialog (the text is the comment or the reason). */
async function takeAction(page: Page, action: string, text: string): Promise<void> {
  await page.getByTestId(`budget-approval-${action}`).click();
  await page.getByTestId('approval-dialog').waitFor();
  if (text) await page.getByTestId('approval-dialog-text').fill(text);
  await page.getByTestId('approval-dialog-save').click();
  await page.getByTestId('approval-dialog').waitFor({ state: 'detached' });
}

describe('web: a budget approval route (browser)', () => {
  const suite = browserSuite();
  let admin: ApiClient;
  let documentId: string;
  let budgetId: string;
  let preparer: Member;
  let approver: Member;
  let fixture: ReturnType<typeof accountsFixture>;

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    fixture = accountsFixture(suite.server.app, admin);
    const { organizationId } = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    const member = async (name: string, occupationName: string, privileges: string[]): Promise<Member> => {
      const email = `${fixture.unique('approval')}@example.com`;
      const roleId = await fixture.role(organizationId, privileges);
      const userId = await fixture.user(organizationId, email, name);
      const occupationId = await fixture.occupation(organizationId, userId, [roleId], occupationName);
      await fixture.activate(userId);
      return { email, name, occupationName, occupationId };
    };
    preparer = await member('Piret Koostaja', 'Eelarve koostaja', ['DATA_VIEW']);
    approver = await member('Andres Kinnitaja', 'Finantsjuht', ['STATUS_ADMIN', 'USER_VIEW']);

    const period = { year: 2027, month: 1, duration: 1 };
    ({ documentId } = await documentWithMaster(admin, organizationId, { name: 'Kinnitatav 2027', period }));
    budgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Kultuuriosakond' })).id;
    // Both occupations may update the document's budgets (a grant on the document).
    for (const member of [preparer, approver]) await fixture.grant(member.occupationId, [{ documentId, update: true }]);
  }, 120_000);

  it('goes through submit, send back, submit and approve, and its history shows each step with who and when', async () => {
    const overview = `/document/${documentId}/budget/${budgetId}/report`;
    const preparerPage = await suite.openPage();
    await signIn(preparerPage, { email: preparer.email, password: PASSWORD });
    await preparerPage.goto(overview);
    await expect.poll(() => step(preparerPage)).toBe('DRAFT');
    await preparerPage.getByTestId('budget-approval-no-history').waitFor();
    // The preparer submits; approving is not theirs to offer.
    await takeAction(preparerPage, 'SUBMIT', 'Valmis ülevaatuseks');
    await expect.poll(() => step(preparerPage)).toBe('SUBMITTED');
    expect(await preparerPage.getByTestId('budget-approval-APPROVE').count()).toBe(0);
    expect(await preparerPage.getByTestId('budget-approval-SUBMIT').count()).toBe(0);

    // The approver, another user in a STATUS_ADMIN occupation, sends it back: a reason is required.
    const approverContext = await newContext(suite.browser, suite.server.url);
    try {
      const approverPage = await approverContext.newPage();
      const approverErrors = watchErrors(approverPage);
      await signIn(approverPage, { email: approver.email, password: PASSWORD });
      await approverPage.goto(overview);
      await expect.poll(() => step(approverPage)).toBe('SUBMITTED');
      await approverPage.getByTestId('budget-approval-SEND_BACK').click();
      await approverPage.getByTestId('approval-dialog-save').click();
      await expect.poll(() => approverPage.getByTestId('approval-dialog').getByTestId('field-error').getAttribute('data-message')).toBe('validation.required');
      await approverPage.getByTestId('approval-dialog-text').fill('Palgakulud on puudu');
      await approverPage.getByTestId('approval-dialog-save').click();
      await approverPage.getByTestId('approval-dialog').waitFor({ state: 'detached' });
      await expect.poll(() => step(approverPage)).toBe('SENT_BACK');

      // The preparer sees it sent back and submits again.
      await preparerPage.reload();
      await expect.poll(() => step(preparerPage)).toBe('SENT_BACK');
      await takeAction(preparerPage, 'SUBMIT', '');
      await expect.poll(() => step(preparerPage)).toBe('SUBMITTED');

      // The approver approves.
      await approverPage.reload();
      await expect.poll(() => step(approverPage)).toBe('SUBMITTED');
      await takeAction(approverPage, 'APPROVE', 'Kinnitatud eelarvekomisjonis');
      await expect.poll(() => step(approverPage)).toBe('APPROVED');
      expect(await approverPage.getByTestId('budget-approval-step').textContent()).toBe('Kinnitatud');
      expect(await approverPage.getByTestId('budget-approval-REOPEN').count()).toBe(1);

      // The history: four steps, each with who, which occupation and when (the organisation's date format).
      const entries = approverPage.getByTestId('budget-approval-entry');
      await expect.poll(() => entries.count()).toBe(4);
      const cells = (testId: string) => approverPage.getByTestId(testId).allTextContents();
      expect(await entries.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action')))).toEqual(['SUBMIT', 'SEND_BACK', 'SUBMIT', 'APPROVE']);
      expect(await cells('budget-approval-entry-step')).toEqual(['Kinnitamisel', 'Tagasi saadetud', 'Kinnitamisel', 'Kinnitatud']);
      expect(await cells('budget-approval-entry-who')).toEqual([preparer.name, approver.name, preparer.name, approver.name]);
      expect(await cells('budget-approval-entry-occupation')).toEqual([
        preparer.occupationName,
        approver.occupationName,
        preparer.occupationName,
        approver.occupationName,
      ]);
      expect(await cells('budget-approval-entry-reason')).toEqual(['Valmis ülevaatuseks', 'Palgakulud on puudu', '', 'Kinnitatud eelarvekomisjonis']);
      const today = formatDdMmYyyy(new Date());
      for (const when of await cells('budget-approval-entry-when')) expect(when).toMatch(new RegExp(`^${today.replaceAll('.', '\\.')} \\d{2}:\\d{2}$`));

      // The preparer (who may not list users) sees their own name and the other user's as "another user".
      await preparerPage.reload();
      await expect.poll(() => step(preparerPage)).toBe('APPROVED');
      expect(await preparerPage.getByTestId('budget-approval-entry-who').allTextContents()).toEqual([
        preparer.name,
        'Teine kasutaja',
        preparer.name,
        'Teine kasutaja',
      ]);

      // Four eyes: the approver reopens it (a reason) and submits it themselves; approving their own
      // submission is not offered, sending it back is.
      await approverPage.reload();
      await takeAction(approverPage, 'REOPEN', 'Lisaeelarve');
      await expect.poll(() => step(approverPage)).toBe('DRAFT');
      await takeAction(approverPage, 'SUBMIT', '');
      await expect.poll(() => step(approverPage)).toBe('SUBMITTED');
      await approverPage.getByTestId('budget-approval-SEND_BACK').waitFor();
      expect(await approverPage.getByTestId('budget-approval-APPROVE').count()).toBe(0);

      // The approver's update grant is withdrawn while the page is open: sending back is refused,
      // translated in the dialog, and after a reload nothing is offered.
      await fixture.grant(approver.occupationId, [{ documentId, read: true, update: false }]);
      await approverPage.getByTestId('budget-approval-SEND_BACK').click();
      await approverPage.getByTestId('approval-dialog-text').fill('Veel üks parandus');
      await approverPage.getByTestId('approval-dialog-save').click();
      const refusal = approverPage.getByTestId('approval-dialog-error').locator('[data-error-code]');
      await expect.poll(() => refusal.getAttribute('data-error-code')).toBe('INSUFFICIENT_PERMISSIONS');
      expect(await refusal.textContent()).toBe(et['error.INSUFFICIENT_PERMISSIONS']);
      await approverPage.getByTestId('approval-dialog-cancel').click();
      await approverPage.reload();
      await expect.poll(() => step(approverPage)).toBe('SUBMITTED');
      expect(await approverPage.getByTestId('budget-approval-actions').count()).toBe(0);
      expect(approverErrors).toEqual([]);
    } finally {
      await approverContext.close();
    }
  });
});
