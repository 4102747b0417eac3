import type { Organization } from '@eelarve/shared';
import { useId, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useCurrentUser } from '../../app/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { type FieldErrors, Form, hasErrors, ModalFormFooter, serverFieldErrors, TextField } from '../../components/form';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { type LocalesResponse, useLocales, useSaveOrganization } from './api';
import { AuthenticationFields } from './AuthenticationFields';
import { LocaleFields } from './LocaleFields';
import { emptyForm, formFromOrganization, localesOrDefaults, type OrganizationForm, validateForm } from './organization-form';
import { ResourceStatusFields } from './ResourceStatusFields';

/** Add or edit an organisation (spec 1, section 5); `organization` null means add. */
export function OrganizationModal({ organization, onClose }: { organization: Organization | null; onClose: () => void }) {
  const localesQuery = useLocales();
  const title = organization ? 'organizations.modal.editTitle' : 'organizations.modal.addTitle';

  if (localesQuery.isPending) {
    return (
      <Modal title={<FormattedMessage id={title} />} onClose={onClose} testId="organization-modal">
        <Spinner />
      </Modal>
    );
  }

  return (
    <OrganizationFormModal
      organization={organization}
      onClose={onClose}
      locales={localesOrDefaults(localesQuery.data)}
      localesError={localesQuery.isError ? localesQuery.error : null}
    />
  );
}

/** The form's values and messages: after the first save attempt the messages follow the input. */
function useOrganizationForm(organization: Organization | null, locales: LocalesResponse) {
  const [form, setForm] = useState<OrganizationForm>(() => (organization ? formFromOrganization(organization, locales) : emptyForm(locales)));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const update = (changes: Partial<OrganizationForm>) => {
    const next = { ...form, ...changes };
    setForm(next);
    if (submitted) setErrors(validateForm(next).errors);
  };
  const check = () => {
    setSubmitted(true);
    const { payload, errors: found } = validateForm(form);
    setErrors(found);
    return payload;
  };
  return { form, update, errors, setErrors, check };
}

function OrganizationFormModal({
  organization,
  onClose,
  locales,
  localesError,
}: {
  organization: Organization | null;
  onClose: () => void;
  locales: LocalesResponse;
  localesError: unknown;
}) {
  const me = useCurrentUser();
  const formId = useId();
  const { form, update, errors, setErrors, check } = useOrganizationForm(organization, locales);

  const save = useSaveOrganization(
    { organization, ownOrganizationId: me.organizationId },
    {
      onSuccess: onClose,
      // A refused body marks its fields; any other failure is the alert alone.
      onError: (error) => {
        const found = serverFieldErrors(error);
        if (hasErrors(found)) setErrors(found);
      },
    },
  );

  const onSubmit = () => {
    const payload = check();
    if (payload) save.mutate(payload);
  };

  const busy = save.isPending;
  const sectionProps = { form, update, errors, formId };

  return (
    <Modal
      title={<FormattedMessage id={organization ? 'organizations.modal.editTitle' : 'organizations.modal.addTitle'} />}
      onClose={onClose}
      busy={busy}
      testId="organization-modal"
      footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={busy} testIdPrefix="organization" />}
    >
      <Form id={formId} onSubmit={onSubmit}>
        {save.isError ? (
          <ErrorAlert error={save.error} title={<FormattedMessage id="organizations.modal.saveFailed" />} testId="organization-save-error" />
        ) : null}
        {localesError ? <ErrorAlert error={localesError} title={<FormattedMessage id="organizations.modal.localesFailed" />} /> : null}

        <TextField
          id={`${formId}-name`}
          labelId="organizations.field.name"
          value={form.name}
          onChange={(name) => update({ name })}
          error={errors.name}
          testId="organization-name"
        />
        <AuthenticationFields {...sectionProps} />
        <ResourceStatusFields {...sectionProps} statusesLocked={organization?.enableResourceStatuses === true} />
        <LocaleFields {...sectionProps} locales={locales} />
      </Form>
    </Modal>
  );
}
