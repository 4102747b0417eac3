import { Fragment, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Alert } from '../../components/Alert';
import { Modal } from '../../components/Modal';
import { type DocumentPeriod, periodMonths, periodYears } from './model/period';
import { type DecimalSeparator, monthsTotal } from './model/record-edit';

/**
 * The period overview of a record (spec 3, Records screen): its months by year with the year sums
 * and the total. While a row is edited the months are typed here (an empty month counts as 0) and
 * the split, or its removal, goes back to the row, whose amount then follows the split.
 */
export function PeriodModal({
  name,
  period,
  months,
  formatAmount,
  separator,
  edit,
  onClose,
}: {
  name: string;
  period: DocumentPeriod;
  /** Canonical amounts when viewed; typed texts (or null for a new split) when edited. */
  months: readonly string[] | null;
  formatAmount: (amount: string) => string;
  separator: DecimalSeparator;
  /** Present while the row is edited: the typed split, or null to remove it. */
  edit?: { onApply: (months: string[] | null) => void };
  onClose: () => void;
}) {
  const intl = useIntl();
  const all = periodMonths(period);
  const years = periodYears(period);
  const [typed, setTyped] = useState<string[]>(() => all.map((month) => months?.[month.index] ?? ''));
  const [invalid, setInvalid] = useState(false);
  const values = edit ? typed : all.map((month) => months?.[month.index] ?? '0');
  const total = monthsTotal(values, edit ? separator : '.');
  const monthName = (year: number, month: number) => intl.formatDate(new Date(year, month - 1, 1), { month: 'long' });
  const sumText = (sum: string | null) => (sum === null ? '' : formatAmount(sum));

  const apply = () => {
    if (!edit) return;
    if (total === null) {
      setInvalid(true);
      return;
    }
    edit.onApply(typed);
  };

  return (
    <Modal
      title={edit ? <FormattedMessage id="records.period.editTitle" /> : <FormattedMessage id="records.period.title" values={{ name }} />}
      onClose={onClose}
      width={560}
      testId="record-period-modal"
      footer={
        edit ? (
          <>
            {months ? (
              <button type="button" className="button" onClick={() => edit.onApply(null)} data-testid="record-period-remove">
                <FormattedMessage id="records.period.remove" />
              </button>
            ) : null}
            <button type="button" className="button" onClick={onClose}>
              <FormattedMessage id="common.cancel" />
            </button>
            <button type="button" className="button button-primary" onClick={apply} data-testid="record-period-apply">
              <FormattedMessage id="records.period.apply" />
            </button>
          </>
        ) : (
          <button type="button" className="button" onClick={onClose}>
            <FormattedMessage id="common.close" />
          </button>
        )
      }
    >
      {!edit && !months ? (
        <p className="muted">
          <FormattedMessage id="records.period.none" />
        </p>
      ) : null}
      {invalid ? (
        <Alert kind="error" testId="record-period-invalid">
          <FormattedMessage id="records.period.invalid" />
        </Alert>
      ) : null}
      <table className="records-period-table" data-testid="record-period-table">
        <thead>
          <tr>
            <th scope="col">
              <FormattedMessage id="records.period.month" />
            </th>
            <th scope="col" className="numeric">
              <FormattedMessage id="records.period.amount" />
            </th>
          </tr>
        </thead>
        <tbody>
          {years.map((year) => (
            <Fragment key={year.key}>
              {year.months.map((index) => {
                const month = all[index];
                if (!month) return null;
                const label = `${monthName(month.year, month.month)} ${month.year}`;
                return (
                  <tr key={index}>
                    <th scope="row">{label}</th>
                    <td className="numeric">
                      {edit ? (
                        <input
                          type="text"
                          inputMode="decimal"
                          className="input records-month-input"
                          aria-label={label}
                          value={typed[index] ?? ''}
                          onChange={(event) => {
                            const next = [...typed];
                            next[index] = event.target.value;
                            setTyped(next);
                            setInvalid(false);
                          }}
                          data-testid={`record-month-${index}`}
                        />
                      ) : (
                        <span data-testid={`record-month-${index}`}>{formatAmount(values[index] ?? '0')}</span>
                      )}
                    </td>
                  </tr>
                );
              })}
              <tr className="records-period-sum">
                <th scope="row">
                  <FormattedMessage id="records.period.yearTotal" values={{ year: year.year }} />
                </th>
                <td className="numeric" data-testid={`record-period-${year.key}`}>
                  {sumText(
                    monthsTotal(
                      year.months.map((index) => values[index] ?? ''),
                      edit ? separator : '.',
                    ),
                  )}
                </td>
              </tr>
            </Fragment>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">
              <FormattedMessage id="records.period.total" />
            </th>
            <td className="numeric" data-testid="record-period-total">
              {sumText(total)}
            </td>
          </tr>
        </tfoot>
      </table>
    </Modal>
  );
}
