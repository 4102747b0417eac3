import { type ReportColumnsSettings, type ReportViewSettings, STORED_SETTING_NAME_MAX, type StoredSetting, type StoredSettingType } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useToasts } from '../../components/Toasts';
import { storedSettingsQuery, useStoredSettingChange } from './api';
import { Popover } from './Popover';

/**
 * The menu of saved views and saved column sets (spec 3, sections 2, 4 and 6): apply, save the
 * current one under a name (at most 40 characters), rename, delete, move up or down among the
 * general or the personal ones, and make a personal one general with document update permission.
 */

export interface SavedScope {
  documentId: string;
  budgetId: string;
  organizationId: string;
  userId: string;
  canPromote: boolean;
}

type Settings = ReportViewSettings | ReportColumnsSettings;

const FAILURE = { REPORT: 'viewError', REPORT_COLUMNS: 'columnsSaveError' } as const;

function NameForm({ label, initial = '', onSave, testId }: { label: string; initial?: string; onSave: (name: string) => void; testId: string }) {
  const id = useId();
  const [name, setName] = useState(initial);
  const valid = name.trim() !== '' && name.trim().length <= STORED_SETTING_NAME_MAX;
  return (
    <form
      className="report-name-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) onSave(name.trim());
      }}
    >
      <label htmlFor={id}>{label}</label>
      <input id={id} value={name} maxLength={STORED_SETTING_NAME_MAX} onChange={(event) => setName(event.target.value)} data-testid={`${testId}-name`} />
      <button type="submit" className="button" disabled={!valid} data-testid={`${testId}-save`}>
        <FormattedMessage id="report.saved.save" />
      </button>
    </form>
  );
}

function SavedList({
  type,
  scope,
  current,
  onApply,
  close,
}: {
  type: StoredSettingType;
  scope: SavedScope;
  current: () => Settings | null;
  onApply: (setting: StoredSetting) => void;
  close: () => void;
}) {
  const intl = useIntl();
  const { showFailure } = useToasts();
  const list = useQuery(storedSettingsQuery(scope.documentId, scope.budgetId, type));
  const change = useStoredSettingChange({ onError: (error) => showFailure(FAILURE[type], error) });
  const [renaming, setRenaming] = useState<string | null>(null);
  const items = list.data ?? [];
  const prefix = type === 'REPORT' ? 'report-view' : 'report-columns';

  const move = (item: StoredSetting, step: -1 | 1) => {
    const group = items.filter((candidate) => candidate.userId === item.userId);
    const from = group.indexOf(item);
    const to = from + step;
    if (to < 0 || to >= group.length) return;
    const order = group.map((candidate) => candidate.id);
    [order[from], order[to]] = [order[to] as string, order[from] as string];
    change.mutate({
      kind: 'order',
      body: { userId: item.userId, documentId: scope.documentId, budgetId: scope.budgetId, organizationId: scope.organizationId, type, order },
    });
  };

  return (
    <section className="report-saved-section" data-testid={`${prefix}s`}>
      <h3 className="report-saved-title">
        <FormattedMessage id={type === 'REPORT' ? 'report.saved.views' : 'report.saved.columns'} />
      </h3>
      {list.isError ? (
        <p role="alert">
          <FormattedMessage id={type === 'REPORT' ? 'viewError' : 'columnsLoadError'} />
        </p>
      ) : null}
      {list.isSuccess && items.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="report.saved.none" />
        </p>
      ) : null}
      <ul className="report-saved-list">
        {items.map((item) => {
          const group = items.filter((candidate) => candidate.userId === item.userId);
          const index = group.indexOf(item);
          return (
            <li key={item.id} className="report-saved-item" data-testid={prefix} data-name={item.name} data-general={item.userId === null}>
              {renaming === item.id ? (
                <NameForm
                  label={intl.formatMessage({ id: 'report.saved.rename' })}
                  initial={item.name}
                  testId={`${prefix}-rename`}
                  onSave={(name) => {
                    setRenaming(null);
                    change.mutate({ kind: 'update', body: { settingId: item.id, documentId: scope.documentId, name, settings: item.settings } });
                  }}
                />
              ) : (
                <button
                  type="button"
                  className="link-button"
                  aria-label={intl.formatMessage({ id: 'report.saved.apply' }, { name: item.name })}
                  onClick={() => {
                    onApply(item);
                    close();
                  }}
                  data-testid={`${prefix}-apply`}
                >
                  {item.name}
                </button>
              )}
              {item.userId === null ? (
                <span className="tag">
                  <FormattedMessage id="report.saved.general" />
                </span>
              ) : null}
              <span className="report-saved-actions">
                <button type="button" className="link-button" onClick={() => setRenaming(item.id)} data-testid={`${prefix}-rename`}>
                  <FormattedMessage id="report.saved.rename" />
                </button>
                <button type="button" className="link-button" disabled={index === 0} onClick={() => move(item, -1)} data-testid={`${prefix}-up`}>
                  <FormattedMessage id="report.saved.up" />
                </button>
                <button
                  type="button"
                  className="link-button"
                  disabled={index === group.length - 1}
                  onClick={() => move(item, 1)}
                  data-testid={`${prefix}-down`}
                >
                  <FormattedMessage id="report.saved.down" />
                </button>
                {item.userId !== null && scope.canPromote ? (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => change.mutate({ kind: 'promote', id: item.id })}
                    data-testid={`${prefix}-promote`}
                  >
                    <FormattedMessage id="report.saved.promote" />
                  </button>
                ) : null}
                <button
                  type="button"
                  className="link-button link-danger"
                  onClick={() => change.mutate({ kind: 'delete', id: item.id })}
                  data-testid={`${prefix}-delete`}
                >
                  <FormattedMessage id="report.saved.delete" />
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      <NameForm
        label={intl.formatMessage({ id: type === 'REPORT' ? 'report.saved.saveView' : 'report.saved.saveColumns' })}
        testId={`${prefix}-new`}
        onSave={(name) => {
          const settings = current();
          if (!settings) return;
          const base = { name, documentId: scope.documentId, budgetId: scope.budgetId };
          change.mutate({
            kind: 'create',
            body:
              type === 'REPORT' ? { ...base, type, settings: settings as ReportViewSettings } : { ...base, type, settings: settings as ReportColumnsSettings },
          });
        }}
      />
    </section>
  );
}

export function SavedSettingsMenu({
  scope,
  currentView,
  currentColumns,
  onApplyView,
  onApplyColumns,
}: {
  scope: SavedScope;
  currentView: () => ReportViewSettings | null;
  currentColumns: () => ReportColumnsSettings;
  onApplyView: (settings: ReportViewSettings) => void;
  onApplyColumns: (settings: ReportColumnsSettings) => void;
}) {
  const intl = useIntl();
  return (
    <Popover label={<FormattedMessage id="report.saved.menu" />} title={intl.formatMessage({ id: 'report.saved.menu' })} testId="report-saved">
      {(close) => (
        <div className="report-saved">
          <SavedList type="REPORT" scope={scope} current={currentView} onApply={(item) => onApplyView(item.settings as ReportViewSettings)} close={close} />
          <SavedList
            type="REPORT_COLUMNS"
            scope={scope}
            current={currentColumns}
            onApply={(item) => onApplyColumns(item.settings as ReportColumnsSettings)}
            close={close}
          />
        </div>
      )}
    </Popover>
  );
}
