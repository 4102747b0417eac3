import { PRIVILEGES, type Privilege } from '@eelarve/shared';
import { useCallback } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { isMessageKey } from '../../i18n/messages';
import { Chips } from '../../components/Chips';
import '../../components/list-cells.css';
import './roles.css';

/** The translated name of a privilege (`privilege.<ID>`), or the id itself for one the catalog lacks. */
export function usePrivilegeLabel(): (id: string) => string {
  const intl = useIntl();
  return useCallback(
    (id: string) => {
      const key = `privilege.${id}`;
      return isMessageKey(key) ? intl.formatMessage({ id: key }) : id;
    },
    [intl],
  );
}

/** Every privilege of an organisation: all but the platform administrator's IS_ADMIN. */
const ORGANIZATION_PRIVILEGES = PRIVILEGES.filter((privilege) => privilege !== 'IS_ADMIN');

/**
 * The privileges of a role as translated chips. A role with every organisation privilege (an
 * administrator role) shows one "all privileges" chip, plus IS_ADMIN when it has that too.
 */
export function PrivilegeChips({ ids, testId }: { ids: readonly Privilege[]; testId?: string }) {
  const intl = useIntl();
  const label = usePrivilegeLabel();
  if (ORGANIZATION_PRIVILEGES.every((privilege) => ids.includes(privilege))) {
    return (
      <span className="chips" data-testid={testId} data-count={ids.length}>
        <span className="chip chip-strong" title={ids.map(label).join(', ')} data-value="ALL">
          {intl.formatMessage({ id: 'roles.privileges.all' }, { count: ORGANIZATION_PRIVILEGES.length })}
        </span>
        {ids.includes('IS_ADMIN') ? (
          <span className="chip chip-strong" data-value="IS_ADMIN">
            {label('IS_ADMIN')}
          </span>
        ) : null}
      </span>
    );
  }
  return (
    <Chips
      items={ids.map((id) => ({ key: id, label: label(id), strong: id === 'IS_ADMIN' }))}
      empty={<FormattedMessage id="roles.privileges.none" />}
      testId={testId}
    />
  );
}
