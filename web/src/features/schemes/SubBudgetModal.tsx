import { type ClassifierItem, type SubBudget, subBudgetInputSchema } from '@eelarve/shared';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FieldError } from '../../components/FieldError';
import { Modal } from '../../components/Modal';
import { ModalFormFooter } from '../../components/ModalFormFooter';
import { createSubBudget, updateSubBudget } from './api';
import { type SchemeColumn, classifierValue } from './model';

/**
 * Add, edit or duplicate a sub-budget: its name and a value per main (required) and secondary
 * classifier. A duplicate starts from the copied row's values and "<name> (copy)" and is saved as new.
 */
export function SubBudgetModal({
  schemeId,
  row,
  copyOf = null,
  columns,
  items,
  onClose,
  onSaved,
}: {
  schemeId: string;
  row: SubBudget | null;
  /** The sub-budget to duplicate (only without `row`). */
  copyOf?: SubBudget | null;
  columns: SchemeColumn[];
  items: ClassifierItem[];
  onClose: () => void;
  onSaved: (id: string) => Promise<void>;
}) {
  const intl = useIntl();
  const formId = useId();
  const source = row ?? copyOf;
  const [name, setName] = useState(() => (row ? row.name : copyOf ? intl.formatMessage({ id: 'subBudgets.copyName' }, { name: copyOf.name }) : ''));
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(columns.map((column) => [column.classifierId, source ? classifierValue(source, column) : ''])),
  );
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const options = useMemo(() => {
    const byClassifier = new Map<string, ClassifierItem[]>();
    for (const item of items) {
      if (item.unselectable) continue;
      const list = byClassifier.get(item.classifierId) ?? [];
      list.push(item);
      byClassifier.set(item.classifierId, list);
    }
    for (const list of byClassifier.values()) list.sort((a, b) => a.code.localeCompare(b.code));
    return byClassifier;
  }, [items]);

  const save = useMutation({
    mutationFn: (payload: { name: string; classifiers: Record<string, string> }) =>
      row ? updateSubBudget(schemeId, row.id, payload) : createSubBudget(schemeId, payload),
    onSuccess: (result) => onSaved(result?.id ?? row?.id ?? ''),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const classifiers = Object.fromEntries(Object.entries(values).filter(([, code]) => code !== ''));
    const problems: Record<string, string> = {};
    const parsed = subBudgetInputSchema.safeParse({ name, classifiers });
    if (!parsed.success) for (const issue of parsed.error.issues) if (issue.path[0] === 'name') problems.name = issue.message;
    for (const column of columns) if (column.type === 'MAIN' && !classifiers[column.classifierId]) problems[column.classifierId] = 'validation.required';
    setInvalid(problems);
    if (Object.keys(problems).length > 0 || !parsed.success) return;
    save.mutate(parsed.data);
  };

  return (
    <Modal
      title={<FormattedMessage id={row ? 'subBudgets.form.editTitle' : copyOf ? 'subBudgets.form.duplicateTitle' : 'subBudgets.form.addTitle'} />}
      onClose={onClose}
      busy={save.isPending}
      width={560}
      testId="sub-budget-modal"
      footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={save.isPending} testIdPrefix="sub-budget-form" />}
    >
      <form id={formId} className="form" onSubmit={onSubmit} noValidate>
        {save.isError ? <ErrorAlert error={save.error} title={<FormattedMessage id="subBudgets.form.failed" />} testId="sub-budget-form-error" /> : null}
        <div className="field">
          <label htmlFor={`${formId}-name`}>
            <FormattedMessage id="subBudgets.form.name" />
          </label>
          <input
            id={`${formId}-name`}
            type="text"
            value={name}
            onChange={(event) => setName(event.target.value)}
            data-testid="sub-budget-form-name"
            aria-invalid={invalid.name ? true : undefined}
          />
          <FieldError message={invalid.name} />
        </div>
        {columns.map((column) => (
          <div key={column.classifierId} className="field">
            <label htmlFor={`${formId}-${column.classifierId}`}>
              {column.name}
              {column.type === 'MAIN' ? ' *' : ''}
            </label>
            <select
              id={`${formId}-${column.classifierId}`}
              aria-invalid={invalid[column.classifierId] ? true : undefined}
              value={values[column.classifierId] ?? ''}
              onChange={(event) => setValues((current) => ({ ...current, [column.classifierId]: event.target.value }))}
              data-testid={`sub-budget-form-${column.fieldName}`}
            >
              <option value="">{intl.formatMessage({ id: 'subBudgets.form.none' })}</option>
              {(options.get(column.classifierId) ?? []).map((item) => (
                <option key={item.id} value={item.code}>
                  {`${item.code} – ${item.name}`}
                </option>
              ))}
            </select>
            <FieldError message={invalid[column.classifierId]} />
          </div>
        ))}
      </form>
    </Modal>
  );
}
