import { type Classifier, parseTypedAmount, recordsBulkEditSchema } from '@eelarve/shared';
import type { z } from 'zod';
import { classifierIdOf, type ClassifierField, type DecimalSeparator, isClassifierField } from './record-edit';

/** The bulk edit modal's field: the name, the amount or one classifier (spec 3, section 5, bulk edit). */
export type BulkEditField = '' | 'name' | 'amount' | ClassifierField;
export type BulkEditBody = z.infer<typeof recordsBulkEditSchema>;
export type BulkEditResult = { success: true; body: BulkEditBody } | { success: false; invalid: { field?: string; value?: string } };

/**
 * The body of a bulk edit: the field is required; a value is required for the name, the amount and
 * a required classifier; an optional classifier left empty is cleared on the records.
 */
export function parseBulkEdit(
  recordIds: readonly string[],
  field: BulkEditField,
  value: string,
  { classifiers, separator }: { classifiers: readonly Pick<Classifier, 'id' | 'required'>[]; separator: DecimalSeparator },
): BulkEditResult {
  if (field === '') return { success: false, invalid: { field: 'validation.required' } };
  const text = value.trim();
  let updates: BulkEditBody['updates'];
  if (field === 'name') {
    if (text === '') return { success: false, invalid: { value: 'validation.required' } };
    updates = { name: text };
  } else if (field === 'amount') {
    if (text === '') return { success: false, invalid: { value: 'validation.required' } };
    const amount = parseTypedAmount(text, separator);
    if (amount === null) return { success: false, invalid: { value: 'validation.amount' } };
    updates = { amount };
  } else if (isClassifierField(field)) {
    const classifierId = classifierIdOf(field);
    const required = classifiers.find((classifier) => classifier.id === classifierId)?.required ?? false;
    if (text === '' && required) return { success: false, invalid: { value: 'validation.required' } };
    updates = { classifiers: { [classifierId]: text === '' ? null : text } };
  } else return { success: false, invalid: { field: 'validation.required' } };
  const checked = recordsBulkEditSchema.safeParse({ recordIds, updates });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { success: false, invalid: issue?.path[0] === 'updates' ? { value: issue.message } : { field: issue?.message ?? 'validation.required' } };
  }
  return { success: true, body: checked.data };
}
