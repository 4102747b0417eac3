import { randomUUID } from 'node:crypto';
import { budgetDecider, type Decider, type DomainEvent, documentDecider, classifierDecider } from '@eelarve/domain';
import type { FastifyInstance } from 'fastify';
import { type CommandActor, executeCommand } from '@eelarve/gateway/infrastructure/commands';

/**
 * Fixtures for the schemes and sub-budgets API tests: documents, classifiers with items, master
 * classifiers and budgets made with the other features' own commands (their routes are not
 * needed), each waited for in the read models.
 */
const actor: CommandActor = { correlationId: 'schemes-test', userId: null, occupationId: null, organizationId: null };
const READ_MODELS = ['documents', 'classifiers', 'budgets', 'schemes'];

const documentSettings = (name: string) => ({
  name,
  description: '',
  period: { year: 2026, month: 1, duration: 1 },
  recordAmountKey: 'summa',
  allowCommentingWithReadPermissions: false,
});

export function schemesFixture(app: FastifyInstance) {
  async function run<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, command: C): Promise<void> {
    const outcome = await executeCommand(app.store, decider, command, actor);
    if (outcome.position) await app.projections.waitForPosition(READ_MODELS, outcome.position, 5_000);
  }

  async function document(organizationId: string, name = `Dokument ${randomUUID().slice(0, 6)}`): Promise<string> {
    const documentId = randomUUID();
    await run(documentDecider, { type: 'CreateDocument', documentId, organizationId, ...documentSettings(name), now: new Date() });
    return documentId;
  }

  /**
   * Saves a document's settings as its settings form would: a master classifier (any id will do
   * where only its presence counts, as for creating budgets) and a status.
   */
  async function updateDocument(
    documentId: string,
    { masterClassifierId, resourceStatusId = null, name = 'Dokument' }: { masterClassifierId: string; resourceStatusId?: string | null; name?: string },
  ): Promise<void> {
    await run(documentDecider, {
      type: 'UpdateDocument',
      documentId,
      ...documentSettings(name),
      resourceStatusId,
      masterClassifierId,
      recordsCount: 0,
      platformAdmin: true,
    });
  }

  /** A document whose settings have been saved once (see `updateDocument`), ready for budgets. */
  async function documentWithMaster(
    organizationId: string,
    { masterClassifierId = randomUUID(), resourceStatusId = null }: { masterClassifierId?: string; resourceStatusId?: string | null } = {},
  ): Promise<string> {
    const name = `Dokument ${randomUUID().slice(0, 6)}`;
    const documentId = await document(organizationId, name);
    await updateDocument(documentId, { masterClassifierId, resourceStatusId, name });
    return documentId;
  }

  /** A classifier of the document with the given items (code → unselectable). */
  async function classifier(documentId: string, organizationId: string, fieldName: string, items: Record<string, boolean>, required = true): Promise<string> {
    const classifierId = randomUUID();
    await run(classifierDecider, {
      type: 'CreateClassifier',
      classifierId,
      documentId,
      organizationId,
      groupingId: null,
      name: fieldName,
      itemName: fieldName,
      fieldName,
      description: '',
      required,
      itemCanChangeSign: false,
      primary: false,
      primaryGroupedById: null,
      displayMode: 'CODE_AND_NAME',
      codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
      context: { isMaster: false, groupsMaster: false, groupedByIds: [], secondaryInScheme: false, groupedItemsWithoutValue: 0, recordsWithoutValue: 0 },
    });
    for (const [code, unselectable] of Object.entries(items)) {
      await run(classifierDecider, {
        type: 'AddClassifierItem',
        classifierId,
        item: { id: randomUUID(), code, name: `Item ${code}`, description: '', sign: null, unselectable, groupedBy: [] },
        groupings: [],
      });
    }
    return classifierId;
  }

  /** Deletes a classifier as if nothing used it (to reach states the classifier rules normally prevent). */
  async function deleteClassifier(classifierId: string): Promise<void> {
    await run(classifierDecider, { type: 'DeleteClassifier', classifierId, usedInScheme: false, isMaster: false, groupedByIds: [] });
  }

  /** Many selectable items at once, through the classifier's import command. */
  async function items(classifierId: string, codes: string[]): Promise<void> {
    await run(classifierDecider, {
      type: 'ImportClassifierItems',
      classifierId,
      rows: codes.map((code) => ({ code, name: `Item ${code}`, unselectable: false })),
      loose: false,
      newIds: codes.map(() => randomUUID()),
      groupings: [],
    });
  }

  async function deleteBudget(budgetId: string): Promise<void> {
    await run(budgetDecider, { type: 'DeleteBudget', budgetId, usedAsComponentBy: [] });
  }

  async function deleteDocument(documentId: string): Promise<void> {
    await run(documentDecider, { type: 'DeleteDocument', documentId });
  }

  async function setMaster(documentId: string, masterClassifierId: string): Promise<void> {
    await updateDocument(documentId, { masterClassifierId });
  }

  async function budget(documentId: string, organizationId: string, budgetType: 'COMMON' | 'SUM_BUDGET' | 'MONITORING' = 'COMMON'): Promise<string> {
    const budgetId = randomUUID();
    await run(budgetDecider, {
      type: 'CreateBudget',
      budgetId,
      documentId,
      organizationId,
      budgetType,
      name: `Eelarve ${budgetId.slice(0, 6)}`,
      description: '',
      resourceStatusId: null,
      sumBudgetComponentIds: [],
      tags: [],
      now: new Date(),
    });
    return budgetId;
  }

  return { document, updateDocument, documentWithMaster, deleteDocument, deleteBudget, classifier, items, deleteClassifier, setMaster, budget };
}
