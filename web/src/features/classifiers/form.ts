import { type Classifier, type ClassifierItem, codeTypePattern } from '@eelarve/shared';
import { validationMessageKey } from '../../i18n/keys';
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
export function codeError(code: string, classifier: Classifier, items: readonly ClassifierItem[], ownId: string | null): { message: string; values?: Record<string, string | number> } | null {
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

/** The message key of an import or form error: shared `validation.*` keys or this feature's. */
export function importErrorKey(message: string): MessageKey {
  if (message.startsWith('validation.')) return validationMessageKey(message);
  const known = ['referenceItemNotFound', 'referenceItemUnselectable', 'codeTypeError', 'unique', 'uniqueCode', 'mandatoryClassifier', 'invalidGrouping'];
  return known.includes(message) ? (`classifiers.importError.${message}` as MessageKey) : 'classifiers.importError.other';
}

export const itemInUse = (item: ClassifierItem) => item.isInUseSubBudgets === true || item.isInUseRecords === true || item.isInUseGroupings === true;
