import { randomBytes } from 'node:crypto';
import { DEFAULT_RESOURCE_STATUSES, defaultApprovalRoute, type OrganizationApprovalRoute } from '@eelarve/shared';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient } from './auth-flows';
import { browserSuite, seriousViolations, signIn } from './harness';

/**
 * The approval route section of /resource-statuses (issue 10, point 6): a status administrator
 * gives approving to a role, leaves the sent back step's status alone and turns four eyes off; the
 * server holds that route, the reloaded screen shows it, and reset brings the default back. A
 * status viewer sees the route with every control disabled.
 */

const [IN_PREPARATION, SUBMITTED, APPROVED] = DEFAULT_RESOURCE_STATUSES.map((status) => status.id);

describe('web: approval route section (browser)', () => {
  const suite = browserSuite();
  let organizationId: string;
  let financeRoleId: string;
  let statusAdmin: { email: string };
  let viewer: { email: string };
  let statusAdminApi: ApiClient;

  beforeAll(async () => {
    const admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const fixture = accountsFixture(suite.server.app, admin);
    organizationId = await fixture.organizationUsingStatuses(`Route ${randomBytes(3).toString('hex')}`, { allowEditing: true });
    financeRoleId = await fixture.role(organizationId, ['DATA_VIEW'], 'Rahandus');
    statusAdmin = await fixture.member(organizationId, ['STATUS_ADMIN']);
    viewer = await fixture.member(organizationId, ['STATUS_VIEW']);
    statusAdminApi = await apiClient(suite.server.app, statusAdmin.email, PASSWORD);
  }, 180_000);

  async function serverRoute(): Promise<OrganizationApprovalRoute> {
    const response = await statusAdminApi.request({ method: 'GET', url: `/api/organization/${organizationId}/approval-route` });
    expect(response.statusCode).toBe(200);
    return response.json() as OrganizationApprovalRoute;
  }

  async function openRoute(email: string): Promise<Page> {
    const page = await suite.openPage();
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/resource-statuses');
    await page.getByTestId('approval-route-form').waitFor();
    return page;
  }

  const routeKind = (page: Page) => page.getByTestId('approval-route-kind').getAttribute('data-configured');

  it('configures the route, which the server holds and the reloaded screen shows; reset brings the default back', async () => {
    const page = await openRoute(statusAdmin.email);
    expect(await routeKind(page)).toBe('false');
    expect(await page.getByTestId('approval-route-reset').isDisabled()).toBe(true);
    expect(await page.getByTestId('approval-route-rule-APPROVE-kind').inputValue()).toBe('privileges');
    expect(await page.getByTestId('approval-route-step-APPROVED').inputValue()).toBe(APPROVED);
    expect(await page.getByTestId('approval-route-four-eyes').isChecked()).toBe(true);

    // A role chosen with nothing named is refused in the form; then the finance role approves.
    await page.getByTestId('approval-route-rule-APPROVE-kind').selectOption('roles');
    await page.getByTestId('approval-route-save').click();
    await page.getByTestId('approval-route-rule-APPROVE-error').waitFor();
    expect(await page.getByTestId('approval-route-rule-APPROVE-error').textContent()).toBe(et['validation.required']);
    await page.getByTestId('approval-route-rule-APPROVE-roles').click();
    await page.getByTestId(`approval-route-rule-APPROVE-roles-option-${financeRoleId}`).check();
    await page.keyboard.press('Escape');
    await page.getByTestId('approval-route-rule-APPROVE-roles-popup').waitFor({ state: 'detached' });
    expect(await page.getByTestId('approval-route-rule-APPROVE-error').count()).toBe(0);
    await page.getByTestId('approval-route-step-SENT_BACK').selectOption('');
    await page.getByTestId('approval-route-four-eyes').uncheck();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('approval-route-save').click();
    await page.getByTestId('approval-route-saved').waitFor();
    await expect.poll(() => routeKind(page)).toBe('true');

    const defaults = defaultApprovalRoute(true);
    expect(await serverRoute()).toEqual({
      configured: true,
      route: {
        rules: { ...defaults.rules, APPROVE: { allowedPrivileges: [], allowedRoleIds: [financeRoleId] } },
        stepStatuses: { DRAFT: IN_PREPARATION, SUBMITTED, APPROVED },
        approverMustDifferFromSubmitter: false,
      },
    });

    await page.reload();
    await page.getByTestId('approval-route-form').waitFor();
    expect(await page.getByTestId('approval-route-rule-APPROVE-kind').inputValue()).toBe('roles');
    expect(await page.getByTestId('approval-route-rule-APPROVE-roles').getAttribute('data-count')).toBe('1');
    expect(await page.getByTestId('approval-route-step-SENT_BACK').inputValue()).toBe('');
    expect(await page.getByTestId('approval-route-four-eyes').isChecked()).toBe(false);

    await page.getByTestId('approval-route-reset').click();
    await page.getByTestId('approval-route-reset-dialog').getByTestId('confirm-ok').click();
    await expect.poll(() => routeKind(page)).toBe('false');
    expect(await serverRoute()).toEqual({ configured: false, route: defaults });
    expect(await page.getByTestId('approval-route-rule-APPROVE-kind').inputValue()).toBe('privileges');
    expect(await page.getByTestId('approval-route-reset').isDisabled()).toBe(true);
  });

  it('is view only for a status viewer: the route is shown, every control disabled with the reason', async () => {
    const page = await openRoute(viewer.email);
    const form = page.getByTestId('approval-route-form');
    expect(await page.getByTestId('approval-route-rule-APPROVE-kind').inputValue()).toBe('privileges');
    const controls = form.locator('select, input, button');
    expect(await controls.count()).toBeGreaterThan(0);
    expect(await controls.evaluateAll((all) => all.every((control) => (control as HTMLInputElement).disabled))).toBe(true);
    expect(await page.getByTestId('approval-route-save').locator('..').getAttribute('title')).toBe(et['statuses.viewOnly.privilege']);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
