import { FormattedMessage } from 'react-intl';
import { FieldError, type FieldMessage } from '../../components/form';
import { validationMessageKey, validationValues } from '../../i18n/keys';
import type { MessageKey } from '../../i18n/messages';

/** This feature's own field and import messages (besides the shared `validation.*` and `error.<CODE>` ones). */
const CLASSIFIER_MESSAGES = [
  'referenceItemNotFound',
  'referenceItemUnselectable',
  'codeTypeError',
  'unique',
  'uniqueCode',
  'mandatoryClassifier',
  'invalidGrouping',
];

/** The message key of an import or form error: shared `validation.*` keys or this feature's. */
export function importErrorKey(message: string): MessageKey {
  if (message.startsWith('validation.')) return validationMessageKey(message);
  return CLASSIFIER_MESSAGES.includes(message) ? (`classifiers.importError.${message}` as MessageKey) : 'classifiers.importError.other';
}

/**
 * A field message of the classifier forms: the form layer's FieldError, and for this feature's own
 * checks (a code that repeats, a missing grouping value) its wording, with the bare name as
 * `data-message` like every field message.
 */
export function ClassifierFieldError({ error }: { error?: FieldMessage }) {
  if (!error || !CLASSIFIER_MESSAGES.includes(error.message)) return <FieldError error={error} />;
  return (
    <div className="field-error" data-testid="field-error" data-message={error.message}>
      <FormattedMessage id={importErrorKey(error.message)} values={{ ...validationValues(), ...error.values }} />
    </div>
  );
}
