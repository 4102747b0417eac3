import { type ReactNode, useId } from 'react';
import { FormattedMessage } from 'react-intl';
import type { MessageValues } from '../../i18n/keys';
import type { MessageKey } from '../../i18n/messages';
import type { FieldMessage } from './errors';
import { FieldError } from './FieldError';

/** What every field shows besides its control: a label, an optional hint and its message. */
export interface FieldFrame {
  /** The label's message (or `label` for a text that is not a message key). */
  labelId?: MessageKey;
  label?: ReactNode;
  /** A hint under the control (e.g. the password rules), read with the control when `describedByHint`. */
  hintId?: MessageKey;
  hint?: ReactNode;
  describedByHint?: boolean;
  error?: FieldMessage;
  /** Values for the message when it brings none, e.g. the field's own length limit. */
  errorValues?: MessageValues;
  hintTestId?: string;
}

/** Ids of a field's control and hint; the control is named by the label and described by the hint. */
export function useFieldIds(id?: string) {
  const generated = useId();
  const controlId = id ?? generated;
  return { controlId, hintElementId: `${controlId}-hint`, errorElementId: `${controlId}-error` };
}

/** The props a control takes from its field: marked invalid with a message, described by its hint. */
export function controlProps(frame: FieldFrame, ids: ReturnType<typeof useFieldIds>) {
  const hasHint = Boolean(frame.hintId || frame.hint);
  return {
    id: ids.controlId,
    'aria-invalid': frame.error ? true : undefined,
    'aria-describedby': hasHint && frame.describedByHint ? ids.hintElementId : undefined,
  } as const;
}

/**
 * A labelled field: the label, the control (children), the hint and the message, in the one
 * order and spacing of every form (`.field` inside a `.form`, gap --field-gap).
 */
export function Field({ htmlFor, children, ...frame }: FieldFrame & { htmlFor: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={htmlFor}>{frame.labelId ? <FormattedMessage id={frame.labelId} /> : frame.label}</label>
      {children}
      <FieldHint frame={frame} id={`${htmlFor}-hint`} />
      <FieldError error={frame.error} fallbackValues={frame.errorValues} />
    </div>
  );
}

function FieldHint({ frame, id }: { frame: FieldFrame; id: string }) {
  if (!frame.hintId && !frame.hint) return null;
  return (
    <div className="field-hint" id={id} data-testid={frame.hintTestId}>
      {frame.hintId ? <FormattedMessage id={frame.hintId} /> : frame.hint}
    </div>
  );
}

interface TextFieldProps extends FieldFrame {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'number' | 'url';
  /** The length limit; also the `{max}` of a length message. */
  max?: number;
  autoComplete?: string;
  name?: string;
  disabled?: boolean;
  inputMode?: 'numeric' | 'decimal' | 'text' | 'email' | 'url';
  testId: string;
}

/** A labelled one-line input with its hint and message. */
export function TextField({ id, value, onChange, type = 'text', max, autoComplete, name, disabled, inputMode, testId, ...frame }: TextFieldProps) {
  const ids = useFieldIds(id);
  return (
    <Field htmlFor={ids.controlId} {...withMax(frame, max)}>
      <input
        {...controlProps(frame, ids)}
        name={name}
        type={type}
        value={value}
        maxLength={max}
        autoComplete={autoComplete}
        inputMode={inputMode}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      />
    </Field>
  );
}

/** A labelled text area (a description) with its length limit, hint and message. */
export function TextAreaField({
  id,
  value,
  onChange,
  max,
  disabled,
  testId,
  rows = 3,
  ...frame
}: Omit<TextFieldProps, 'type' | 'autoComplete' | 'name' | 'inputMode'> & { rows?: number }) {
  const ids = useFieldIds(id);
  return (
    <Field htmlFor={ids.controlId} {...withMax(frame, max)}>
      <textarea
        {...controlProps(frame, ids)}
        value={value}
        rows={rows}
        maxLength={max}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      />
    </Field>
  );
}

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

/** A labelled select; `placeholder` is a first, unselectable "choose" option for an empty value. */
export function SelectField({
  id,
  value,
  onChange,
  options,
  placeholder,
  disabled,
  testId,
  ...frame
}: FieldFrame & {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly SelectOption[];
  placeholder?: string;
  disabled?: boolean;
  testId: string;
}) {
  const ids = useFieldIds(id);
  return (
    <Field htmlFor={ids.controlId} {...frame}>
      <select {...controlProps(frame, ids)} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)} data-testid={testId}>
        {placeholder === undefined ? null : (
          <option value="" disabled>
            {placeholder}
          </option>
        )}
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A checkbox with its label text beside it; `title` says why it is locked. */
export function CheckboxField({
  checked,
  onChange,
  disabled,
  title,
  children,
  testId,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  title?: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <label className="checkbox" title={title}>
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} data-testid={testId} />
      {children}
    </label>
  );
}

/** A group of controls under one legend (checkboxes, radios) with the group's hint and message. */
export function FieldSet({
  legend,
  hint,
  error,
  testId,
  children,
}: {
  legend: ReactNode;
  hint?: ReactNode;
  error?: FieldMessage;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className="field fieldset" data-testid={testId} aria-invalid={error ? true : undefined}>
      <legend>{legend}</legend>
      {children}
      {hint ? <div className="field-hint">{hint}</div> : null}
      <FieldError error={error} />
    </fieldset>
  );
}

/**
 * A yes/no question that may start unanswered (null). Test ids `<testId>-yes` and `<testId>-no`;
 * `noDisabled` keeps an answer that cannot be taken back.
 */
export function YesNoField({
  legend,
  hint,
  name,
  value,
  onChange,
  error,
  noDisabled = false,
  testId,
}: {
  legend: ReactNode;
  hint?: ReactNode;
  name: string;
  value: boolean | null;
  onChange: (value: boolean) => void;
  error?: FieldMessage;
  noDisabled?: boolean;
  testId: string;
}) {
  return (
    <FieldSet legend={legend} hint={hint} error={error} testId={testId}>
      <div className="choice-row">
        <label className="radio">
          <input type="radio" name={name} checked={value === true} onChange={() => onChange(true)} data-testid={`${testId}-yes`} />
          <FormattedMessage id="common.yes" />
        </label>
        <label className="radio">
          <input type="radio" name={name} checked={value === false} disabled={noDisabled} onChange={() => onChange(false)} data-testid={`${testId}-no`} />
          <FormattedMessage id="common.no" />
        </label>
      </div>
    </FieldSet>
  );
}

function withMax(frame: FieldFrame, max: number | undefined): FieldFrame {
  return max === undefined ? frame : { ...frame, errorValues: { max, ...frame.errorValues } };
}
