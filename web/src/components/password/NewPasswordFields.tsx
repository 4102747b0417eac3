import type { MessageKey } from '../../i18n/messages';
import { type FieldErrors, TextField } from '../form';

/**
 * A new password (with the password rules as hint) and its repeat, as checked by
 * `validateNewPassword`: the set-password page and the account's password section.
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
  /** Messages `password` and `repeat`. */
  errors: FieldErrors;
  /** The inputs are named `new-password` and `repeat-password`. */
  named?: boolean;
  /** The new password's input is described by the rules. */
  describedByHint?: boolean;
  /** The test ids are `<prefix>-new` and `<prefix>-repeat`. */
  testIdPrefix: string;
}) {
  return (
    <>
      <TextField
        labelId={labelIds.password}
        name={named ? 'new-password' : undefined}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={onPasswordChange}
        error={errors.password}
        hintId="setPassword.rules"
        describedByHint={describedByHint}
        testId={`${testIdPrefix}-new`}
      />
      <TextField
        labelId={labelIds.repeat}
        name={named ? 'repeat-password' : undefined}
        type="password"
        autoComplete="new-password"
        value={repeat}
        onChange={onRepeatChange}
        error={errors.repeat}
        testId={`${testIdPrefix}-repeat`}
      />
    </>
  );
}
