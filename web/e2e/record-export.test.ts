import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Organization } from '@eelarve/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient } from './auth-flows';
import { browserSuite, call, documentWithMaster, gridRows, seriousViolations, signIn } from './harness';

/**
 * Records exports (issue 11, point 7; spec 3, section 9 "Exports"): the .xlsx built in the browser is
 * read back by LibreOffice (not by exceljs, its writer) and by its own XML: a sheet per sub-budget
 * with cleaned names, columns 42.5 wide, amounts as numbers in #,##0.000 (the organisation's three
 * decimal places) written from their exact text, exact year sums over a period from July, the
 * organisation's date format, and text that a spreadsheet would run as a formula kept as text.
 */

const work = mkdtempSync(path.join(os.tmpdir(), 'eelarve-record-export-'));

/** LibreOffice's CSV export of every sheet (one file per sheet, named after it): as shown or as stored. */
function sheetsAsCsv(file: string, shown: boolean): Record<string, string[][]> {
  const outDir = mkdtempSync(path.join(work, shown ? 'shown-' : 'raw-'));
  // Tokens: comma, double quote, UTF-8, from line 1, -, -, unquoted numbers, detect numbers, cells as shown (or not), -, -, every sheet.
  const filter = `csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,${shown},false,false,-1`;
  execFileSync('soffice', [`-env:UserInstallation=file://${path.join(work, 'profile')}`, '--headless', '--convert-to', filter, '--outdir', outDir, file], {
    stdio: 'pipe',
    timeout: 120_000,
  });
  const base = path.basename(file, '.xlsx');
  return Object.fromEntries(
    readdirSync(outDir).map((name) => [name.slice(base.length + 1, -'.csv'.length), parseCsvLines(readFileSync(path.join(outDir, name), 'utf8'))]),
  );
}

/** LibreOffice's CSV: quoted cells may hold commas and doubled quotes. */
function parseCsvLines(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const cells: string[] = [];
      let cell = '';
      let quoted = false;
      for (let index = 0; index < line.length; index += 1) {
        const char = line[index];
        if (quoted && char === '"' && line[index + 1] === '"') {
          cell += '"';
          index += 1;
        } else if (char === '"') quoted = !quoted;
        else if (char === ',' && !quoted) {
          cells.push(cell);
          cell = '';
        } else cell += char;
      }
      cells.push(cell);
      return cells;
    });
}

/** A part of the .xlsx package as its XML text (unzip, a reader that is not exceljs). */
const packagePart = (file: string, part: string) => execFileSync('unzip', ['-p', file, part], { encoding: 'utf8' });

async function download(page: Page, testId: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const target = path.join(work, file.suggestedFilename());
  await file.saveAs(target);
  return target;
}

describe('web: records export (browser)', () => {
  const suite = browserSuite();
  let admin: ApiClient;
  let documentId: string;
  let budgetId: string;
  let schemeId: string;
  let educationId: string;

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const { organizationId } = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    // The organisation shows amounts with three decimals and dates as yyyy-MM-dd.
    const organization = (await call<Organization[]>(admin, 'GET', '/api/organizations')).find((candidate) => candidate.id === organizationId)!;
    const { id, createdAt, nrOfUsers, isPlatform, ...input } = organization;
    await call(admin, 'PUT', `/api/organization/${id}`, {
      ...input,
      localeSettings: { ...input.localeSettings, decimalPlaces: '3', dateFormat: 'yyyy-MM-dd' },
    });

    // A period from July 2027: its months fall in two calendar years.
    const made = await documentWithMaster(admin, organizationId, { name: 'Eelarve 2027/28', period: { year: 2027, month: 7, duration: 1 } });
    documentId = made.documentId;
    const activityId = made.masterClassifierId;
    await call(admin, 'POST', `/api/classifier/${activityId}/item`, { code: '01', name: 'Haridus' });
    await call(admin, 'POST', `/api/classifier/${activityId}/item`, { code: '02', name: 'Kultuur' });
    schemeId = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/schema`, {
        name: 'Kulud',
        fieldName: 'kulud',
        classifierList: [{ classifierId: activityId, type: 'MAIN' }],
      })
    ).id;
    educationId = (await call<{ id: string }>(admin, 'POST', `/api/schema/${schemeId}/sub-budget`, { name: 'Haridus', classifiers: { [activityId]: '01' } }))
      .id;
    const cultureId = (
      await call<{ id: string }>(admin, 'POST', `/api/schema/${schemeId}/sub-budget`, { name: 'Kultuur/Sport: 2027*', classifiers: { [activityId]: '02' } })
    ).id;
    budgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Linna eelarve' })).id;
    const record = (subBudgetId: string, body: object) =>
      call(admin, 'POST', `/api/budget/${budgetId}/sub-budget/${subBudgetId}/record`, { classifiers: {}, ...body });
    // July to December 2027, then January to June 2028.
    await record(educationId, {
      name: 'Palgad',
      amount: '300.5',
      factors: { months: ['100.25', '0', '0', '0', '0', '0.1', '0.2', '0', '0', '0', '0', '199.95'] },
    });
    await record(educationId, { name: '=1+1', amount: '1234567.5' });
    await record(educationId, { name: '@SUM(A1:A2)', amount: '-5' });
    await record(educationId, { name: '+372 5555 5555', amount: '0.0015' });
    await record(cultureId, { name: 'Raamatukogu', amount: '700' });
  }, 120_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('exports a sub-budget’s records that LibreOffice reads with the formats, exact numbers and no formula', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${documentId}/budget/${budgetId}/sub-budgets/${schemeId}/records/${educationId}`);
    await page.locator('[data-testid="records-grid"] [data-testid="record-name"]').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const file = await download(page, 'record-export');
    expect(path.basename(file)).toBe('Haridus.xlsx');

    const shown = sheetsAsCsv(file, true);
    expect(Object.keys(shown)).toEqual(['Haridus']);
    const [header, ...rows] = shown.Haridus!;
    const months = ['2027-07', '2027-08', '2027-09', '2027-10', '2027-11', '2027-12', '2028-01', '2028-02', '2028-03', '2028-04', '2028-05', '2028-06'];
    expect(header).toEqual(['Nimi', 'tegevusala', 'summa', '2027 kokku', '2028 kokku', ...months, 'Esile tõstetud', 'Muudetud', 'Muutja']);
    const byName = Object.fromEntries(rows.map((row) => [row[0], row]));
    // Formula-like text stays text: LibreOffice shows it as written, never its result.
    expect(Object.keys(byName).sort()).toEqual(['+372 5555 5555', '=1+1', '@SUM(A1:A2)', 'Palgad']);
    // #,##0.000: the organisation's three decimal places (LibreOffice shows them in its own locale, en-US).
    expect(byName['=1+1']!.slice(1, 5)).toEqual(['01', '1,234,567.500', '', '']);
    expect(byName['@SUM(A1:A2)']![2]).toBe('-5.000');
    expect(byName['+372 5555 5555']![2]).toBe('0.002');
    // Exact year sums of the split: 100.25 + 0.1 in 2027, 0.2 + 199.95 in 2028.
    expect(byName.Palgad!.slice(2, 5)).toEqual(['300.500', '100.350', '200.150']);
    expect(byName.Palgad!.slice(5, 17)).toEqual([
      '100.250',
      '0.000',
      '0.000',
      '0.000',
      '0.000',
      '0.100',
      '0.200',
      '0.000',
      '0.000',
      '0.000',
      '0.000',
      '199.950',
    ]);
    // The organisation's date format, with the time.
    expect(byName.Palgad![18]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(byName.Palgad![17]).toBe('ei');

    // As stored: numbers, exactly the amounts (no binary noise).
    const raw = sheetsAsCsv(file, false).Haridus!;
    const stored = Object.fromEntries(raw.slice(1).map((row) => [row[0], row[2]]));
    expect(stored).toEqual({ '=1+1': '1234567.5', '@SUM(A1:A2)': '-5', '+372 5555 5555': '0.0015', Palgad: '300.5' });

    // The package itself: no formula anywhere, formula-like text in the Text format, every column 42.5 wide.
    const sheetXml = packagePart(file, 'xl/worksheets/sheet1.xml');
    expect(sheetXml).not.toContain('<f>');
    const widths = [...sheetXml.matchAll(/<col [^>]*width="([\d.]+)"/g)].map((match) => match[1]);
    expect(widths.length).toBeGreaterThan(0);
    expect(new Set(widths)).toEqual(new Set(['42.5']));
    expect(packagePart(file, 'xl/styles.xml')).toMatch(/formatCode="#,##0\.000"/);
  }, 120_000);

  it('exports a scheme’s records from the sub-budgets page, a sheet per sub-budget with a cleaned name', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${documentId}/budget/${budgetId}/sub-budgets/${schemeId}`);
    await gridRows(page, 'budget-sub-budgets-grid').first().waitFor();
    const file = await download(page, 'record-export');
    expect(path.basename(file)).toBe('Linna eelarve - Kulud.xlsx');
    const sheets = sheetsAsCsv(file, true);
    // Spec: only letters, digits, hyphen, period, underscore and spaces stay in a sheet name.
    expect(Object.keys(sheets).sort()).toEqual(['Haridus', 'KultuurSport 2027']);
    expect(sheets['KultuurSport 2027']!.slice(1).map((row) => [row[0], row[2]])).toEqual([['Raamatukogu', '700.000']]);
    expect(sheets.Haridus!.length).toBe(5);
  }, 120_000);
});
