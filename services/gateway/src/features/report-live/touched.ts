import { comparePositions, type GlobalPosition, type StoredEvent } from '@eelarve/eventstore';

/**
 * Which budgets a stretch of the log changed, read from the events themselves: every record
 * event and import chunk names its budget, a deleted budget or document names itself. The
 * subscription asks only for these types, so nothing else of the log is read.
 */
export const BUDGET_EVENT_TYPES = [
  'RecordCreated',
  'RecordUpdated',
  'RecordPromotionSet',
  'RecordDeleted',
  'RecordRestored',
  'RecordsImported',
  'BudgetDeleted',
] as const;
export const DOCUMENT_EVENT_TYPES = ['DocumentDeleted'] as const;
export const WATCHED_EVENT_TYPES: readonly string[] = [...BUDGET_EVENT_TYPES, ...DOCUMENT_EVENT_TYPES];

const BUDGET_TYPES = new Set<string>(BUDGET_EVENT_TYPES);
const DOCUMENT_TYPES = new Set<string>(DOCUMENT_EVENT_TYPES);

/** The newest position per budget id and per document id that the events touched. */
export interface Touched {
  budgets: Map<string, GlobalPosition>;
  documents: Map<string, GlobalPosition>;
}

function keepNewest(into: Map<string, GlobalPosition>, id: unknown, position: GlobalPosition): void {
  if (typeof id !== 'string') return;
  const known = into.get(id);
  if (!known || comparePositions(position, known) > 0) into.set(id, position);
}

export function touchedBy(events: readonly StoredEvent[]): Touched {
  const touched: Touched = { budgets: new Map(), documents: new Map() };
  for (const event of events) {
    const data = event.data as { budgetId?: unknown; documentId?: unknown } | null;
    if (BUDGET_TYPES.has(event.type)) keepNewest(touched.budgets, data?.budgetId, event.position);
    else if (DOCUMENT_TYPES.has(event.type)) keepNewest(touched.documents, data?.documentId, event.position);
  }
  return touched;
}
