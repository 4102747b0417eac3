import { DISPLAY_MODES, type DisplayMode } from '@eelarve/shared';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Field, type FieldErrors, SelectField, TextAreaField, TextField, useFieldIds } from '../../../components/form';
import { ClassifierFieldError } from '../ClassifierFieldError';
import { fieldNameOf } from '../rules';
import type { ClassifierValues, SetValue } from './values';

/** Name, item name, technical name, display mode and description of a classifier. */
export function IdentityFields({ values, set, errors, editing }: { values: ClassifierValues; set: SetValue; errors: FieldErrors; editing: boolean }) {
  const intl = useIntl();
  const [fieldNameTouched, setFieldNameTouched] = useState(editing);
  const onItemName = (itemName: string) => {
    set('itemName', itemName);
    // A new classifier's technical name follows its item name until the user types one.
    if (!editing && !fieldNameTouched) set('fieldName', fieldNameOf(itemName));
  };
  return (
    <>
      <TextField
        labelId="classifiers.form.name"
        value={values.name}
        onChange={(name) => set('name', name)}
        error={errors.name}
        testId="classifier-name-input"
      />
      <TextField
        labelId="classifiers.form.itemName"
        value={values.itemName}
        onChange={onItemName}
        error={errors.itemName}
        testId="classifier-item-name-input"
      />
      <FieldNameField
        value={values.fieldName}
        onChange={(fieldName) => {
          setFieldNameTouched(true);
          set('fieldName', fieldName);
        }}
        locked={editing}
        errors={errors}
      />
      <SelectField
        labelId="classifiers.form.displayMode"
        value={values.displayMode}
        onChange={(mode) => set('displayMode', mode as DisplayMode)}
        options={DISPLAY_MODES.map((mode) => ({ value: mode, label: intl.formatMessage({ id: `classifiers.displayMode.${mode}` }) }))}
        testId="classifier-display-mode-input"
      />
      <div className="field-wide">
        <TextAreaField
          labelId="classifiers.form.description"
          value={values.description}
          rows={2}
          onChange={(description) => set('description', description)}
          error={errors.description}
          testId="classifier-description-input"
        />
      </div>
    </>
  );
}

/** The technical name; changing an existing classifier's needs a confirmation (spec 2, section 4). */
function FieldNameField({ value, onChange, locked, errors }: { value: string; onChange: (value: string) => void; locked: boolean; errors: FieldErrors }) {
  const [unlocked, setUnlocked] = useState(!locked);
  const [confirming, setConfirming] = useState(false);
  const ids = useFieldIds();
  return (
    <Field htmlFor={ids.controlId} labelId="classifiers.form.fieldName">
      <div className="input-row">
        <input
          type="text"
          id={ids.controlId}
          value={value}
          disabled={!unlocked}
          onChange={(event) => onChange(event.target.value)}
          data-testid="classifier-field-name-input"
        />
        {!unlocked && !confirming ? (
          <button type="button" className="button" onClick={() => setConfirming(true)} data-testid="classifier-field-name-unlock">
            <FormattedMessage id="classifiers.form.fieldNameUnlock" />
          </button>
        ) : null}
      </div>
      {confirming && !unlocked ? (
        <div className="field-confirm" data-testid="classifier-field-name-confirm">
          <span className="field-hint">
            <FormattedMessage id="classifiers.form.fieldNameWarning" />
          </span>
          <button type="button" className="button button-small" onClick={() => setConfirming(false)} data-testid="classifier-field-name-keep">
            <FormattedMessage id="common.no" />
          </button>
          <button type="button" className="button button-small button-primary" onClick={() => setUnlocked(true)} data-testid="classifier-field-name-change">
            <FormattedMessage id="common.yes" />
          </button>
        </div>
      ) : null}
      <ClassifierFieldError error={errors.fieldName} />
    </Field>
  );
}
