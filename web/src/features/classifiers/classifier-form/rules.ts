import type { Classifier } from '@eelarve/shared';
import { type FieldErrors, messageOf } from '../../../components/form';
import type { ClassifierLocks } from './useClassifierLocks';
import type { ClassifierValues } from './values';

const outside = (value: number, range: { from: number; to: number }) => Number.isFinite(value) && (value < range.from || value > range.to);

/** What is sent: a locked switch at its lock's value, lengths as numbers. */
export function payloadOf(values: ClassifierValues, classifier: Classifier | null, locks: Pick<ClassifierLocks, 'required' | 'sign' | 'bounds'>) {
  return {
    name: values.name,
    itemName: values.itemName,
    fieldName: values.fieldName,
    description: values.description,
    required: locks.required ? locks.required.value : values.required,
    itemCanChangeSign: locks.sign ? locks.sign.value : values.itemCanChangeSign,
    primary: classifier?.primary ?? false,
    primaryGroupedById: values.primaryGroupedById || null,
    displayMode: values.displayMode,
    codeSettings: { typeName: values.typeName, minLength: Number(values.minLength), maxLength: Number(values.maxLength), hierarchical: values.hierarchical },
  };
}

/**
 * The form's own checks; the schema's messages take precedence. Lengths stay within the bounds of
 * the existing codes (spec 2, section 5); a classifier grouped by others names its primary one.
 */
export function formRules(values: ClassifierValues, locks: Pick<ClassifierLocks, 'required' | 'sign' | 'bounds'>, hasGroupedBy: boolean): FieldErrors {
  const errors: FieldErrors = {};
  const min = Number(values.minLength);
  const max = Number(values.maxLength);
  if (outside(min, locks.bounds.min)) errors['codeSettings.minLength'] = messageOf('lengthOutOfRange');
  if (outside(max, locks.bounds.max)) errors['codeSettings.maxLength'] = messageOf('lengthOutOfRange');
  else if (max < min) errors['codeSettings.maxLength'] = messageOf('minAndMax');
  if (hasGroupedBy && !values.primaryGroupedById) errors.primaryGroupedById = messageOf('validation.required');
  return errors;
}
