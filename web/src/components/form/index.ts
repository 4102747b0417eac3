/**
 * The one form layer of the web (issue 9): a zod schema gives the field messages, a server's
 * SCHEMA_VALIDATION_ERROR (`details[].path` 'body.x') and field-bound error codes give them too, and
 * the field components show label, control, hint and message in one order and spacing.
 *
 * Usage:
 *   const { errors, setErrors, clear } = useFieldErrors();
 *   const save = useSaveThing({ onError: (error) => setErrors(serverFieldErrors(error, { NAME_IN_USE: 'name' })) });
 *   const submit = () => {
 *     const { data, errors: found } = validate(thingInputSchema, { name, description });
 *     setErrors(found);
 *     if (data) save.mutate(data);
 *   };
 *   <Form id={formId} onSubmit={submit}>
 *     <TextField labelId="things.field.name" value={name} onChange={(v) => { setName(v); clear('name'); }}
 *       max={LIMITS.text} error={errors.name} testId="thing-name-input" />
 *     <SelectField labelId="things.field.kind" value={kind} onChange={setKind} options={kinds}
 *       placeholder={intl.formatMessage({ id: 'common.select' })} error={errors.kind} testId="thing-kind-input" />
 *     <Field htmlFor={id} labelId="things.field.roles" error={errors.roles}>{any control with id={id}}</Field>
 *   </Form>
 *   footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={save.isPending} testIdPrefix="thing" />}
 *
 * A message is `{ message, values? }`: `validation.*` (shared schemas) or `error.<CODE>`; messageOf('…') makes one.
 */
export {
  codeFieldErrors,
  type FieldErrors,
  type FieldMessage,
  fieldKey,
  firstMessage,
  hasErrors,
  issuesToErrors,
  messageOf,
  pickErrors,
  serverFieldErrors,
  type Validation,
  validate,
  withoutError,
} from './errors';
export {
  CheckboxField,
  controlProps,
  Field,
  type FieldFrame,
  FieldSet,
  type SelectOption,
  SelectField,
  TextAreaField,
  TextField,
  useFieldIds,
  YesNoField,
} from './Field';
export { FieldError } from './FieldError';
export { Form, FormActions, ModalFormFooter, useFieldErrors } from './Form';
