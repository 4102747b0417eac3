import { DOCUMENT_LIMITS } from '@eelarve/shared';
import { useId } from 'react';
import { useIntl } from 'react-intl';
import { Field, type FieldMessage, SelectField } from '../../../components/form';

const MONTHS = Array.from({ length: DOCUMENT_LIMITS.monthsPerYear }, (_, index) => index + 1);
const DURATIONS = Array.from({ length: DOCUMENT_LIMITS.durationMaxYears }, (_, index) => index + 1);

export interface PeriodValues {
  year: string;
  month: number;
  duration: number;
}

/** The document's period: start year, start month and length in years; locked once records exist. */
export function PeriodFields({
  value,
  onChange,
  locked,
  error,
}: {
  value: PeriodValues;
  onChange: (value: PeriodValues) => void;
  locked: boolean;
  error?: FieldMessage;
}) {
  const intl = useIntl();
  const yearId = useId();
  return (
    <div className="form-grid form-grid-3">
      <Field htmlFor={yearId} labelId="documents.field.year" error={error} errorValues={{ min: 1000, max: 9999 }}>
        <input
          id={yearId}
          type="number"
          value={value.year}
          disabled={locked}
          onChange={(event) => onChange({ ...value, year: event.target.value })}
          data-testid="document-year"
        />
      </Field>
      <SelectField
        labelId="documents.field.month"
        value={String(value.month)}
        disabled={locked}
        onChange={(month) => onChange({ ...value, month: Number(month) })}
        options={MONTHS.map((month) => ({ value: String(month), label: intl.formatDate(new Date(2000, month - 1, 1), { month: 'long' }) }))}
        testId="document-month"
      />
      <SelectField
        labelId="documents.field.duration"
        value={String(value.duration)}
        disabled={locked}
        onChange={(duration) => onChange({ ...value, duration: Number(duration) })}
        options={DURATIONS.map((duration) => ({ value: String(duration), label: intl.formatMessage({ id: 'documents.field.years' }, { count: duration }) }))}
        testId="document-duration"
      />
    </div>
  );
}
