import { type Ref, useId } from 'react';
import { Field, FieldError, type FieldMessage } from '../form';
import { sanitiseMfaCode } from './mfa-code';

/**
 * The six-digit code of an authenticator app: digits only, large and spaced. Its message is a shared
 * validation key, or a server error (`error.INVALID_MFA_CODE`) shown as `mfa-code-error`.
 */
export function MfaCodeField({
  value,
  onChange,
  problem,
  disabled,
  ref,
}: {
  value: string;
  onChange: (value: string) => void;
  problem: FieldMessage | undefined;
  disabled?: boolean;
  ref?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const fromServer = problem?.message.startsWith('error.') ?? false;
  return (
    <Field htmlFor={id} labelId="mfa.code">
      <input
        ref={ref}
        id={id}
        name="one-time-code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={6}
        className="mfa-code-input"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(sanitiseMfaCode(event.target.value))}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? errorId : undefined}
        data-testid="mfa-code"
      />
      <FieldError error={problem} id={errorId} testId={fromServer ? 'mfa-code-error' : undefined} />
    </Field>
  );
}
