import { type ImportPreview, roundAmount } from '@eelarve/shared';
import { FormattedMessage } from 'react-intl';
import { useCurrentUser } from '../../../app/session';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { amountFormatOf, formatFixedAmount } from '../../../i18n/format';

/**
 * Beyond the spec: what the import would change before it is sent — the new rows per sub-budget
 * of each scheme ('-2': rows that fit none) and each total before → after, exact decimals.
 */
export function ImportPreviewPanel({ preview, loading, error }: { preview: ImportPreview | undefined; loading: boolean; error: unknown }) {
  const me = useCurrentUser();
  const format = amountFormatOf(me.organizationLocaleSettings);
  const amount = (value: string) => formatFixedAmount(roundAmount(value, format.decimalPlaces), format.decimalSeparator);

  if (error) return <ErrorAlert error={error} title={<FormattedMessage id="recordImport.preview.failed" />} testId="record-import-preview-error" />;
  if (!preview)
    return loading ? (
      <p className="muted" data-testid="record-import-preview-loading">
        <FormattedMessage id="recordImport.preview.loading" />
      </p>
    ) : null;

  return (
    <section className="record-import-preview" aria-labelledby="record-import-preview-title" data-testid="record-import-preview" aria-busy={loading}>
      <h3 id="record-import-preview-title">
        <FormattedMessage id="recordImport.preview.title" />
      </h3>
      <p data-testid="record-import-preview-total">
        <FormattedMessage id="recordImport.preview.total" />: {amount(preview.total.before)} → <strong>{amount(preview.total.after)}</strong>
      </p>
      <table className="record-import-preview-table">
        <thead>
          <tr>
            <th scope="col">
              <FormattedMessage id="recordImport.preview.scheme" />
            </th>
            <th scope="col">
              <FormattedMessage id="recordImport.preview.subBudget" />
            </th>
            <th scope="col" className="numeric">
              <FormattedMessage id="recordImport.preview.rows" />
            </th>
            <th scope="col" className="numeric">
              <FormattedMessage id="recordImport.preview.before" />
            </th>
            <th scope="col" className="numeric">
              <FormattedMessage id="recordImport.preview.after" />
            </th>
          </tr>
        </thead>
        <tbody>
          {preview.schemes.flatMap((scheme) =>
            scheme.subBudgets.map((subBudget) => (
              <tr key={`${scheme.schemeId}-${subBudget.subBudgetId}`} data-testid="record-import-preview-row" data-sub-budget-id={subBudget.subBudgetId}>
                <td>{scheme.name}</td>
                <td>{subBudget.subBudgetId === '-2' || subBudget.name === null ? <FormattedMessage id="recordImport.preview.unfit" /> : subBudget.name}</td>
                <td className="numeric">+{subBudget.recordsAdded}</td>
                <td className="numeric">{amount(subBudget.totalBefore)}</td>
                <td className="numeric">{amount(subBudget.totalAfter)}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </section>
  );
}
