import { gzipSync } from 'node:zlib';
import type { ImportRow } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { DemoDocument } from './demo-document';
import type { DemoSession } from './demo-session';
import { startWorker } from './worker';

/**
 * Budget lines for the demo document's common budgets, made through the product's own import
 * (POST api/budget/{id}/records, a job in the worker), so `npm start` shows what the product is
 * for: a city's operating and investment budget by activity, expense type and source, most lines
 * split by month with a seasonal pattern. Everything is deterministic (a seeded generator) and
 * every amount is whole cents, so the monthly values add up exactly.
 */

/** Institutions and services by activity code (the master classifier). */
const UNITS: Record<string, string[]> = {
  '01': [
    'Linnavalitsuse kantselei',
    'Linnavolikogu',
    'Rahandusosakond',
    'IT-teenistus',
    'Linnaarhiiv',
    'Õigusteenistus',
    'Siseaudit',
    'Välissuhtlus',
    'Kommunikatsioon',
    'Personaliteenistus',
  ],
  '04': [
    'Tänavavalgustus',
    'Teede hooldus',
    'Kergliiklusteed',
    'Ühistransport',
    'Rattaringlus',
    'Parkimiskorraldus',
    'Linnaplaneerimine',
    'Haljastus',
    'Sadamakorraldus',
    'Sillad ja viaduktid',
    'Sademeveesüsteem',
    'Talihooldus',
  ],
  '08': [
    'Tartu Linnaraamatukogu',
    'Raamatukogu Annelinna haruraamatukogu',
    'Tartu Kunstimuuseum',
    'Tartu Linnamuuseum',
    'Annelinna spordihoone',
    'Ujula Aura',
    'Anne Noortekeskus',
    'Lille Noortekeskus',
    'Tähtvere laululava',
    'Kultuuriaken',
    'Tartu Uus Teater',
    'Karlova teater',
    'Tartu Mänguasjamuuseum',
    'Spordiürituste toetus',
    'Linnapäevad',
  ],
  '09': [
    'Kivilinna Kool',
    'Hugo Treffneri Gümnaasium',
    'Mart Reiniku Kool',
    'Tamme Gümnaasium',
    'Jaan Poska Gümnaasium',
    'Miina Härma Gümnaasium',
    'Tartu Descartes’i Kool',
    'Tartu Forseliuse Kool',
    'Tartu Karlova Kool',
    'Tartu Kesklinna Kool',
    'Tartu Raatuse Kool',
    'Tartu Variku Kool',
    'Tartu Hiie Kool',
    'Tartu Herbert Masingu Kool',
    'Tartu Annelinna Gümnaasium',
    'Lasteaed Annike',
    'Lasteaed Meelespea',
    'Lasteaed Kelluke',
    'Lasteaed Ploomipuu',
    'Lasteaed Pääsupesa',
    'Lasteaed Sipsik',
    'Lasteaed Midrimaa',
    'Lasteaed Karoliine',
    'Lasteaed Rukkilill',
    'Lasteaed Tähtvere',
    'Lasteaed Mõmmik',
    'Lasteaed Piilupesa',
    'Tartu Muusikakool',
    'Tartu Kunstikool',
    'Huvialakeskus',
  ],
};

interface ExpenseLine {
  name: string;
  /** Yearly amount range in euros. */
  range: [number, number];
  /** Monthly weights (12); null: the line has no monthly split. */
  season: number[] | null;
}

const EVEN = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
const HEATING = [16, 14, 12, 8, 4, 2, 1, 1, 3, 8, 12, 15];
const SCHOOL_YEAR = [10, 10, 10, 10, 9, 6, 2, 6, 10, 10, 10, 10];
const BUILDING_SEASON = [0, 0, 2, 6, 12, 16, 16, 16, 14, 10, 6, 2];

/** Expense lines by expense type code (kululiik). */
const EXPENSES: Record<string, ExpenseLine[]> = {
  '50': [
    { name: 'Töötasu', range: [60_000, 900_000], season: EVEN },
    { name: 'Sotsiaalmaks', range: [20_000, 300_000], season: EVEN },
    { name: 'Töötuskindlustusmakse', range: [500, 7_000], season: EVEN },
    { name: 'Koolitus', range: [1_000, 15_000], season: SCHOOL_YEAR },
  ],
  '55': [
    { name: 'Elekter', range: [4_000, 80_000], season: HEATING },
    { name: 'Küte', range: [5_000, 120_000], season: HEATING },
    { name: 'Vesi ja kanalisatsioon', range: [1_000, 20_000], season: EVEN },
    { name: 'Koristusteenus', range: [3_000, 60_000], season: EVEN },
    { name: 'Õppe- ja töövahendid', range: [1_000, 40_000], season: SCHOOL_YEAR },
    { name: 'IT-teenused ja litsentsid', range: [2_000, 45_000], season: null },
  ],
  '15': [
    { name: 'Hoone renoveerimine', range: [50_000, 900_000], season: BUILDING_SEASON },
    { name: 'Sõidukite soetus', range: [25_000, 180_000], season: null },
    { name: 'Arvutid ja võrguseadmed', range: [5_000, 60_000], season: null },
  ],
  '45': [
    { name: 'Tegevustoetus', range: [5_000, 150_000], season: EVEN },
    { name: 'Projektitoetus', range: [1_000, 40_000], season: null },
    { name: 'Stipendiumid', range: [500, 20_000], season: SCHOOL_YEAR },
  ],
};

/** Operating budgets pay from the state budget and own income; investments also from foreign funds. */
const SOURCES = { operating: ['RE', 'OT'], investments: ['RE', 'OT', 'VV'] } as const;
const OPERATING_EXPENSES = ['50', '55', '45'];
const INVESTMENT_EXPENSES = ['15', '55'];

/** A small deterministic generator (mulberry32), so the demo is the same on every start. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Whole cents as a decimal string ("1234.05"); integers only, so nothing is rounded. */
function euros(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** Splits whole cents by weights; the last month takes the remainder, so the months add up exactly. */
function splitByMonth(cents: number, weights: readonly number[]): string[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const months = weights.map((weight) => Math.floor((cents * weight) / total));
  months[months.length - 1]! += cents - months.reduce((sum, value) => sum + value, 0);
  return months.map(euros);
}

export type DemoBudgetKind = keyof typeof SOURCES;

/** The lines of one budget for the given activity codes, keyed by classifier field name. */
export function demoRecordRows(kind: DemoBudgetKind, activityCodes: readonly string[], seed: number): ImportRow[] {
  const next = random(seed);
  const rows: ImportRow[] = [];
  const expenseCodes = kind === 'operating' ? OPERATING_EXPENSES : INVESTMENT_EXPENSES;
  for (const activity of activityCodes) {
    for (const unit of UNITS[activity] ?? []) {
      for (const expense of expenseCodes) {
        for (const line of EXPENSES[expense] ?? []) {
          for (const source of SOURCES[kind]) {
            // Not every unit pays every line from every source.
            if (next() < 0.25) continue;
            const [low, high] = line.range;
            const cents = Math.round((low + next() * (high - low)) * 100);
            const split = line.season !== null && next() < 0.85;
            rows.push({
              name: `${line.name} – ${unit}`,
              amount: euros(cents),
              months: split ? splitByMonth(cents, line.season ?? EVEN) : null,
              classifiers: { tegevusala: activity, kululiik: expense, allikas: source },
            });
          }
        }
      }
    }
  }
  return rows;
}

const IMPORT_POLL_MS = 200;
const IMPORT_TIMEOUT_MS = 120_000;

/** Imports the rows into a budget as a user would (gzip JSON, then the import's status until it ends). */
export async function importDemoRecords({ call }: DemoSession, budgetId: string, rows: ImportRow[], originResourceName: string): Promise<void> {
  await call(
    {
      method: 'POST',
      url: `/api/budget/${budgetId}/records?originResourceName=${encodeURIComponent(originResourceName)}`,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ list: rows })),
    },
    202,
  );
  const deadline = Date.now() + IMPORT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const status = await call({ method: 'GET', url: `/api/budget/${budgetId}/import/status` });
    if (status.status === 'SUCCESS') return;
    if (status.status === 'ERROR') throw new Error(`demo: the import into ${budgetId} failed: ${JSON.stringify(status.result)}`);
    await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS));
  }
  throw new Error(`demo: the import into ${budgetId} did not finish in ${IMPORT_TIMEOUT_MS / 1000} s`);
}

/**
 * The lines of the main budget (activities 01, 08, 09) and of the investments budget (04, 09).
 * The gateway seeds before it listens and before `npm start` starts the worker process, so the
 * imports' jobs run in a worker started here for the while: the same queue, job and handler.
 */
export async function seedDemoRecords(app: FastifyInstance, session: DemoSession, demo: DemoDocument): Promise<void> {
  const worker = await startWorker({ context: app, pollingIntervalSeconds: 0.5 });
  try {
    await importDemoRecords(session, demo.mainBudgetId, demoRecordRows('operating', ['01', '08', '09'], 2027), 'pohitegevus-2027.xlsx');
    await importDemoRecords(session, demo.investmentsBudgetId, demoRecordRows('investments', ['04', '09'], 4027), 'investeeringud-2027.xlsx');
  } finally {
    await worker.stop({ timeoutMs: 10_000 });
  }
}
