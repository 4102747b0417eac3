// Transitional: the form layer is components/form (FieldError takes a FieldMessage there). This
// keeps the old string-message props until their last importers move; then this file goes.
import type { MessageValues } from '../i18n/keys';
import { FieldError as FormFieldError, messageOf } from './form';

/** @deprecated Use FieldError of components/form. */
export function FieldError({ message, values, id }: { message?: string; values?: MessageValues; id?: string }) {
  return <FormFieldError error={messageOf(message, values)} id={id} />;
}

/** @deprecated Use serverFieldErrors of components/form. */
export function fieldIssueMessage(issues: { path: string; message: string }[], field: string): string | undefined {
  return issues.find((issue) => issue.path === field || issue.path.endsWith(`.${field}`))?.message;
}
