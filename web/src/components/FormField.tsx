// Transitional: the form layer is components/form. These keep the old string-message props until
// their last importers move there; then this file goes.
import type { MessageKey } from '../i18n/messages';
import { messageOf, TextAreaField as FormTextAreaField, TextField as FormTextField } from './form';

export { Field as FormField } from './form';

interface TextFieldProps {
  id: string;
  labelId: MessageKey;
  value: string;
  onChange: (value: string) => void;
  max: number;
  error?: string;
  testId: string;
}

/** @deprecated Use TextField of components/form with a FieldMessage. */
export function TextField({ error, ...props }: TextFieldProps) {
  return <FormTextField {...props} error={messageOf(error)} />;
}

/** @deprecated Use TextAreaField of components/form with a FieldMessage. */
export function TextAreaField({ error, ...props }: TextFieldProps) {
  return <FormTextAreaField {...props} error={messageOf(error)} />;
}

