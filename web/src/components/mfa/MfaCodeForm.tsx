import type { Me } from '@eelarve/shared';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorCodeOf } from '../../api';
import type { MessageKey } from '../../i18n/messages';
import { ErrorAlert } from '../ErrorAlert';
import { type FieldMessage, Form, FormActions, messageOf } from '../form';
import { useSendMfaCode } from './api';
import { MfaCodeField } from './MfaCodeField';
import { validateMfaCode } from './mfa-code';
import './mfa.css';

/** Server answers that belong to the code field itself. */
const FIELD_CODES = new Set(['INVALID_MFA_CODE', 'TOO_MANY_ATTEMPTS', 'SCHEMA_VALIDATION_ERROR']);

/**
 * Takes a six-digit code and sends it. Spec 1, section 4: a failed code clears the field and
 * marks it as an error.
 */
export function MfaCodeForm({
  send,
  onDone,
  onCancel,
  submitLabel,
  cancelLabel = 'common.cancel',
  disabled = false,
  testId,
}: {
  send: (code: string) => Promise<Me>;
  onDone: (me: Me) => void;
  onCancel: () => void;
  submitLabel: MessageKey;
  cancelLabel?: MessageKey;
  disabled?: boolean;
  testId?: string;
}) {
  const intl = useIntl();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<FieldMessage | undefined>(undefined);

  const mutation = useSendMfaCode(send, {
    onSuccess: onDone,
    onError: (error) => {
      setCode('');
      const errorCode = errorCodeOf(error);
      const fieldCode = errorCode === 'SCHEMA_VALIDATION_ERROR' ? 'INVALID_MFA_CODE' : errorCode;
      setProblem(FIELD_CODES.has(errorCode) ? messageOf(`error.${fieldCode}`) : undefined);
      input.current?.focus();
    },
  });

  useEffect(() => {
    if (!disabled) input.current?.focus();
  }, [disabled]);

  const onSubmit = () => {
    const invalid = validateMfaCode(code);
    if (invalid) {
      setProblem(messageOf(invalid));
      input.current?.focus();
      return;
    }
    setProblem(undefined);
    mutation.mutate(code);
  };

  const otherError = mutation.isError && !FIELD_CODES.has(errorCodeOf(mutation.error));
  const busy = disabled || mutation.isPending;

  return (
    <Form onSubmit={onSubmit} testId={testId}>
      {otherError ? <ErrorAlert error={mutation.error} /> : null}
      <MfaCodeField
        ref={input}
        value={code}
        onChange={(value) => {
          setCode(value);
          if (problem) setProblem(undefined);
        }}
        problem={problem}
        disabled={disabled}
      />
      <FormActions split>
        <button type="button" className="button" onClick={onCancel} disabled={mutation.isPending} data-testid="mfa-cancel">
          <FormattedMessage id={cancelLabel} />
        </button>
        <button type="submit" className="button button-primary" disabled={busy} data-testid="mfa-submit">
          {intl.formatMessage({ id: mutation.isPending ? 'mfa.checking' : submitLabel })}
        </button>
      </FormActions>
    </Form>
  );
}
