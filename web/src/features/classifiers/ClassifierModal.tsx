import { type Classifier, classifierCreateSchema, classifierUpdateSchema } from '@eelarve/shared';
import { useId, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, ModalFormFooter, useFieldErrors, validate } from '../../components/form';
import { Modal } from '../../components/Modal';
import { useSaveClassifier } from './api/mutations';
import { CodeSettingsFieldset } from './classifier-form/CodeSettingsFieldset';
import { GroupingFields } from './classifier-form/GroupingFields';
import { IdentityFields } from './classifier-form/IdentityFields';
import { formRules, payloadOf } from './classifier-form/rules';
import { useClassifierLocks } from './classifier-form/useClassifierLocks';
import { type ClassifierValues, initialValues, type SetValue } from './classifier-form/values';

/** The classifier form (spec 2, sections 2, 4 and 5): 800 wide; add or edit. */
export function ClassifierModal({
  documentId,
  classifier,
  classifiers,
  onClose,
  onSaved,
}: {
  documentId: string;
  classifier: Classifier | null;
  classifiers: Classifier[];
  onClose: () => void;
  onSaved: (id: string) => Promise<unknown>;
}) {
  const formId = useId();
  const editing = classifier !== null;
  const [values, setValues] = useState<ClassifierValues>(() => initialValues(classifier));
  const set: SetValue = (field, value) => setValues((current) => ({ ...current, [field]: value }));
  const { errors, setErrors } = useFieldErrors();
  const locks = useClassifierLocks(documentId, classifier, classifiers, values.groupingId);
  const save = useSaveClassifier(documentId, classifier, async (id) => {
    await onSaved(id);
    onClose();
  });

  const onSubmit = () => {
    const payload = payloadOf(values, classifier, locks);
    const checked = editing
      ? validate(classifierUpdateSchema, payload)
      : validate(classifierCreateSchema, { ...payload, groupingId: values.groupingId || null });
    const hasGroupedBy = (classifier?.groupedByIds.length ?? 0) > 0;
    const found = { ...formRules(values, locks, hasGroupedBy), ...checked.errors };
    setErrors(found);
    if (checked.data && Object.keys(found).length === 0) save.mutate(checked.data);
  };

  return (
    <Modal
      title={<FormattedMessage id={editing ? 'classifiers.form.editTitle' : 'classifiers.form.addTitle'} />}
      onClose={onClose}
      width={800}
      busy={save.isPending}
      testId="classifier-modal"
      footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={save.isPending} testIdPrefix="classifier-form" />}
    >
      <Form id={formId} onSubmit={onSubmit} className="classifier-form">
        {save.isError ? <ErrorAlert error={save.error} title={<FormattedMessage id="classifiers.form.saveFailed" />} testId="classifier-form-error" /> : null}
        <div className="classifier-form-grid">
          <IdentityFields values={values} set={set} errors={errors} editing={editing} />
          <GroupingFields classifier={classifier} classifiers={classifiers} values={values} set={set} errors={errors} locks={locks} />
        </div>
        <CodeSettingsFieldset values={values} set={set} errors={errors} bounds={locks.bounds} />
      </Form>
    </Modal>
  );
}
