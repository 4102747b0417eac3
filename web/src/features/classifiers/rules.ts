/**
 * The classifier rules the forms apply before the server does (spec 2, sections 4 and 5): technical
 * names, code checks, the locks of the classifier form and the allowed code lengths.
 */
import { CLASSIFIER_CODE_LENGTH, type Classifier, type ClassifierItem, codeTypePattern } from '@eelarve/shared';
import type { FieldMessage } from '../../components/form';
import type { MessageKey } from '../../i18n/messages';

/**
 * The technical name derived from an item name (spec 2, section 4): accents dropped, spaces to
 * underscores, other characters removed, lower case, not starting with a digit.
 */
export function fieldNameOf(itemName: string): string {
  const ascii = itemName.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  const name = ascii
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9_]/g, '')
    .toLowerCase();
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/** Why `code` is refused for `classifier` (spec 2, section 5), or null. */
export function codeError(code: string, classifier: Classifier, items: readonly ClassifierItem[], ownId: string | null): FieldMessage | null {
  const trimmed = code.trim();
  const settings = classifier.codeSettings;
  if (trimmed === '') return { message: 'validation.required' };
  if (trimmed.length < settings.minLength) return { message: 'validation.minLength', values: { min: settings.minLength, max: 'none', values: 'none' } };
  if (trimmed.length > settings.maxLength) return { message: 'validation.maxLength', values: { max: settings.maxLength, min: 'none', values: 'none' } };
  if (!codeTypePattern(settings.typeName).test(trimmed)) return { message: 'codeTypeError' };
  const key = trimmed.toLowerCase();
  if (items.some((item) => item.id !== ownId && item.code.toLowerCase() === key)) return { message: 'uniqueCode' };
  return null;
}

export const itemInUse = (item: ClassifierItem) => item.isInUseSubBudgets === true || item.isInUseRecords === true || item.isInUseGroupings === true;

/** Why a checkbox of the classifier form is locked, and the value it is locked at (spec 2, sections 4 and 5). */
export interface FormLock {
  reason: MessageKey;
  value: boolean;
}

/** The facts the classifier form's locks need; a fact still loading is undefined. */
export interface ClassifierFacts {
  /** The edited classifier, null for a new one. */
  classifier: Pick<Classifier, 'id' | 'required' | 'master' | 'itemCanChangeSign'> | null;
  /** The classifier whose items this one groups (chosen on create, fixed after). */
  groupingId: string | null;
  /** Whether that classifier is the document's master classifier. */
  groupsMaster: boolean;
  /** The edited classifier's items. */
  items?: readonly Pick<ClassifierItem, 'code' | 'sign'>[];
  /** The items of the grouped classifier (`groupingId`). */
  groupedItems?: readonly Pick<ClassifierItem, 'groupedBy'>[];
  /** Whether a scheme uses the classifier as an additional (SECONDARY) one. */
  secondaryInScheme?: boolean;
}

/**
 * Required: locked on for the master classifier; cannot be switched on for an additional classifier of
 * a scheme, or for a grouping classifier unless every item of the grouped classifier has a value of it.
 * (A classifier that is required already may be made optional.)
 */
export function requiredLock(facts: ClassifierFacts): FormLock | null {
  const { classifier } = facts;
  if (classifier?.master) return { reason: 'classifiers.form.requiredLocked.master', value: true };
  if (classifier?.required) return null;
  if (facts.secondaryInScheme) return { reason: 'classifiers.form.requiredLocked.secondary', value: false };
  if (facts.groupingId && facts.groupedItems) {
    const ownId = classifier?.id ?? null;
    const missing = facts.groupedItems.some((item) => ownId === null || !item.groupedBy.some((ref) => ref.classifierId === ownId));
    if (missing) return { reason: 'classifiers.form.requiredLocked.grouping', value: false };
  }
  return null;
}

/**
 * Sign-changing: only for a classifier that groups the master classifier, and it cannot be switched
 * off while items have a negative sign.
 */
export function signLock(facts: ClassifierFacts): FormLock | null {
  if (!facts.groupingId || !facts.groupsMaster) return { reason: 'classifiers.form.signLocked.notGroupingMaster', value: false };
  if (facts.classifier?.itemCanChangeSign && facts.items?.some((item) => item.sign === -1))
    return { reason: 'classifiers.form.signLocked.negativeItems', value: true };
  return null;
}

/**
 * The allowed code lengths (spec 2, sections 5 and 9): the minimum from 1 to the shortest existing code
 * (20 when there are none), the maximum from the longest existing code (1 when none) to 40.
 */
export function codeLengthBounds(codes: readonly string[]): { min: { from: number; to: number }; max: { from: number; to: number }; fromCodes: boolean } {
  if (codes.length === 0) {
    return {
      min: { from: CLASSIFIER_CODE_LENGTH.min, to: CLASSIFIER_CODE_LENGTH.defaultMinUpperBound },
      max: { from: CLASSIFIER_CODE_LENGTH.min, to: CLASSIFIER_CODE_LENGTH.max },
      fromCodes: false,
    };
  }
  const lengths = codes.map((code) => code.length);
  return {
    min: { from: CLASSIFIER_CODE_LENGTH.min, to: Math.max(CLASSIFIER_CODE_LENGTH.min, Math.min(...lengths)) },
    max: { from: Math.min(CLASSIFIER_CODE_LENGTH.max, Math.max(...lengths)), to: CLASSIFIER_CODE_LENGTH.max },
    fromCodes: true,
  };
}
