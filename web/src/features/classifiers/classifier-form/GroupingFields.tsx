import type { Classifier } from '@eelarve/shared';
import { FormattedMessage, useIntl } from 'react-intl';
import { CheckboxField, type FieldErrors, SelectField } from '../../../components/form';
import type { FormLock } from '../rules';
import type { ClassifierLocks } from './useClassifierLocks';
import type { ClassifierValues, SetValue } from './values';

/** What the classifier groups, its primary grouping classifier, and the required and sign switches with their locks. */
export function GroupingFields({
  classifier,
  classifiers,
  values,
  set,
  errors,
  locks,
}: {
  classifier: Classifier | null;
  classifiers: readonly Classifier[];
  values: ClassifierValues;
  set: SetValue;
  errors: FieldErrors;
  locks: ClassifierLocks;
}) {
  const intl = useIntl();
  const groupingOptions = classifiers.filter((other) => other.groupingId === null && other.id !== classifier?.id);
  const groupedBy = classifier ? classifiers.filter((other) => classifier.groupedByIds.includes(other.id)) : [];
  return (
    <>
      <SelectField
        labelId="classifiers.form.grouping"
        value={values.groupingId}
        disabled={classifier !== null}
        onChange={(groupingId) => set('groupingId', groupingId)}
        options={[
          { value: '', label: intl.formatMessage({ id: 'classifiers.form.groupingNone' }) },
          ...groupingOptions.map((option) => ({ value: option.id, label: option.name })),
        ]}
        testId="classifier-grouping-input"
      />
      {groupedBy.length > 0 ? (
        <SelectField
          labelId="classifiers.form.primaryGroupedBy"
          value={values.primaryGroupedById}
          onChange={(id) => set('primaryGroupedById', id)}
          options={[
            { value: '', label: intl.formatMessage({ id: 'common.select' }) },
            ...groupedBy.map((option) => ({ value: option.id, label: option.name })),
          ]}
          error={errors.primaryGroupedById}
          testId="classifier-primary-grouping-input"
        />
      ) : (
        <div />
      )}
      <div className="field choice-row field-wide">
        <LockedChoice lock={locks.required} checked={values.required} onChange={(required) => set('required', required)} testId="classifier-required">
          <FormattedMessage id="classifiers.form.required" />
        </LockedChoice>
        <LockedChoice lock={locks.sign} checked={values.itemCanChangeSign} onChange={(sign) => set('itemCanChangeSign', sign)} testId="classifier-sign">
          <FormattedMessage id="classifiers.form.itemCanChangeSign" />
        </LockedChoice>
      </div>
    </>
  );
}

/** A switch that a lock may hold at its value, with the reason as title and hint. */
function LockedChoice({
  lock,
  checked,
  onChange,
  testId,
  children,
}: {
  lock: FormLock | null;
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId: string;
  children: React.ReactNode;
}) {
  const intl = useIntl();
  return (
    <div className="choice">
      <CheckboxField
        checked={lock ? lock.value : checked}
        disabled={lock !== null}
        title={lock ? intl.formatMessage({ id: lock.reason }) : undefined}
        onChange={onChange}
        testId={`${testId}-input`}
      >
        {children}
      </CheckboxField>
      {lock ? (
        <div className="field-hint" data-testid={`${testId}-hint`} data-reason={lock.reason}>
          <FormattedMessage id={lock.reason} />
        </div>
      ) : null}
    </div>
  );
}
