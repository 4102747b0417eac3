import type { RecordHistoryEntry } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { formatDate } from '../../i18n/format';
import { useRevertRecordChange } from './api/mutations';
import { recordHistoryQuery } from './api/queries';
import type { SubBudgetRef } from './api/requests';
import { itemText, type ItemIndex } from './model/grouping';
import { type PeriodYear, periodSums } from './model/period';

type HistoryRecord = NonNullable<RecordHistoryEntry['record']>;

/**
 * A record's history (spec 3, Records screen; issue 11, point 3): every version from the event log,
 * newest first, with the fields it changed highlighted, who changed it, in which occupation and
 * when; a change can be undone by a new, compensating change (nothing is rewritten).
 */
export function HistoryModal({
  subBudget,
  recordId,
  name,
  classifiers,
  items,
  years,
  canRevert,
  formatAmount,
  dateTimeFormat,
  onClose,
}: {
  subBudget: SubBudgetRef;
  recordId: string;
  name: string;
  classifiers: ReadonlyArray<{ id: string; name: string }>;
  items: ItemIndex;
  years: readonly PeriodYear[];
  canRevert: boolean;
  formatAmount: (amount: string) => string;
  dateTimeFormat: string;
  onClose: () => void;
}) {
  const intl = useIntl();
  const history = useQuery(recordHistoryQuery(subBudget, recordId));
  const revert = useRevertRecordChange(subBudget, recordId);
  const entries = [...(history.data ?? [])].sort((a, b) => b.version - a.version);
  const versionOf = new Map((history.data ?? []).map((entry) => [entry.eventId, entry.version]));
  const fields: Array<{ key: string; label: string; show: (record: HistoryRecord) => string }> = [
    { key: 'name', label: intl.formatMessage({ id: 'records.column.name' }), show: (record) => record.name },
    { key: 'amount', label: intl.formatMessage({ id: 'records.column.amount' }), show: (record) => formatAmount(record.amount) },
    {
      key: 'factors',
      label: intl.formatMessage({ id: 'records.field.months' }),
      show: (record) => {
        const sums = periodSums(record.factors.months, years);
        return years
          .filter((year) => sums[year.key] !== undefined)
          .map((year) => `${year.year}: ${formatAmount(sums[year.key] ?? '0')}`)
          .join('; ');
      },
    },
    {
      key: 'extra.promoted',
      label: intl.formatMessage({ id: 'records.promoted' }),
      show: (record) => intl.formatMessage({ id: record.extra.promoted ? 'records.history.promotedYes' : 'records.history.promotedNo' }),
    },
    ...classifiers.map((classifier) => ({
      key: `classifiers.${classifier.id}`,
      label: classifier.name,
      show: (record: HistoryRecord) => {
        const code = record.classifiers[classifier.id] ?? '';
        return code === '' ? '' : itemText(items.get(classifier.id)?.get(code), code);
      },
    })),
  ];
  const oldest = Math.min(...entries.map((entry) => entry.version));

  return (
    <Modal
      title={<FormattedMessage id="records.history.title" values={{ name }} />}
      onClose={onClose}
      // Spec 3: the history scrolls inside 90% of the window's width.
      width={Math.round(window.innerWidth * 0.9)}
      busy={revert.isPending}
      testId="record-history-modal"
      footer={
        <button type="button" className="button" onClick={onClose} disabled={revert.isPending}>
          <FormattedMessage id="common.close" />
        </button>
      }
    >
      {history.isPending ? <Spinner /> : null}
      {history.isError ? <ErrorAlert error={history.error} title={<FormattedMessage id="records.history.loadFailed" />} testId="record-history-error" /> : null}
      {history.data ? (
        <div className="records-history-scroll">
          <table className="records-history-table" data-testid="record-history-table">
            <thead>
              <tr>
                <th scope="col">
                  <FormattedMessage id="records.history.changes" />
                </th>
                <th scope="col">
                  <FormattedMessage id="records.history.changedBy" />
                </th>
                <th scope="col">
                  <FormattedMessage id="records.history.occupation" />
                </th>
                <th scope="col">
                  <FormattedMessage id="records.history.changedAt" />
                </th>
                {fields.map((field) => (
                  <th scope="col" key={field.key}>
                    {field.label}
                  </th>
                ))}
                {canRevert ? (
                  <th scope="col">
                    <span className="visually-hidden">
                      <FormattedMessage id="records.history.revert" />
                    </span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => {
                const changed = new Set(entry.changedFields.map((field) => (field.startsWith('factors') ? 'factors' : field)));
                const reverted = entry.revertedEventId ? versionOf.get(entry.revertedEventId) : undefined;
                return (
                  <tr key={entry.eventId} data-testid="record-history-entry" data-version={entry.version} data-kind={entry.kind}>
                    <th scope="row">
                      <div>
                        <FormattedMessage id="records.history.version" values={{ version: entry.version }} />
                      </div>
                      <div className="muted">
                        <FormattedMessage id={`records.history.kind.${entry.kind}`} />
                      </div>
                      {reverted !== undefined ? (
                        <div className="muted" data-testid="record-history-reverts">
                          <FormattedMessage id="records.history.reverts" values={{ version: reverted }} />
                        </div>
                      ) : null}
                    </th>
                    <td data-testid="record-history-user">{entry.changedBy.userName}</td>
                    <td data-testid="record-history-occupation">{entry.changedBy.occupationName ?? ''}</td>
                    <td data-testid="record-history-time">{formatDate(entry.changedAt, dateTimeFormat)}</td>
                    {fields.map((field) => {
                      const isChanged = changed.has(field.key);
                      return (
                        <td
                          key={field.key}
                          className={isChanged ? 'records-history-changed' : undefined}
                          data-field={field.key}
                          data-changed={isChanged ? 'true' : undefined}
                        >
                          {entry.record ? field.show(entry.record) : '—'}
                        </td>
                      );
                    })}
                    {canRevert ? (
                      <td>
                        {entry.version !== oldest && entry.changedFields.length > 0 ? (
                          <button
                            type="button"
                            className="button button-small"
                            title={intl.formatMessage({ id: 'records.history.revertLabel' }, { version: entry.version })}
                            disabled={revert.isPending}
                            onClick={() => revert.mutate(entry.eventId)}
                            data-testid="record-history-revert"
                          >
                            <FormattedMessage id="records.history.revert" />
                          </button>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </Modal>
  );
}
