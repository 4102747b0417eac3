import { randomUUID } from 'node:crypto';
import { budgetRecordTotal, recordTotalsBySubBudget, UNFIT_SUB_BUDGET_ID } from '@eelarve/projections/records/import-queries';
import { listSubBudgets } from '@eelarve/projections/schemes/queries';
import {
  DomainError,
  fieldError,
  type ImportPreview,
  type ImportRow,
  type ImportStatusAnswer,
  importCounts,
  sumAmounts,
  type ValidatedImportRow,
  validateImportRows,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { CommandActor } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import { importFacts, type ImportTarget } from './facts';
import type { RecordImportSource } from './migrations';
import { type ImportErrorReport, unpackReport } from './report';
import { answeredImport, findImport, insertImport, type ImportResult, type ImportScope, latestImport } from './store';
import { recordImportTask, RECORDS_IMPORT } from './task';

/** Who starts an import: a signed-in user, or an ERP job (no user; the budget's organisation). */
export interface ImportStarter {
  userId: string | null;
  occupationId: string | null;
  actor: CommandActor;
  source: RecordImportSource;
}

export interface ImportRequest {
  list: ImportRow[];
  importId?: string;
  originResourceName: string;
  /** The body as stored with the import (gzip). */
  payload: Buffer;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const UNIQUE_VIOLATION = '23505';

type LatestImport = NonNullable<Awaited<ReturnType<typeof latestImport>>>;

function statusAnswer(row: LatestImport): ImportStatusAnswer {
  return {
    id: row.id,
    status: row.status,
    result: (row.result as ImportResult | null) ?? null,
    extra: { originResourceName: row.origin_resource_name },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** A row of a scheme's preview: before → after for one sub-budget. */
function previewRow(
  subBudgetId: string,
  name: string | null,
  before: { records: number; total: string } | undefined,
  added: { records: number; amounts: string[] },
) {
  const totalBefore = before?.total ?? '0';
  return {
    subBudgetId,
    name,
    recordsBefore: before?.records ?? 0,
    recordsAdded: added.records,
    totalBefore: sumAmounts([totalBefore]),
    totalAfter: sumAmounts([totalBefore, ...added.amounts]),
  };
}

/** The sub-budget (of one scheme) each importable row falls in: its values in the scheme's classifiers equal the sub-budget's. */
function placeRows(
  rows: readonly ValidatedImportRow[],
  schemeClassifierIds: readonly string[],
  subBudgets: readonly { id: string; classifiers: Record<string, string> }[],
) {
  const keyOf = (values: Readonly<Record<string, string>>) => JSON.stringify(schemeClassifierIds.map((id) => values[id] ?? null));
  const byKey = new Map<string, string>();
  for (const subBudget of subBudgets) if (!byKey.has(keyOf(subBudget.classifiers))) byKey.set(keyOf(subBudget.classifiers), subBudget.id);
  const added = new Map<string, { records: number; amounts: string[] }>();
  for (const row of rows) {
    const id = byKey.get(keyOf(row.values.classifiers)) ?? UNFIT_SUB_BUDGET_ID;
    const entry = added.get(id) ?? { records: 0, amounts: [] };
    entry.records++;
    entry.amounts.push(row.values.amount);
    added.set(id, entry);
  }
  return added;
}

export function recordImportService(app: FastifyInstance) {
  const read = () => readModels(app.db);

  async function existingAnswer(importId: string, target: ImportTarget) {
    const found = await findImport(app.db, importId);
    if (!found) return null;
    // An import id is the client's: used for another budget it is refused, never answered across budgets.
    if (found.budget_id !== target.budget.id || found.sub_budget_id !== target.subBudgetId)
      throw fieldError('SCHEMA_VALIDATION_ERROR', 'body.importId', 'validation.unique', 'the import id was used for another import');
    const answered = await answeredImport(app.db, found.id);
    return { id: found.id, status: answered?.status ?? found.status };
  }

  return {
    /**
     * Records the import and enqueues its job in one transaction (UNPROCESSED). The same import
     * id again answers the first import: a retried request never imports twice.
     */
    async start(target: ImportTarget, request: ImportRequest, starter: ImportStarter): Promise<{ id: string; status: ImportStatusAnswer['status'] }> {
      const importId = request.importId ?? randomUUID();
      const earlier = await existingAnswer(importId, target);
      if (earlier) return earlier;
      const { budget } = target;
      try {
        await app.tasks.start(
          recordImportTask,
          {
            type: RECORDS_IMPORT,
            organizationId: budget.organization_id,
            userId: starter.userId,
            occupationId: starter.occupationId,
            documentId: budget.document_id,
            params: { importId, budgetId: budget.id, subBudgetId: target.subBudgetId },
            actor: { ...starter.actor, causationId: starter.actor.correlationId },
          },
          (trx, taskId) =>
            insertImport(trx, taskId, {
              id: importId,
              organizationId: budget.organization_id,
              documentId: budget.document_id,
              budgetId: budget.id,
              subBudgetId: target.subBudgetId,
              source: starter.source,
              originResourceName: request.originResourceName,
              payload: request.payload,
              userId: starter.userId,
              occupationId: starter.occupationId,
            }),
        );
      } catch (error) {
        // The same import id sent twice at once: the first one's answer.
        if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
          const first = await existingAnswer(importId, target);
          if (first) return first;
        }
        throw error;
      }
      return { id: importId, status: 'UNPROCESSED' };
    },

    /** The latest import of the budget (every target) or of the sub-budget; `finished`: the latest that ended. */
    async status(scope: ImportScope): Promise<ImportStatusAnswer> {
      const row = await latestImport(app.db, scope);
      if (!row) throw new DomainError('IMPORT_NOT_FOUND');
      return statusAnswer(row);
    },

    /** The error report of the latest finished import; 404 when there is none (or it was refused before a report). */
    async errorReport(scope: ImportScope): Promise<ImportErrorReport> {
      const row = await latestImport(app.db, { ...scope, finished: true });
      if (!row?.error_report) throw new DomainError('IMPORT_NOT_FOUND');
      return unpackReport(row.error_report);
    },

    /**
     * What the import would change (beyond the spec): the rows checked with today's facts and,
     * per scheme of the budget, the sub-budgets that get rows with their records and totals
     * before → after. Nothing is written.
     */
    async preview(target: ImportTarget, rows: readonly ImportRow[]): Promise<ImportPreview> {
      const facts = await importFacts(read(), target);
      const validated = validateImportRows(rows, facts.context);
      const importable = validated.filter((row) => !row.critical);
      const counts = importCounts(validated);
      const schemes =
        target.budget.type === 'COMMON'
          ? await read()
              .selectFrom('schemes')
              .selectAll()
              .where('document_id', '=', target.budget.document_id)
              .orderBy('display_order')
              .orderBy('name')
              .execute()
          : [];
      const before = await budgetRecordTotal(read(), target.budget.id);
      return {
        rows: { total: rows.length, importable: counts.recordsInserted, critical: rows.length - counts.recordsInserted },
        total: { before: sumAmounts([before.total]), after: sumAmounts([before.total, ...importable.map((row) => row.values.amount)]) },
        schemes: await Promise.all(
          schemes.map(async (scheme) => {
            const classifierIds = scheme.classifier_list.map((entry) => entry.classifierId);
            const subBudgets = await listSubBudgets(read(), scheme.id);
            const added = placeRows(importable, classifierIds, subBudgets);
            const totals = new Map((await recordTotalsBySubBudget(read(), target.budget.id, scheme.id, classifierIds)).map((row) => [row.subBudgetId, row]));
            const names = new Map(subBudgets.map((subBudget) => [subBudget.id, subBudget.name]));
            return {
              schemeId: scheme.id,
              name: scheme.name,
              subBudgets: [...added].map(([id, rowsAdded]) => previewRow(id, names.get(id) ?? null, totals.get(id), rowsAdded)),
            };
          }),
        ),
      };
    },
  };
}
