import { type Ref, useId } from 'react';
import { FormattedMessage } from 'react-intl';
import { FieldError } from '../../components/FieldError';
import { FormField } from '../../components/FormField';
import { errorMessageKey } from '../../i18n/keys';
import { sanitiseMfaCode } from './form';

/** A field problem: a shared validation key, or a server error code (INVALID_MFA_CODE). */
export type MfaCodeProblem = { validation: string } | { code: string } | null;

/** The six-digit code of an authenticator app: digits only, large and spaced. */
export function MfaCodeField({
  value,
  onChange,
  problem,
  disabled,
  ref,
}: {
  value: string;
  onChange: (value: string) => void;
  problem: MfaCodeProblem;
  disabled?: boolean;
  ref?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <FormField htmlFor={id} labelId="mfa.code">
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
      {problem && 'validation' in problem ? <FieldError id={errorId} message={problem.validation} /> : null}
      {problem && 'code' in problem ? (
        <div className="field-error" id={errorId} data-testid="mfa-code-error" data-error-code={problem.code}>
          <FormattedMessage id={errorMessageKey(problem.code)} />
        </div>
      ) : null}
    </FormField>
  );
}
