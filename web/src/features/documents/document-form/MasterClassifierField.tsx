import type { Document } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useIntl } from 'react-intl';
import { type FieldMessage, SelectField } from '../../../components/form';
import { type ClassifierOption, documentClassifiersQuery } from '../api/queries';

/** Required, not grouping, and not used in a scheme (unless it already is the master classifier). */
export function masterOptionsOf(classifiers: readonly ClassifierOption[], document: Document): ClassifierOption[] {
  return classifiers.filter(
    (classifier) => classifier.required && classifier.groupingId === null && (!classifier.isInUseSchema || classifier.id === document.masterClassifierId),
  );
}

/** The document's classifiers that may be its master classifier. */
export function useMasterOptions(document: Document | null): ClassifierOption[] {
  const classifiers = useQuery({ ...documentClassifiersQuery(document?.id ?? ''), enabled: document !== null });
  return document ? masterOptionsOf(classifiers.data ?? [], document) : [];
}

/** The master classifier choice of the settings tab (spec 2, section 5). */
export function MasterClassifierField({
  options,
  value,
  onChange,
  disabled,
  error,
}: {
  options: readonly ClassifierOption[];
  value: string;
  onChange: (id: string) => void;
  /** Read-only where the document's status locks its settings. */
  disabled: boolean;
  error?: FieldMessage;
}) {
  const intl = useIntl();
  return (
    <SelectField
      labelId="documents.field.masterClassifier"
      value={value}
      onChange={onChange}
      options={options.map((classifier) => ({ value: classifier.id, label: classifier.name }))}
      placeholder={intl.formatMessage({ id: 'common.select' })}
      hintId="documents.field.masterClassifierHint"
      error={error}
      disabled={disabled}
      testId="document-master-classifier"
    />
  );
}
