import { FormattedMessage } from 'react-intl';
import { type ConfirmAction, ConfirmActionDialog } from '../../../components/ConfirmAction';
import type { SubBudgetDeleteTarget } from '../api/mutations';
import type { SubBudgetRow } from '../sub-budget-edit';

/** Asks before one sub-budget, or the selected ones, are deleted; a failure is shown inside. */
export function SubBudgetDeleteDialog({ action }: { action: ConfirmAction<SubBudgetDeleteTarget<SubBudgetRow>> }) {
  const remove = action;
  return (
    <ConfirmActionDialog
      action={remove}
      testId="sub-budget-delete-dialog"
      title={
        (remove.target?.kind ?? 'one') === 'one' ? <FormattedMessage id="subBudgets.delete.title" /> : <FormattedMessage id="subBudgets.deleteMultiple.title" />
      }
      message={(target) =>
        target.kind === 'one' ? (
          <FormattedMessage id="subBudgets.delete.question" values={{ name: target.row.name }} />
        ) : (
          <FormattedMessage id="subBudgets.deleteMultiple.question" values={{ count: target.ids.length }} />
        )
      }
      confirmLabel={<FormattedMessage id="common.delete" />}
      failedTitle={<FormattedMessage id="subBudgets.delete.failed" />}
      errorTestId="sub-budget-delete-error"
    />
  );
}
