import { useId } from 'react';
import { FieldError } from '../../components/FieldError';
import { FormattedMessage } from 'react-intl';
import { FormField } from '../../components/FormField';
import type { MessageKey } from '../../i18n/messages';
import type { PasswordPairErrors } from './form';

export interface TextInputFieldProps {
  /** The label's message. */
  labelId: MessageKey;
  type: 'email' | 'password';
  autoComplete: 'username' | 'email' | 'current-password' | 'new-password';
  name?: string;
  value: string;
  onChange: (value: string) => void;
  /** The field's message: a `validation.*` key or `error.<CODE>` (the field is then marked invalid). */
  message?: string;
  /** A hint below the message (e.g. the password rules). */
  hintId?: MessageKey;
  /** Whether the input is described by its hint (`aria-describedby`). */
  describedByHint?: boolean;
  testId: string;
}

/**
 * A labelled e-mail or password input with its message and optional hint: the one shape of the
 * sign-in, password and account forms.
 */
export function TextInputField({ labelId, type, autoComplete, name, value, onChange, message, hintId, describedByHint, testId }: TextInputFieldProps) {
  const id = useId();
  const hintElementId = hintId && describedByHint ? `${id}-hint` : undefined;
  return (
    <FormField htmlFor={id} labelId={labelId}>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={message ? true : undefined}
        aria-describedby={hintElementId}
        data-testid={testId}
      />
      <FieldError message={message} />
      {hintId ? (
        <div className="field-hint" id={hintElementId}>
          <FormattedMessage id={hintId} />
        </div>
      ) : null}
    </FormField>
  );
}

/**
 * A new password (with the password rules as hint) and its repeat, as checked by
 * `validatePasswordPair`: the set-password page and the account's password section.
 */
export function NewPasswordFields({
  labelIds,
  password,
  repeat,
  onPasswordChange,
  onRepeatChange,
  errors,
  named = false,
  describedByHint = false,
  testIdPrefix,
}: {
  labelIds: { password: MessageKey; repeat: MessageKey };
  password: string;
  repeat: string;
  onPasswordChange: (value: string) => void;
  onRepeatChange: (value: string) => void;
  errors: PasswordPairErrors;
  /** The inputs are named `new-password` and `repeat-password`. */
  named?: boolean;
  /** The new password's input is described by the rules. */
  describedByHint?: boolean;
  /** The test ids are `<prefix>-new` and `<prefix>-repeat`. */
  testIdPrefix: string;
}) {
  return (
    <>
      <TextInputField
        labelId={labelIds.password}
        name={named ? 'new-password' : undefined}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={onPasswordChange}
        message={errors.password}
        hintId="setPassword.rules"
        describedByHint={describedByHint}
        testId={`${testIdPrefix}-new`}
      />
      <TextInputField
        labelId={labelIds.repeat}
        name={named ? 'repeat-password' : undefined}
        type="password"
        autoComplete="new-password"
        value={repeat}
        onChange={onRepeatChange}
        message={errors.repeat}
        testId={`${testIdPrefix}-repeat`}
      />
    </>
  );
}
