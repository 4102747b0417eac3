import { CODE_TYPE_NAMES, type CodeTypeName } from '@eelarve/shared';
import { FormattedMessage, useIntl } from 'react-intl';
import { CheckboxField, Field, type FieldErrors, SelectField, useFieldIds } from '../../../components/form';
import { ClassifierFieldError } from '../ClassifierFieldError';
import type { codeLengthBounds } from '../rules';
import type { ClassifierValues, SetValue } from './values';

type Bounds = ReturnType<typeof codeLengthBounds>;

/** The code type, the allowed code lengths within the bounds of the existing codes, and hierarchical codes (spec 2, section 5). */
export function CodeSettingsFieldset({ values, set, errors, bounds }: { values: ClassifierValues; set: SetValue; errors: FieldErrors; bounds: Bounds }) {
  const intl = useIntl();
  return (
    <fieldset className="fieldset">
      <legend>
        <FormattedMessage id="classifiers.form.codeSettings" />
      </legend>
      <div className="classifier-form-grid classifier-form-grid-4">
        <SelectField
          labelId="classifiers.form.codeType"
          value={values.typeName}
          onChange={(type) => set('typeName', type as CodeTypeName)}
          options={CODE_TYPE_NAMES.map((type) => ({ value: type, label: intl.formatMessage({ id: `classifiers.codeType.${type}` }) }))}
          testId="classifier-code-type-input"
        />
        <LengthField
          which="min"
          value={values.minLength}
          onChange={(value) => set('minLength', value)}
          range={bounds.min}
          error={errors['codeSettings.minLength']}
        />
        <LengthField
          which="max"
          value={values.maxLength}
          onChange={(value) => set('maxLength', value)}
          range={bounds.max}
          error={errors['codeSettings.maxLength']}
        />
        <div className="field field-checkbox">
          <CheckboxField checked={values.hierarchical} onChange={(hierarchical) => set('hierarchical', hierarchical)} testId="classifier-hierarchical-input">
            <FormattedMessage id="classifiers.form.hierarchical" />
          </CheckboxField>
        </div>
      </div>
      {bounds.fromCodes ? (
        <p className="field-hint" data-testid="classifier-length-bounds">
          <FormattedMessage id="classifiers.form.lengthBoundsFromCodes" values={{ shortest: bounds.min.to, longest: bounds.max.from }} />
        </p>
      ) : null}
    </fieldset>
  );
}

function LengthField({
  which,
  value,
  onChange,
  range,
  error,
}: {
  which: 'min' | 'max';
  value: string;
  onChange: (value: string) => void;
  range: { from: number; to: number };
  error?: { message: string };
}) {
  const ids = useFieldIds();
  return (
    <Field htmlFor={ids.controlId} labelId={which === 'min' ? 'classifiers.form.minLength' : 'classifiers.form.maxLength'}>
      <input
        id={ids.controlId}
        type="number"
        min={range.from}
        max={range.to}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={ids.hintElementId}
        data-testid={`classifier-${which}-length-input`}
      />
      <div className="field-hint" id={ids.hintElementId} data-testid={`classifier-${which}-length-hint`}>
        <FormattedMessage id="classifiers.form.lengthHint" values={range} />
      </div>
      <LengthError error={error} range={range} />
    </Field>
  );
}

/** The length checks of this form have their own wording; other messages are the form layer's. */
function LengthError({ error, range }: { error?: { message: string }; range: { from: number; to: number } }) {
  if (error?.message === 'minAndMax' || error?.message === 'lengthOutOfRange') {
    return (
      <div className="field-error" data-testid="field-error" data-message={error.message}>
        {error.message === 'minAndMax' ? (
          <FormattedMessage id="classifiers.form.minAndMax" />
        ) : (
          <FormattedMessage id="classifiers.form.lengthOutOfRange" values={range} />
        )}
      </div>
    );
  }
  return <ClassifierFieldError error={error} />;
}
