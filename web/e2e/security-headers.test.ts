import { ADMIN_ROUTE } from '@eelarve/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, gridRows, newContext, signIn } from './harness';

/**
 * Issue 8, finding 5, in the browser: the web client works under the strict Content-Security-
 * Policy (no violation while signing in and showing a grid), and no other page can frame it.
 * The suite's watcher fails a test on any console error, which includes "Refused to ..." CSP
 * reports; the page's own securitypolicyviolation events are collected too.
 */
declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

async function watchViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations?.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
  });
}

const violations = (page: Page) => page.evaluate(() => window.__cspViolations ?? ['the watcher did not run']);

describe('web: security headers (browser)', () => {
  const suite = browserSuite();

  it('signs in and shows an AG Grid screen under the CSP without a single violation', async () => {
    const page = await suite.openPage();
    await watchViolations(page);
    const login = await page.goto('/login');
    const headers = login?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).not.toMatch(/unsafe-(inline|eval)/);
    expect(headers['x-frame-options']).toBe('DENY');
    await page.getByTestId('login-form').waitFor();
    expect(await violations(page)).toEqual([]);

    await signIn(page, suite.server.admin);
    await page.goto(`${ADMIN_ROUTE}/organizations`);
    await expect.poll(() => gridRows(page, 'organizations-grid').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // The grid's own styles were admitted (by the page's nonce): its header has the theme's colour.
    const header = page.locator('[data-testid="organizations-grid"] .ag-header').first();
    expect(await header.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(243, 246, 250)');
    const styleNonces = await page.evaluate(() => [...document.head.querySelectorAll('style')].map((style) => Boolean(style.nonce)));
    expect(styleNonces.length).toBeGreaterThan(0);
    expect(styleNonces.every(Boolean)).toBe(true);
    expect(await violations(page)).toEqual([]);
  });

  it('cannot be framed by another page', async () => {
    // Its own context: the refusal is logged as a console error there, which is the point.
    const context = await newContext(suite.browser, suite.server.url);
    try {
      const page = await context.newPage();
      const refusals: string[] = [];
      page.on('console', (message) => {
        if (message.text().includes('frame-ancestors')) refusals.push(message.text());
      });
      // A page of another origin (about:blank) framing the login page.
      await page.setContent(`<iframe id="framed" src="${suite.server.url}/login" width="800" height="600"></iframe>`);
      await expect.poll(() => refusals.length, { timeout: 10_000 }).toBeGreaterThan(0);
      const framed = page.frames().find((frame) => frame !== page.mainFrame());
      expect(await framed?.locator('[data-testid="login-form"]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('serves the OpenAPI docs page without violations', async () => {
    const page = await suite.openPage();
    await watchViolations(page);
    await page.goto('/api/docs');
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 15_000 }).toBeGreaterThan(10);
    expect(await violations(page)).toEqual([]);
  });
});
