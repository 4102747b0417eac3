import type { ApprovalAction, ApprovalHistoryEntry, Me } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useCurrentUser } from '../../../app/session';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Spinner } from '../../../components/Spinner';
import { DEFAULT_DATE_FORMAT, formatDate } from '../../../i18n/format';
import { approvalOccupationsQuery, approvalUserNamesQuery, budgetApprovalQuery } from '../api/approval';
import type { BudgetView } from '../api/queries';
import { ApprovalDialog } from './ApprovalDialog';
import './approval.css';

/** The budget's approval route on its overview: the current step, the caller's actions and the history. */
export function ApprovalPanel({ budget }: { budget: BudgetView }) {
  const approval = useQuery(budgetApprovalQuery(budget.id));
  const [action, setAction] = useState<ApprovalAction | null>(null);

  return (
    <section className="budget-approval" data-testid="budget-approval">
      <h3 className="section-title">
        <FormattedMessage id="budgets.approval.title" />
      </h3>
      {approval.isPending ? <Spinner /> : null}
      {approval.isError ? (
        <ErrorAlert error={approval.error} title={<FormattedMessage id="budgets.approval.loadFailed" />} testId="budget-approval-error" />
      ) : null}
      {approval.isSuccess ? (
        <>
          <p>
            <FormattedMessage id="budgets.approval.step" />:{' '}
            <strong data-testid="budget-approval-step" data-step={approval.data.state.step}>
              <FormattedMessage id={`budgets.approval.step.${approval.data.state.step}`} />
            </strong>
          </p>
          <ApprovalActions actions={approval.data.actions} onChoose={setAction} />
          <ApprovalHistory history={approval.data.history} />
        </>
      ) : null}
      {action ? <ApprovalDialog budgetId={budget.id} action={action} onClose={() => setAction(null)} /> : null}
    </section>
  );
}

/**
 * The actions the server offers the caller from this step (the organisation's route, the update
 * grant and four eyes applied there), exactly those and in its order; a refusal it could not
 * foresee is shown in the dialog.
 */
export function ApprovalActions({ actions, onChoose }: { actions: readonly ApprovalAction[]; onChoose: (action: ApprovalAction) => void }) {
  if (actions.length === 0) return null;
  return (
    <div className="form-actions" data-testid="budget-approval-actions">
      {actions.map((action) => (
        <button key={action} type="button" className="button" onClick={() => onChoose(action)} data-testid={`budget-approval-${action}`}>
          <FormattedMessage id={`budgets.approval.action.${action}`} />
        </button>
      ))}
    </div>
  );
}

function ApprovalHistory({ history }: { history: ApprovalHistoryEntry[] }) {
  const me = useCurrentUser();
  const names = useNames(me);
  const dateTimeFormat = `${me.organizationLocaleSettings?.dateFormat ?? DEFAULT_DATE_FORMAT} HH:mm`;
  if (history.length === 0) {
    return (
      <p className="muted" data-testid="budget-approval-no-history">
        <FormattedMessage id="budgets.approval.noHistory" />
      </p>
    );
  }
  return (
    <>
      <h4>
        <FormattedMessage id="budgets.approval.history" />
      </h4>
      <table className="budget-approval-history" data-testid="budget-approval-history">
        <thead>
          <tr>
            <th>
              <FormattedMessage id="budgets.approval.column.step" />
            </th>
            <th>
              <FormattedMessage id="budgets.approval.column.action" />
            </th>
            <th>
              <FormattedMessage id="budgets.approval.column.who" />
            </th>
            <th>
              <FormattedMessage id="budgets.approval.column.occupation" />
            </th>
            <th>
              <FormattedMessage id="budgets.approval.column.when" />
            </th>
            <th>
              <FormattedMessage id="budgets.approval.column.reason" />
            </th>
          </tr>
        </thead>
        <tbody>
          {history.map((entry) => (
            <tr key={`${entry.at}-${entry.action}`} data-testid="budget-approval-entry" data-action={entry.action} data-step={entry.toStep}>
              <td data-testid="budget-approval-entry-step">
                <FormattedMessage id={`budgets.approval.step.${entry.toStep}`} />
              </td>
              <td data-testid="budget-approval-entry-action">
                <FormattedMessage id={`budgets.approval.action.${entry.action}`} />
              </td>
              <td data-testid="budget-approval-entry-who">
                {names.user(entry.userId) ?? (
                  <span className="muted">
                    <FormattedMessage id="budgets.approval.unknownName" />
                  </span>
                )}
              </td>
              <td data-testid="budget-approval-entry-occupation">
                {names.occupation(entry.occupationId) ?? (
                  <span className="muted">
                    <FormattedMessage id="budgets.approval.unknownOccupation" />
                  </span>
                )}
              </td>
              <td data-testid="budget-approval-entry-when">
                <time dateTime={entry.at}>{formatDate(entry.at, dateTimeFormat)}</time>
              </td>
              <td data-testid="budget-approval-entry-reason" className="budget-description">
                {entry.reason}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/**
 * Names of users and occupations: the caller's own from `me`; others from the organisation's lists,
 * which only USER_VIEW and USER_ADMIN may read (anyone else sees "another user").
 */
function useNames(me: Me) {
  const organizationId = me.organizationId ?? '';
  const mayList = organizationId !== '' && (me.privileges.includes('USER_VIEW') || me.privileges.includes('USER_ADMIN'));
  const users = useQuery(approvalUserNamesQuery(organizationId, mayList));
  const occupations = useQuery(approvalOccupationsQuery(organizationId, mayList));
  const userNames = new Map((users.data ?? []).map((user) => [user.id, user.name]));
  userNames.set(me.id, me.name);
  const occupationNames = new Map((occupations.data ?? []).map((occupation) => [occupation.id, occupation.name]));
  for (const occupation of me.occupations) occupationNames.set(occupation.id, occupation.name);
  return { user: (id: string) => userNames.get(id), occupation: (id: string) => occupationNames.get(id) };
}
