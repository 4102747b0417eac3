import type { Classifier } from '@eelarve/shared';
import { FormattedMessage, useIntl } from 'react-intl';
import { EditIcon, TrashIcon } from '../../components/icons';
import type { MessageKey } from '../../i18n/messages';

/** The selected classifier's settings, with edit and delete for those who may (spec 2, section 2). */
export function ClassifierMeta({
  classifier,
  classifiers,
  canEdit,
  onEdit,
  onDelete,
}: {
  classifier: Classifier;
  classifiers: Classifier[];
  canEdit: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const intl = useIntl();
  const nameOf = (id: string | null) => classifiers.find((other) => other.id === id)?.name;
  const none = intl.formatMessage({ id: 'classifiers.meta.none' });
  const yesNo = (value: boolean) => intl.formatMessage({ id: value ? 'common.yes' : 'common.no' });
  const deleteBlocked = (classifier.itemsCount ?? 0) > 0 || classifier.isInUseSchema || classifier.groupedByIds.length > 0;
  const rows: [MessageKey, string][] = [
    ['classifiers.meta.fieldName', classifier.fieldName],
    ['classifiers.meta.itemName', classifier.itemName],
    ['classifiers.meta.description', classifier.description || none],
    ['classifiers.meta.required', yesNo(classifier.required)],
    ['classifiers.meta.itemCanChangeSign', yesNo(classifier.itemCanChangeSign)],
    ['classifiers.meta.grouping', nameOf(classifier.groupingId) ?? none],
    ['classifiers.meta.groupedBy', classifier.groupedByIds.map((id) => nameOf(id) ?? id).join(', ') || none],
    ['classifiers.meta.displayMode', intl.formatMessage({ id: `classifiers.displayMode.${classifier.displayMode}` })],
    ['classifiers.meta.codeType', intl.formatMessage({ id: `classifiers.codeType.${classifier.codeSettings.typeName}` })],
    [
      'classifiers.meta.codeLength',
      intl.formatMessage({ id: 'classifiers.meta.codeLengthValue' }, { min: classifier.codeSettings.minLength, max: classifier.codeSettings.maxLength }),
    ],
    ['classifiers.meta.hierarchical', yesNo(classifier.codeSettings.hierarchical)],
  ];
  return (
    <div className="classifier-meta" data-testid="classifier-meta">
      <div className="classifier-meta-header">
        <h2 data-testid="classifier-meta-name">
          {classifier.name}
          {classifier.master ? (
            <span className="badge">
              <FormattedMessage id="classifiers.master" />
            </span>
          ) : null}
        </h2>
        {canEdit ? (
          <div className="row-actions">
            <button type="button" className="button button-small" onClick={onEdit} data-testid="classifier-edit">
              <EditIcon />
              <FormattedMessage id="classifiers.edit" />
            </button>
            <span title={deleteBlocked ? intl.formatMessage({ id: 'classifiers.deleteBlocked' }) : undefined} data-testid="classifier-delete-tooltip">
              <button type="button" className="button button-small button-danger" onClick={onDelete} disabled={deleteBlocked} data-testid="classifier-delete">
                <TrashIcon />
                <FormattedMessage id="classifiers.delete" />
              </button>
            </span>
          </div>
        ) : (
          <span className="muted" data-testid="classifiers-read-only">
            <FormattedMessage id="classifiers.readOnly" />
          </span>
        )}
      </div>
      <dl className="classifier-meta-list">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>
              <FormattedMessage id={label} />
            </dt>
            <dd data-testid={`classifier-meta-${label.slice('classifiers.meta.'.length)}`}>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
