import type { Budget, ReportColumn } from '@eelarve/shared';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Modal } from '../../components/Modal';
import { type MomentBounds, MomentField } from './AsOf';
import type { CalcOperation, ComparisonColumn, ReportPeriod } from './model/columns';
import { type DocumentPeriod, firstMonth, lastMonth, monthsLeft, pickedPeriod } from './model/period';

/**
 * The forms that add and shape columns (spec 3, section 2): a comparison budget (another budget of
 * the document, or a copy of the base over a period, either as it stood at an earlier moment:
 * issue 12, point 7), a calculated column (percentage by default,
 * difference, sum), and a column's period, its months inside the document period.
 */

/** A month picker and a duration, kept inside the document period. */
function PeriodFields({
  period,
  start,
  duration,
  onStart,
  onDuration,
}: {
  period: DocumentPeriod;
  start: string;
  duration: number;
  onStart: (value: string) => void;
  onDuration: (value: number) => void;
}) {
  const id = useId();
  const left = Math.max(1, monthsLeft(period, start));
  return (
    <div className="report-period-fields">
      <label htmlFor={`${id}-start`}>
        <FormattedMessage id="report.period.start" />
      </label>
      <input
        id={`${id}-start`}
        type="month"
        min={firstMonth(period)}
        max={lastMonth(period)}
        value={start}
        onChange={(event) => onStart(event.target.value)}
        data-testid="report-period-start"
      />
      <label htmlFor={`${id}-duration`}>
        <FormattedMessage id="report.period.duration" />
      </label>
      <input
        id={`${id}-duration`}
        type="number"
        min={1}
        max={left}
        value={duration}
        onChange={(event) => onDuration(Number(event.target.value))}
        data-testid="report-period-duration"
      />
      <p className="muted">
        <FormattedMessage id="report.period.hint" values={{ start: firstMonth(period), end: lastMonth(period) }} />
      </p>
    </div>
  );
}

export function ComparisonForm({
  budgets,
  baseBudgetId,
  period,
  bounds,
  onAdd,
}: {
  budgets: readonly Pick<Budget, 'id' | 'name'>[];
  baseBudgetId: string;
  period: DocumentPeriod;
  bounds: MomentBounds;
  onAdd: (comparison: ComparisonColumn) => void;
}) {
  const id = useId();
  const intl = useIntl();
  const [choice, setChoice] = useState('copy');
  const [withPeriod, setWithPeriod] = useState(false);
  const [start, setStart] = useState(firstMonth(period));
  const [duration, setDuration] = useState(12);
  const [earlier, setEarlier] = useState(false);
  const [moment, setMoment] = useState<string | undefined>(() => new Date().toISOString());
  const picked = withPeriod ? pickedPeriod(period, start, duration) : null;
  const valid = (!withPeriod || picked !== null) && (!earlier || moment !== undefined);
  return (
    <form
      className="report-form"
      data-testid="report-comparison-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!valid) return;
        const copy = choice === 'copy';
        onAdd({ budgetId: copy ? baseBudgetId : choice, copy, period: picked, asOf: earlier ? (moment ?? null) : null });
      }}
    >
      <label htmlFor={`${id}-budget`}>
        <FormattedMessage id="report.comparison.budget" />
      </label>
      <select id={`${id}-budget`} value={choice} onChange={(event) => setChoice(event.target.value)} data-testid="report-comparison-budget">
        <option value="copy">{intl.formatMessage({ id: 'report.comparison.copy' })}</option>
        {budgets
          .filter((budget) => budget.id !== baseBudgetId)
          .map((budget) => (
            <option key={budget.id} value={budget.id}>
              {budget.name}
            </option>
          ))}
      </select>
      <label className="checkbox-label">
        <input type="checkbox" checked={withPeriod} onChange={(event) => setWithPeriod(event.target.checked)} data-testid="report-comparison-with-period" />
        <FormattedMessage id="report.comparison.withPeriod" />
      </label>
      {withPeriod ? <PeriodFields period={period} start={start} duration={duration} onStart={setStart} onDuration={setDuration} /> : null}
      <label className="checkbox-label">
        <input type="checkbox" checked={earlier} onChange={(event) => setEarlier(event.target.checked)} data-testid="report-comparison-earlier" />
        <FormattedMessage id="report.comparison.earlier" />
      </label>
      {earlier ? (
        <MomentField
          label={intl.formatMessage({ id: 'report.comparison.moment' })}
          initial={null}
          bounds={bounds}
          onValid={setMoment}
          testId="report-comparison-moment"
        />
      ) : null}
      <button type="submit" className="button button-primary" disabled={!valid} data-testid="report-comparison-submit">
        <FormattedMessage id="report.comparison.submit" />
      </button>
    </form>
  );
}

export function CalcForm({
  operands,
  titleOf,
  onAdd,
}: {
  operands: readonly ReportColumn[];
  titleOf: (column: ReportColumn) => string;
  onAdd: (calc: { firstOperand: string; secondOperand: string; operation: CalcOperation }) => void;
}) {
  const id = useId();
  const intl = useIntl();
  const [first, setFirst] = useState(operands[0]?.key ?? '');
  const [second, setSecond] = useState(operands[1]?.key ?? operands[0]?.key ?? '');
  const [operation, setOperation] = useState<CalcOperation>('percent');
  const options = operands.map((column) => (
    <option key={column.key} value={column.key}>
      {titleOf(column)}
    </option>
  ));
  return (
    <form
      className="report-form"
      data-testid="report-calc-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (first && second) onAdd({ firstOperand: first, secondOperand: second, operation });
      }}
    >
      <label htmlFor={`${id}-first`}>
        <FormattedMessage id="report.calc.first" />
      </label>
      <select id={`${id}-first`} value={first} onChange={(event) => setFirst(event.target.value)} data-testid="report-calc-first">
        {options}
      </select>
      <label htmlFor={`${id}-operation`}>
        <FormattedMessage id="report.calc.operation" />
      </label>
      <select
        id={`${id}-operation`}
        value={operation}
        onChange={(event) => setOperation(event.target.value as CalcOperation)}
        data-testid="report-calc-operation"
      >
        {(['percent', 'minus', 'plus'] as const).map((value) => (
          <option key={value} value={value}>
            {intl.formatMessage({ id: `report.calc.operation.${value}` })}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-second`}>
        <FormattedMessage id="report.calc.second" />
      </label>
      <select id={`${id}-second`} value={second} onChange={(event) => setSecond(event.target.value)} data-testid="report-calc-second">
        {options}
      </select>
      <button type="submit" className="button button-primary" disabled={!first || !second} data-testid="report-calc-submit">
        <FormattedMessage id="report.calc.submit" />
      </button>
    </form>
  );
}

/** A column's period, chosen from its menu. */
export function PeriodModal({
  period,
  current,
  onApply,
  onClose,
}: {
  period: DocumentPeriod;
  current: ReportPeriod | null;
  onApply: (period: ReportPeriod) => void;
  onClose: () => void;
}) {
  const [start, setStart] = useState(current?.start.slice(0, 7) ?? firstMonth(period));
  const [duration, setDuration] = useState(current?.duration ?? 3);
  const picked = pickedPeriod(period, start, duration);
  return (
    <Modal
      title={<FormattedMessage id="report.period.title" />}
      onClose={onClose}
      testId="report-period-modal"
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            <FormattedMessage id="report.cancel" />
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={!picked}
            onClick={() => picked && onApply(picked)}
            data-testid="report-period-apply"
          >
            <FormattedMessage id="report.period.apply" />
          </button>
        </>
      }
    >
      <PeriodFields period={period} start={start} duration={duration} onStart={setStart} onDuration={setDuration} />
    </Modal>
  );
}
