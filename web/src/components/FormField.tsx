import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import type { MessageKey } from '../i18n/messages';
import { FieldError } from './FieldError';

/** A labelled form field: the label (message `labelId`) for the control `htmlFor`, then the control, hints and messages (children). */
export function FormField({ htmlFor, labelId, children }: { htmlFor: string; labelId: MessageKey; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={htmlFor}>
        <FormattedMessage id={labelId} />
      </label>
      {children}
    </div>
  );
}

interface TextFieldProps {
  id: string;
  labelId: MessageKey;
  value: string;
  onChange: (value: string) => void;
  /** The length limit, also handed to the error message. */
  max: number;
  /** A validation message key (FieldError), if the value was refused. */
  error?: string;
  testId: string;
}

/** A labelled one-line text input with its length limit and its error message. */
export function TextField({ id, labelId, value, onChange, max, error, testId }: TextFieldProps) {
  return (
    <FormField htmlFor={id} labelId={labelId}>
      <input
        id={id}
        type="text"
        value={value}
        maxLength={max}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        data-testid={testId}
      />
      <FieldError message={error} values={{ max }} />
    </FormField>
  );
}

/** A labelled text area (a description) with its length limit and its error message. */
export function TextAreaField({ id, labelId, value, onChange, max, error, testId }: TextFieldProps) {
  return (
    <FormField htmlFor={id} labelId={labelId}>
      <textarea id={id} value={value} rows={3} maxLength={max} onChange={(event) => onChange(event.target.value)} aria-invalid={error ? true : undefined} data-testid={testId} />
      <FieldError message={error} values={{ max }} />
    </FormField>
  );
}
