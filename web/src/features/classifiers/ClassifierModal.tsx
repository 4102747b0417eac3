import {
  type Classifier,
  CODE_TYPE_NAMES,
  type CodeTypeName,
  classifierCreateSchema,
  classifierUpdateSchema,
  DISPLAY_MODES,
  type DisplayMode,
} from '@eelarve/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FieldError } from '../../components/FieldError';
import { Modal } from '../../components/Modal';
import { ModalFormFooter } from '../../components/ModalFormFooter';
import { classifierKeys, createClassifier, fetchItems, fetchSchemes, updateClassifier } from './api';
import { type ClassifierFacts, codeLengthBounds, fieldNameOf, type FormLock, requiredLock, signLock } from './form';

const outside = (value: number, range: { from: number; to: number }) => Number.isFinite(value) && (value < range.from || value > range.to);

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
  const intl = useIntl();
  const formId = useId();
  const editing = classifier !== null;
  const [name, setName] = useState(classifier?.name ?? '');
  const [itemName, setItemName] = useState(classifier?.itemName ?? '');
  const [fieldName, setFieldName] = useState(classifier?.fieldName ?? '');
  const [fieldNameTouched, setFieldNameTouched] = useState(editing);
  const [fieldNameUnlocked, setFieldNameUnlocked] = useState(!editing);
  const [description, setDescription] = useState(classifier?.description ?? '');
  const [required, setRequired] = useState(classifier?.required ?? false);
  const [itemCanChangeSign, setItemCanChangeSign] = useState(classifier?.itemCanChangeSign ?? false);
  const [groupingId, setGroupingId] = useState(classifier?.groupingId ?? '');
  // With a single grouping classifier it is the primary one.
  const [primaryGroupedById, setPrimaryGroupedById] = useState(classifier?.primaryGroupedById ?? (classifier?.groupedByIds.length === 1 ? (classifier.groupedByIds[0] ?? '') : ''));
  const [displayMode, setDisplayMode] = useState<DisplayMode>(classifier?.displayMode ?? 'CODE_AND_NAME');
  const [typeName, setTypeName] = useState<CodeTypeName>(classifier?.codeSettings.typeName ?? 'Code');
  const [minLength, setMinLength] = useState(String(classifier?.codeSettings.minLength ?? 1));
  const [maxLength, setMaxLength] = useState(String(classifier?.codeSettings.maxLength ?? 20));
  const [hierarchical, setHierarchical] = useState(classifier?.codeSettings.hierarchical ?? false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const groupingOptions = classifiers.filter((other) => other.groupingId === null && other.id !== classifier?.id);
  const groupedBy = classifier ? classifiers.filter((other) => classifier.groupedByIds.includes(other.id)) : [];
  // Sign changes only for a classifier that groups the master classifier (spec 2, section 4).
  const effectiveGroupingId = classifier ? classifier.groupingId : groupingId || null;
  const groupsMaster = classifiers.some((other) => other.id === effectiveGroupingId && other.master);

  // The facts behind the form's locks (spec 2, sections 4 and 5): the classifier's own items (code
  // lengths, negative signs), the grouped classifier's items (do all have a value of this one?) and
  // the schemes (is this an additional classifier in one?).
  const ownItems = useQuery({ queryKey: classifierKeys.items(classifier?.id ?? ''), queryFn: () => fetchItems(classifier?.id ?? ''), enabled: classifier !== null });
  const groupedItems = useQuery({
    queryKey: classifierKeys.items(effectiveGroupingId ?? ''),
    queryFn: () => fetchItems(effectiveGroupingId ?? ''),
    enabled: effectiveGroupingId !== null && !(classifier?.required ?? false),
  });
  const schemes = useQuery({
    queryKey: classifierKeys.schemes(documentId),
    queryFn: () => fetchSchemes(documentId),
    enabled: classifier?.isInUseSchema === true && !classifier.required,
    retry: false,
  });
  const facts: ClassifierFacts = {
    classifier,
    groupingId: effectiveGroupingId,
    groupsMaster,
    items: ownItems.data,
    groupedItems: groupedItems.data,
    secondaryInScheme: schemes.data?.some((scheme) => scheme.classifierList.some((entry) => entry.classifierId === classifier?.id && entry.type === 'SECONDARY')),
  };
  const requiredLocked = requiredLock(facts);
  const signLocked = signLock(facts);
  const requiredValue = requiredLocked ? requiredLocked.value : required;
  const signValue = signLocked ? signLocked.value : itemCanChangeSign;
  const bounds = codeLengthBounds(ownItems.data?.map((item) => item.code) ?? []);

  const save = useMutation({
    mutationFn: async () => {
      const base = {
        name,
        itemName,
        fieldName,
        description,
        required: requiredValue,
        itemCanChangeSign: signValue,
        primary: classifier?.primary ?? false,
        primaryGroupedById: primaryGroupedById || null,
        displayMode,
        codeSettings: { typeName, minLength: Number(minLength), maxLength: Number(maxLength), hierarchical },
      };
      const parsed = editing ? classifierUpdateSchema.safeParse(base) : classifierCreateSchema.safeParse({ ...base, groupingId: groupingId || null });
      const found: Record<string, string> = {};
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const key = issue.path.join('.');
          found[key] ??= issue.message;
        }
      }
      // Within the bounds of the existing codes (spec 2, section 5).
      if (!found['codeSettings.minLength'] && outside(Number(minLength), bounds.min)) found['codeSettings.minLength'] = 'lengthOutOfRange';
      if (!found['codeSettings.maxLength'] && outside(Number(maxLength), bounds.max)) found['codeSettings.maxLength'] = 'lengthOutOfRange';
      if (Number(maxLength) < Number(minLength)) found['codeSettings.maxLength'] ??= 'minAndMax';
      if (groupedBy.length > 0 && !primaryGroupedById) found.primaryGroupedById ??= 'validation.required';
      setErrors(found);
      if (Object.keys(found).length > 0 || !parsed.success) return null;
      if (classifier) return updateClassifier(classifier.id, parsed.data as Parameters<typeof updateClassifier>[1]);
      return createClassifier(documentId, parsed.data as Parameters<typeof createClassifier>[1]);
    },
    onSuccess: async (result) => {
      if (!result) return;
      await onSaved(result.id);
      onClose();
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  const onItemName = (value: string) => {
    setItemName(value);
    if (!editing && !fieldNameTouched) setFieldName(fieldNameOf(value));
  };

  // Changing the technical name of an existing classifier needs a confirmation (spec 2, section 4).
  const [confirmingUnlock, setConfirmingUnlock] = useState(false);

  const fieldError = (key: string) =>
    errors[key] === 'minAndMax' ? (
      <div className="field-error" data-testid="field-error" data-message="minAndMax">
        <FormattedMessage id="classifiers.form.minAndMax" />
      </div>
    ) : errors[key] === 'lengthOutOfRange' ? (
      <div className="field-error" data-testid="field-error" data-message="lengthOutOfRange">
        <FormattedMessage id="classifiers.form.lengthOutOfRange" values={key === 'codeSettings.minLength' ? bounds.min : bounds.max} />
      </div>
    ) : (
      <FieldError message={errors[key]} />
    );
  const lockHint = (lock: FormLock | null, testId: string) =>
    lock ? (
      <div className="field-hint" data-testid={testId} data-reason={lock.reason}>
        <FormattedMessage id={lock.reason} />
      </div>
    ) : null;

  return (
    <Modal
      title={<FormattedMessage id={editing ? 'classifiers.form.editTitle' : 'classifiers.form.addTitle'} />}
      onClose={onClose}
      width={800}
      busy={save.isPending}
      testId="classifier-modal"
      footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={save.isPending} testIdPrefix="classifier-form" />}
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="classifier-form">
        {save.isError ? <ErrorAlert error={save.error} title={<FormattedMessage id="classifiers.form.saveFailed" />} testId="classifier-form-error" /> : null}
        <div className="classifier-form-grid">
          <div className="field">
            <label htmlFor={`${formId}-name`}>
              <FormattedMessage id="classifiers.form.name" />
            </label>
            <input type="text" id={`${formId}-name`} value={name} onChange={(event) => setName(event.target.value)} data-testid="classifier-name-input" />
            {fieldError('name')}
          </div>
          <div className="field">
            <label htmlFor={`${formId}-itemName`}>
              <FormattedMessage id="classifiers.form.itemName" />
            </label>
            <input type="text" id={`${formId}-itemName`} value={itemName} onChange={(event) => onItemName(event.target.value)} data-testid="classifier-item-name-input" />
            {fieldError('itemName')}
          </div>
          <div className="field">
            <label htmlFor={`${formId}-fieldName`}>
              <FormattedMessage id="classifiers.form.fieldName" />
            </label>
            <div className="input-row">
              <input
                type="text"
                id={`${formId}-fieldName`}
                value={fieldName}
                disabled={!fieldNameUnlocked}
                onChange={(event) => {
                  setFieldNameTouched(true);
                  setFieldName(event.target.value);
                }}
                data-testid="classifier-field-name-input"
              />
              {!fieldNameUnlocked && !confirmingUnlock ? (
                <button type="button" className="button" onClick={() => setConfirmingUnlock(true)} data-testid="classifier-field-name-unlock">
                  <FormattedMessage id="classifiers.form.fieldNameUnlock" />
                </button>
              ) : null}
            </div>
            {confirmingUnlock && !fieldNameUnlocked ? (
              <div className="field-confirm" data-testid="classifier-field-name-confirm">
                <span className="field-hint">
                  <FormattedMessage id="classifiers.form.fieldNameWarning" />
                </span>
                <button type="button" className="button button-small" onClick={() => setConfirmingUnlock(false)} data-testid="classifier-field-name-keep">
                  <FormattedMessage id="common.no" />
                </button>
                <button type="button" className="button button-small button-primary" onClick={() => setFieldNameUnlocked(true)} data-testid="classifier-field-name-change">
                  <FormattedMessage id="common.yes" />
                </button>
              </div>
            ) : null}
            {fieldError('fieldName')}
          </div>
          <div className="field">
            <label htmlFor={`${formId}-displayMode`}>
              <FormattedMessage id="classifiers.form.displayMode" />
            </label>
            <select id={`${formId}-displayMode`} value={displayMode} onChange={(event) => setDisplayMode(event.target.value as DisplayMode)} data-testid="classifier-display-mode-input">
              {DISPLAY_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {intl.formatMessage({ id: `classifiers.displayMode.${mode}` })}
                </option>
              ))}
            </select>
          </div>
          <div className="field field-wide">
            <label htmlFor={`${formId}-description`}>
              <FormattedMessage id="classifiers.form.description" />
            </label>
            <textarea id={`${formId}-description`} value={description} rows={2} onChange={(event) => setDescription(event.target.value)} data-testid="classifier-description-input" />
            {fieldError('description')}
          </div>
          <div className="field">
            <label htmlFor={`${formId}-grouping`}>
              <FormattedMessage id="classifiers.form.grouping" />
            </label>
            <select id={`${formId}-grouping`} value={groupingId} disabled={editing} onChange={(event) => setGroupingId(event.target.value)} data-testid="classifier-grouping-input">
              <option value="">{intl.formatMessage({ id: 'classifiers.form.groupingNone' })}</option>
              {groupingOptions.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                </option>
              ))}
            </select>
          </div>
          {groupedBy.length > 0 ? (
            <div className="field">
              <label htmlFor={`${formId}-primary`}>
                <FormattedMessage id="classifiers.form.primaryGroupedBy" />
              </label>
              <select id={`${formId}-primary`} value={primaryGroupedById} onChange={(event) => setPrimaryGroupedById(event.target.value)} data-testid="classifier-primary-grouping-input">
                <option value="">{intl.formatMessage({ id: 'common.select' })}</option>
                {groupedBy.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.name}
                  </option>
                ))}
              </select>
              {fieldError('primaryGroupedById')}
            </div>
          ) : (
            <div />
          )}
          <div className="field choice-row field-wide">
            <div className="choice">
              <label className="checkbox" title={requiredLocked ? intl.formatMessage({ id: requiredLocked.reason }) : undefined}>
                <input
                  type="checkbox"
                  checked={requiredValue}
                  disabled={requiredLocked !== null}
                  onChange={(event) => setRequired(event.target.checked)}
                  data-testid="classifier-required-input"
                />
                <FormattedMessage id="classifiers.form.required" />
              </label>
              {lockHint(requiredLocked, 'classifier-required-hint')}
            </div>
            <div className="choice">
              <label className="checkbox" title={signLocked ? intl.formatMessage({ id: signLocked.reason }) : undefined}>
                <input
                  type="checkbox"
                  checked={signValue}
                  disabled={signLocked !== null}
                  onChange={(event) => setItemCanChangeSign(event.target.checked)}
                  data-testid="classifier-sign-input"
                />
                <FormattedMessage id="classifiers.form.itemCanChangeSign" />
              </label>
              {lockHint(signLocked, 'classifier-sign-hint')}
            </div>
          </div>
        </div>
        <fieldset className="fieldset">
          <legend>
            <FormattedMessage id="classifiers.form.codeSettings" />
          </legend>
          <div className="classifier-form-grid classifier-form-grid-4">
            <div className="field">
              <label htmlFor={`${formId}-type`}>
                <FormattedMessage id="classifiers.form.codeType" />
              </label>
              <select id={`${formId}-type`} value={typeName} onChange={(event) => setTypeName(event.target.value as CodeTypeName)} data-testid="classifier-code-type-input">
                {CODE_TYPE_NAMES.map((type) => (
                  <option key={type} value={type}>
                    {intl.formatMessage({ id: `classifiers.codeType.${type}` })}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${formId}-min`}>
                <FormattedMessage id="classifiers.form.minLength" />
              </label>
              <input
                id={`${formId}-min`}
                type="number"
                min={bounds.min.from}
                max={bounds.min.to}
                value={minLength}
                onChange={(event) => setMinLength(event.target.value)}
                aria-describedby={`${formId}-min-hint`}
                data-testid="classifier-min-length-input"
              />
              <div className="field-hint" id={`${formId}-min-hint`} data-testid="classifier-min-length-hint">
                <FormattedMessage id="classifiers.form.lengthHint" values={bounds.min} />
              </div>
              {fieldError('codeSettings.minLength')}
            </div>
            <div className="field">
              <label htmlFor={`${formId}-max`}>
                <FormattedMessage id="classifiers.form.maxLength" />
              </label>
              <input
                id={`${formId}-max`}
                type="number"
                min={bounds.max.from}
                max={bounds.max.to}
                value={maxLength}
                onChange={(event) => setMaxLength(event.target.value)}
                aria-describedby={`${formId}-max-hint`}
                data-testid="classifier-max-length-input"
              />
              <div className="field-hint" id={`${formId}-max-hint`} data-testid="classifier-max-length-hint">
                <FormattedMessage id="classifiers.form.lengthHint" values={bounds.max} />
              </div>
              {fieldError('codeSettings.maxLength')}
            </div>
            <div className="field field-checkbox">
              <label className="checkbox">
                <input type="checkbox" checked={hierarchical} onChange={(event) => setHierarchical(event.target.checked)} data-testid="classifier-hierarchical-input" />
                <FormattedMessage id="classifiers.form.hierarchical" />
              </label>
            </div>
          </div>
          {bounds.fromCodes ? (
            <p className="field-hint" data-testid="classifier-length-bounds">
              <FormattedMessage id="classifiers.form.lengthBoundsFromCodes" values={{ shortest: bounds.min.to, longest: bounds.max.from }} />
            </p>
          ) : null}
        </fieldset>
      </form>
    </Modal>
  );
}
