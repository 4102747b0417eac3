import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** What the report's browser tests read and do on the screen (web/src/features/report), in one place. */

/** Polls for up to 20 s: a report reloads after each change of its columns or filters. */
export const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
export const grid = (page: Page) => page.getByTestId('report-grid');
export const rows = (page: Page): Locator => grid(page).locator('.ag-center-cols-container .ag-row');
export const rowNamed = (page: Page, name: string): Locator => rows(page).filter({ has: page.getByTestId('report-row-name').getByText(name, { exact: true }) });
/** The pinned total row's cell of a column. */
export const totalCell = (page: Page, key: string) => grid(page).locator(`.ag-floating-bottom .ag-row [col-id="${key}"]`);
/** Resolves once the report's loading sequence has ended with the grid. */
export const ready = (page: Page) => page.locator('[data-testid="report-screen"][data-step="ready"]').waitFor();

/**
 * Picks an item of a column's menu. A column out of sight is scrolled to first: the grid's header
 * follows the scroll a moment later, and a menu closes on a scroll (as it does for a user who
 * scrolls while it is open), so the menu is opened once the header has settled.
 */
export async function columnMenu(page: Page, key: string, item: string) {
  const button = page.getByTestId(`report-column-menu-${key}`);
  await button.scrollIntoViewIfNeeded();
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    try {
      await page.getByTestId(`report-column-${item}`).click({ timeout: 2000 });
      return;
    } catch {
      await page.waitForTimeout(300);
    }
  }
  throw new Error(`the menu of column ${key} has no ${item}`);
}
