import type { Occupation } from '@eelarve/shared';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Alert } from '../../components/Alert';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, SelectField } from '../../components/form';
import { Modal } from '../../components/Modal';
import { useCopyPermissions } from './api';

const label = (occupation: Occupation) => `${occupation.name} (${occupation.userName})`;

/**
 * Copies permissions (USER_ADMIN, spec 1 section 6): the target occupation's grants become exactly
 * those of the occupation chosen here, so the dialog says that the current ones are replaced.
 */
export function CopyPermissionsModal({
  target,
  occupations,
  onClose,
  onCopied,
}: {
  target: Occupation;
  occupations: readonly Occupation[];
  onClose: () => void;
  onCopied: () => void;
}) {
  const intl = useIntl();
  const formId = useId();
  const sources = occupations.filter((occupation) => occupation.id !== target.id);
  const [fromOccupationId, setFromOccupationId] = useState(sources[0]?.id ?? '');
  const copy = useCopyPermissions({
    onSuccess: () => {
      onCopied();
      onClose();
    },
  });
  const submit = () => {
    if (fromOccupationId) copy.mutate({ occupationId: target.id, fromOccupationId });
  };
  return (
    <Modal
      title={<FormattedMessage id="permissions.copy.title" />}
      onClose={onClose}
      busy={copy.isPending}
      testId="permissions-copy-modal"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={copy.isPending} data-testid="permissions-copy-cancel">
            <FormattedMessage id="common.cancel" />
          </button>
          <button
            type="submit"
            form={formId}
            className="button button-primary"
            disabled={copy.isPending || !fromOccupationId}
            data-testid="permissions-copy-save"
          >
            <FormattedMessage id="permissions.copy.confirm" />
          </button>
        </>
      }
    >
      <Form id={formId} onSubmit={submit}>
        <SelectField
          labelId="permissions.copy.from"
          value={fromOccupationId}
          onChange={setFromOccupationId}
          options={sources.map((occupation) => ({ value: occupation.id, label: label(occupation) }))}
          placeholder={intl.formatMessage({ id: 'common.select' })}
          testId="permissions-copy-from"
        />
        <Alert kind="warning" testId="permissions-copy-warning">
          <FormattedMessage id="permissions.copy.warning" values={{ name: label(target) }} />
        </Alert>
        {copy.isError ? <ErrorAlert error={copy.error} testId="permissions-copy-error" /> : null}
      </Form>
    </Modal>
  );
}
