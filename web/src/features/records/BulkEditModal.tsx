import type { ClassifierItem } from '@eelarve/shared';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Modal } from '../../components/Modal';
import { Form, messageOf, ModalFormFooter, SelectField, type SelectOption, TextField } from '../../components/form';
import type { SubBudgetRef } from './api/requests';
import { useBulkEditRecords } from './api/mutations';
import { type BulkEditField, parseBulkEdit } from './model/bulk-edit';
import { itemText } from './model/grouping';
import { classifierField, classifierIdOf, type DecimalSeparator, isClassifierField } from './model/record-edit';

/**
 * Bulk edit of the selected records (spec 3, section 5): one field (the name, the amount or a
 * classifier) gets one value on every record. The field is required; a value is required for the
 * name, the amount and a required classifier.
 */
export function BulkEditModal({
  subBudget,
  recordIds,
  classifiers,
  options,
  separator,
  onClose,
}: {
  subBudget: SubBudgetRef;
  recordIds: string[];
  classifiers: ReadonlyArray<{ id: string; name: string; required: boolean }>;
  options: ReadonlyMap<string, ClassifierItem[]>;
  separator: DecimalSeparator;
  onClose: () => void;
}) {
  const intl = useIntl();
  const formId = useId();
  const [field, setField] = useState<BulkEditField>('');
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState<{ field?: string; value?: string }>({});
  const bulkEdit = useBulkEditRecords(subBudget, onClose);

  const fieldOptions: SelectOption[] = [
    { value: 'name', label: intl.formatMessage({ id: 'records.column.name' }) },
    { value: 'amount', label: intl.formatMessage({ id: 'records.column.amount' }) },
    ...classifiers.map((classifier) => ({ value: classifierField(classifier.id), label: classifier.name })),
  ];
  const classifierId = isClassifierField(field) ? classifierIdOf(field) : null;
  const classifier = classifiers.find((candidate) => candidate.id === classifierId);

  const submit = () => {
    const parsed = parseBulkEdit(recordIds, field, value, { classifiers, separator });
    if (!parsed.success) {
      setInvalid(parsed.invalid);
      return;
    }
    setInvalid({});
    bulkEdit.mutate(parsed.body);
  };

  return (
    <Modal
      title={<FormattedMessage id="records.bulk.title" values={{ count: recordIds.length }} />}
      onClose={onClose}
      busy={bulkEdit.isPending}
      testId="records-bulk-edit-modal"
      footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={bulkEdit.isPending} testIdPrefix="records-bulk-edit" />}
    >
      <Form id={formId} onSubmit={submit}>
        <SelectField
          labelId="records.bulk.field"
          value={field}
          onChange={(next) => {
            setField(next as BulkEditField);
            setValue('');
            setInvalid({});
          }}
          options={fieldOptions}
          placeholder={intl.formatMessage({ id: 'common.select' })}
          error={messageOf(invalid.field)}
          testId="records-bulk-edit-field"
        />
        {classifier ? (
          <SelectField
            labelId="records.bulk.value"
            value={value}
            onChange={(next) => {
              setValue(next);
              setInvalid({});
            }}
            options={[
              // An optional classifier can be cleared on every record.
              ...(classifier.required ? [] : [{ value: '', label: intl.formatMessage({ id: 'records.none' }) }]),
              ...(options.get(classifier.id) ?? []).map((item) => ({ value: item.code, label: itemText(item, item.code) })),
            ]}
            placeholder={classifier.required ? intl.formatMessage({ id: 'records.choose' }) : undefined}
            hintId={classifier.required ? undefined : 'records.bulk.clears'}
            error={messageOf(invalid.value)}
            testId="records-bulk-edit-value"
          />
        ) : (
          <TextField
            labelId="records.bulk.value"
            value={value}
            inputMode={field === 'amount' ? 'decimal' : undefined}
            disabled={field === ''}
            onChange={(next) => {
              setValue(next);
              setInvalid({});
            }}
            error={messageOf(invalid.value)}
            testId="records-bulk-edit-value"
          />
        )}
      </Form>
    </Modal>
  );
}
