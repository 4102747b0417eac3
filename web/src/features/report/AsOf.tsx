import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { fromLocalInput, momentLabel, momentWithin, toLocalInput } from './model/moment';
import { Popover } from './Popover';

/**
 * The report as of a past moment (issue 12, point 7): a date-time field limited to the document's
 * lifetime up to now, the top bar's picker that reloads the whole report as it stood then, and the
 * banner that says so while the report shows the past, with the way back to now.
 */

export interface MomentBounds {
  /** The document's creation: nothing of it existed before. */
  createdAt: string;
  /** The organisation's date format (dd.MM.yyyy or yyyy-MM-dd). */
  dateFormat: string;
}

/** A moment in the user's time zone, to the second; `onValid` gets the ISO time, or undefined while the text is no moment of the document's lifetime. */
export function MomentField({
  label,
  initial,
  bounds,
  onValid,
  testId,
}: {
  label: string;
  initial: string | null;
  bounds: MomentBounds;
  onValid: (iso: string | undefined) => void;
  testId: string;
}) {
  const id = useId();
  const [text, setText] = useState(() => toLocalInput(initial ?? new Date()));
  const iso = fromLocalInput(text);
  const valid = iso !== undefined && momentWithin(iso, bounds.createdAt);
  return (
    <div className="report-moment-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="datetime-local"
        step={1}
        min={toLocalInput(bounds.createdAt)}
        max={toLocalInput(new Date())}
        value={text}
        aria-invalid={!valid}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          setText(event.target.value);
          const next = fromLocalInput(event.target.value);
          onValid(next !== undefined && momentWithin(next, bounds.createdAt) ? next : undefined);
        }}
        data-testid={testId}
      />
      <p id={`${id}-hint`} className={valid ? 'muted' : 'report-field-error'} data-testid={`${testId}-hint`}>
        <FormattedMessage
          id={valid ? 'report.asOf.hint' : 'report.asOf.outside'}
          values={{ start: momentLabel(bounds.createdAt, bounds.dateFormat), end: momentLabel(new Date().toISOString(), bounds.dateFormat) }}
        />
      </p>
    </div>
  );
}

function AsOfForm({
  asOf,
  bounds,
  onChange,
  close,
}: {
  asOf: string | null;
  bounds: MomentBounds;
  onChange: (asOf: string | null) => void;
  close: () => void;
}) {
  const intl = useIntl();
  const [picked, setPicked] = useState<string | undefined>(asOf ?? new Date().toISOString());
  return (
    <form
      className="report-form"
      data-testid="report-as-of-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!picked) return;
        onChange(picked);
        close();
      }}
    >
      <MomentField label={intl.formatMessage({ id: 'report.asOf.field' })} initial={asOf} bounds={bounds} onValid={setPicked} testId="report-as-of-input" />
      <div className="report-form-actions">
        <button type="submit" className="button button-primary" disabled={!picked} data-testid="report-as-of-apply">
          <FormattedMessage id="report.asOf.apply" />
        </button>
        <button
          type="button"
          className="button"
          disabled={asOf === null}
          onClick={() => {
            onChange(null);
            close();
          }}
          data-testid="report-as-of-now"
        >
          <FormattedMessage id="report.asOf.backToNow" />
        </button>
      </div>
    </form>
  );
}

/** The top bar's picker: "As of: now" until a past moment is chosen. */
export function AsOfPicker({ asOf, bounds, onChange }: { asOf: string | null; bounds: MomentBounds; onChange: (asOf: string | null) => void }) {
  const intl = useIntl();
  const shown = asOf ? momentLabel(asOf, bounds.dateFormat) : intl.formatMessage({ id: 'report.asOf.now' });
  return (
    <Popover
      label={<FormattedMessage id="report.asOf.button" values={{ moment: shown }} />}
      title={intl.formatMessage({ id: 'report.asOf.title' })}
      testId="report-as-of"
      buttonClassName={asOf ? 'button report-as-of-past' : 'button'}
      align="end"
    >
      {(close) => <AsOfForm asOf={asOf} bounds={bounds} onChange={onChange} close={close} />}
    </Popover>
  );
}

/** Says the report shows the past (live updates wait meanwhile), with the way back to now. */
export function AsOfBanner({ asOf, dateFormat, onNow }: { asOf: string; dateFormat: string; onNow: () => void }) {
  return (
    <div className="report-as-of-banner" role="status" data-testid="report-as-of-banner">
      <FormattedMessage id="report.asOf.banner" values={{ moment: momentLabel(asOf, dateFormat) }} />{' '}
      <button type="button" className="link-button" onClick={onNow} data-testid="report-as-of-banner-now">
        <FormattedMessage id="report.asOf.backToNow" />
      </button>
    </div>
  );
}
