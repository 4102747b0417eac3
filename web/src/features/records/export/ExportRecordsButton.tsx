import { FormattedMessage, useIntl } from 'react-intl';
import { useCurrentUser } from '../../../app/session';
import { canExportRecords } from './access';
import { type ExportSource, useRecordsExport } from './useRecordsExport';

/**
 * The records export button of the records screen (one sub-budget) and the sub-budgets page (the
 * scheme's sub-budgets, a sheet each); shown with DATA_VIEW and budget read (spec 3, section 6).
 */
export function ExportRecordsButton({
  documentId,
  budgetPermissions,
  source,
}: {
  documentId: string;
  budgetPermissions: { read: boolean };
  /** Null while what to export is not loaded yet. */
  source: ExportSource | null;
}) {
  const intl = useIntl();
  const me = useCurrentUser();
  const exportRecords = useRecordsExport(documentId);
  if (!canExportRecords(me, budgetPermissions)) return null;
  return (
    <button
      type="button"
      className="button"
      onClick={() => source && exportRecords.mutate(source)}
      disabled={!source || exportRecords.isPending}
      title={intl.formatMessage({ id: 'recordExport.buttonTitle' })}
      aria-busy={exportRecords.isPending}
      data-testid="record-export"
    >
      <FormattedMessage id="recordExport.button" />
    </button>
  );
}
