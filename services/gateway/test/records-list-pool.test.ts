import { budgetRecordsWhere, recordsJsonBatches } from '@eelarve/projections/records/queries';
import type { BudgetRecord } from '@eelarve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModels } from '../src/infrastructure/database';
import { login } from './helpers';
import { created, type RecordsWorld, recordsWorld } from './records-world';

/**
 * A streamed records list holds its connection until the client has read it all (review of the
 * streamed lists): lists read through their own pool of 4, so lists that are not being read can
 * take no connection from sign-in and the other requests, and a further list waits for one of theirs.
 */

const LISTS_POOL_CONNECTIONS = 4;

let world: RecordsWorld;
let budgetId: string;

beforeAll(async () => {
  world = await recordsWorld();
  budgetId = await world.budget();
  for (const name of ['Alfa', 'Beeta', 'Gamma']) {
    const url = `/api/budget/${budgetId}/sub-budget/${world.education}/record`;
    await created(await world.editor.client.request({ method: 'POST', url, payload: { name, amount: '1', classifiers: { konto: '4500' } } }));
  }
}, 120_000);
afterAll(async () => world?.server.close());

/** A list's cursor on the lists' pool, read one record and then left unread, as a client that stopped reading leaves it. */
async function stalledList(): Promise<AsyncGenerator<string[]>> {
  const list = recordsJsonBatches(readModels(world.server.app.listsDb), budgetRecordsWhere(budgetId), 1);
  expect((await list.next()).done).toBe(false);
  return list;
}

describe('records lists on their own pool', () => {
  it('answers sign-in and other requests while every list connection is held; a further list answers once one frees', async () => {
    const { app } = world.server;
    const stalled = await Promise.all(Array.from({ length: LISTS_POOL_CONNECTIONS }, stalledList));
    try {
      let listAnswered = false;
      const waiting = world.editor.client.request({ method: 'GET', url: `/api/budget/${budgetId}/records` }).finally(() => {
        listAnswered = true;
      });

      const signedIn = await login(app, world.server.admin.email, world.server.admin.password);
      const budget = await signedIn.request({ method: 'GET', url: `/api/budget/${budgetId}` });
      expect(budget.statusCode, budget.body).toBe(200);
      // The further list cannot have had a connection: all four are held by the unread lists.
      expect(listAnswered).toBe(false);

      await stalled.shift()?.return(undefined);
      const response = await waiting;
      expect(response.statusCode, response.body).toBe(200);
      expect((response.json() as BudgetRecord[]).map((record) => record.name)).toEqual(['Alfa', 'Beeta', 'Gamma']);
    } finally {
      await Promise.all(stalled.map((list) => list.return(undefined)));
    }
  }, 60_000);
});
