import { type FormEvent, type ReactNode, useCallback, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { type FieldErrors, withoutError } from './errors';
import './form.css';

/**
 * A form in the one spacing rhythm (`.form`: fields --field-gap apart). The browser's own checks are
 * off (`noValidate`): the zod schema decides and the fields show its messages.
 */
export function Form({
  id,
  onSubmit,
  className,
  testId,
  state,
  children,
}: {
  id?: string;
  onSubmit: () => void;
  className?: string;
  testId?: string;
  /** The form's state for tests and styles (`data-state`), e.g. loading or submitting. */
  state?: string;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form id={id} className={className ? `form ${className}` : 'form'} onSubmit={submit} noValidate data-testid={testId} data-state={state}>
      {children}
    </form>
  );
}

/** The row of a page form's buttons under its fields; `split` puts the first button left, the rest right. */
export function FormActions({ split = false, children }: { split?: boolean; children: ReactNode }) {
  return <div className={split ? 'form-actions form-actions-split' : 'form-actions'}>{children}</div>;
}

/**
 * The footer of a modal with a form: cancel closes the modal, save submits the form `formId`.
 * The buttons' test ids are `<testIdPrefix>-cancel` and `<testIdPrefix>-save`.
 */
export function ModalFormFooter({
  formId,
  onCancel,
  busy,
  saveDisabled = false,
  testIdPrefix,
}: {
  formId: string;
  onCancel: () => void;
  busy: boolean;
  /** Save is also disabled, e.g. while the form's choices load. */
  saveDisabled?: boolean;
  testIdPrefix: string;
}) {
  return (
    <>
      <button type="button" className="button" onClick={onCancel} disabled={busy} data-testid={`${testIdPrefix}-cancel`}>
        <FormattedMessage id="common.cancel" />
      </button>
      <button type="submit" form={formId} className="button button-primary" disabled={busy || saveDisabled} data-testid={`${testIdPrefix}-save`}>
        <FormattedMessage id="common.save" />
      </button>
    </>
  );
}

/** A form's field messages; `clear(field)` drops one (typing into a field clears its message). */
export function useFieldErrors(initial: FieldErrors = {}) {
  const [errors, setErrors] = useState<FieldErrors>(initial);
  const clear = useCallback((field: string) => setErrors((current) => withoutError(current, field)), []);
  return { errors, setErrors, clear };
}
