import type { ImportSubBudget } from '@eelarve/shared';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { DropdownMenu } from '../../../components/DropdownMenu';
import type { StatusPermissions } from '../../../components/status-lock/status-lock';
import { useToasts } from '../../../components/Toasts';
import { useRefreshRecords } from '../api/mutations';
import { canImportRecords } from './access';
import { type ImportPlace, RecordImportModal } from './RecordImportModal';
import type { SourceMode } from './SourceStep';
import { type ImportRun, useImportPolling } from './useImportPolling';

export interface ImportMenuProps {
  documentId: string;
  budget: { id: string; name: string; permissions: StatusPermissions };
  /** Import into this sub-budget (the records screen); absent on the sub-budgets page (the whole budget). */
  subBudget?: (ImportSubBudget & { id: string; name: string; update?: boolean }) | null;
  /** After an import's polling ended (the records and counts are refreshed already). */
  onImported?: () => void;
}

/**
 * The import menu of the records screen and the sub-budgets page (spec 3, sections 2 and 4): from
 * a file or from another budget. The import's status is polled here, so it goes on (and says how
 * it ended, then refreshes the data) when the modal is closed.
 */
export function ImportMenu({ documentId, budget, subBudget = null, onImported }: ImportMenuProps) {
  const intl = useIntl();
  const { showSuccess, showFailure } = useToasts();
  const [mode, setMode] = useState<SourceMode | null>(null);
  // The import the open modal started: a new modal starts at its source, while an earlier import is still polled.
  const [modalImportId, setModalImportId] = useState<string | null>(null);
  const target = { budgetId: budget.id, subBudgetId: subBudget?.id ?? null };
  const refresh = useRefreshRecords(budget.id);

  const polling = useImportPolling(target, (run: ImportRun) => {
    if (run.phase === 'SUCCESS') showSuccess('importRecordsSuccess', { count: run.result?.recordsInserted ?? 0 });
    else if (run.phase === 'ERROR') showFailure('importRecordsError', undefined);
    // Spec 3, section 4: when polling ends the data is read again.
    void refresh().then(onImported);
  });

  const enabled = canImportRecords(budget.permissions) && subBudget?.update !== false;
  const label = intl.formatMessage({ id: 'recordImport.menu' });
  if (!enabled) {
    return (
      <span title={intl.formatMessage({ id: 'recordImport.unavailable' })} data-testid="record-import-unavailable">
        <button type="button" className="button" disabled>
          {label}
        </button>
      </span>
    );
  }

  const place: ImportPlace = {
    documentId,
    target,
    targetName: subBudget?.name ?? budget.name,
    subBudget: subBudget ? { schemeClassifierIds: subBudget.schemeClassifierIds, classifiers: subBudget.classifiers } : null,
  };
  const open = (next: SourceMode) => {
    setModalImportId(null);
    setMode(next);
  };
  return (
    <>
      <DropdownMenu
        label={label}
        testId="record-import-menu"
        items={[
          { key: 'file', label: <FormattedMessage id="recordImport.fromFile" />, onSelect: () => open('file'), testId: 'record-import-from-file' },
          { key: 'budget', label: <FormattedMessage id="recordImport.fromBudget" />, onSelect: () => open('budget'), testId: 'record-import-from-budget' },
        ]}
      >
        <span className="button">{label}</span>
      </DropdownMenu>
      {mode ? (
        <RecordImportModal
          mode={mode}
          place={place}
          run={polling.run && polling.run.id === modalImportId ? polling.run : null}
          onStarted={(started) => {
            setModalImportId(started.id);
            polling.start(started);
          }}
          onClose={() => setMode(null)}
        />
      ) : null}
    </>
  );
}
