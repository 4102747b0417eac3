import { type Classifier, type ClassifierItem, type ClassifierItemsBulkEdit, LIMITS } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Modal } from '../../components/Modal';
import { type FieldErrors, Form, ModalFormFooter, messageOf } from '../../components/form';
import type { MessageKey } from '../../i18n/messages';
import { type ItemSave, useSaveItem } from './api/mutations';
import { itemsOfQuery } from './api/queries';
import { ClassifierFieldError } from './ClassifierFieldError';
import { codeError, itemInUse } from './rules';

export type ItemFormMode = { kind: 'add' } | { kind: 'edit'; item: ClassifierItem } | { kind: 'bulk'; items: ClassifierItem[] };

const UNCHANGED = '__unchanged__';

/** The classifier item form (spec 2, section 5): add, edit, or bulk edit of the selected items. */
export function ItemModal({
  classifier,
  classifiers,
  items,
  mode,
  onClose,
  onSaved,
}: {
  classifier: Classifier;
  classifiers: Classifier[];
  items: ClassifierItem[];
  mode: ItemFormMode;
  onClose: () => void;
  onSaved: (message: MessageKey) => Promise<unknown>;
}) {
  const intl = useIntl();
  const formId = useId();
  const item = mode.kind === 'edit' ? mode.item : null;
  const bulk = mode.kind === 'bulk';
  const groupings = classifiers.filter((other) => classifier.groupedByIds.includes(other.id));
  const groupingItems = useQuery(itemsOfQuery(groupings.map((grouping) => grouping.id)));

  const [code, setCode] = useState(item?.code ?? '');
  const [name, setName] = useState(item?.name ?? '');
  const [description, setDescription] = useState(bulk ? UNCHANGED : (item?.description ?? ''));
  const [descriptionChanged, setDescriptionChanged] = useState(!bulk);
  const [sign, setSign] = useState(bulk ? UNCHANGED : String(item?.sign ?? ''));
  const [unselectable, setUnselectable] = useState(bulk ? UNCHANGED : String(item?.unselectable ?? false));
  const [grouped, setGrouped] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      groupings.map((grouping) => [grouping.id, bulk ? UNCHANGED : (item?.groupedBy.find((ref) => ref.classifierId === grouping.id)?.id ?? '')]),
    ),
  );
  const [errors, setErrors] = useState<FieldErrors>({});

  // The code is not checked again when the item is used somewhere (spec 2, section 5).
  const codeLocked = item !== null && itemInUse(item);

  const save = useSaveItem(classifier.id, async (message) => {
    await onSaved(message);
    onClose();
  });

  const check = (): FieldErrors => {
    const found: FieldErrors = {};
    if (!bulk) {
      if (!codeLocked) {
        const problem = codeError(code, classifier, items, item?.id ?? null);
        if (problem) found.code = problem;
      }
      if (name.trim() === '') found.name = messageOf('validation.required');
      else if (name.trim().length > LIMITS.text) found.name = messageOf('validation.maxLength', { max: LIMITS.text });
    }
    if (descriptionChanged && description !== UNCHANGED && description.length > LIMITS.textArea)
      found.description = messageOf('validation.maxLength', { max: LIMITS.textArea });
    for (const grouping of groupings) {
      const value = grouped[grouping.id] ?? '';
      if (grouping.required && value === '') found[`grouping.${grouping.id}`] = messageOf('mandatoryClassifier');
    }
    return found;
  };

  const saveOf = (): ItemSave => {
    const signValue: 1 | -1 | null = sign === '1' ? 1 : sign === '-1' ? -1 : null;
    if (mode.kind === 'bulk') {
      const edit: ClassifierItemsBulkEdit = { itemIds: mode.items.map((entry) => entry.id) };
      if (descriptionChanged && description !== UNCHANGED) edit.description = description;
      if (classifier.itemCanChangeSign && sign !== UNCHANGED) edit.sign = signValue;
      if (unselectable !== UNCHANGED) edit.unselectable = unselectable === 'true';
      const refs = groupings
        .filter((grouping) => grouped[grouping.id] !== UNCHANGED)
        .map((grouping) => ({ classifierId: grouping.id, itemId: grouped[grouping.id] || null }));
      if (refs.length > 0) edit.groupedBy = refs;
      return { kind: 'bulk', edit };
    }
    const body = {
      code: code.trim(),
      name: name.trim(),
      description,
      sign: classifier.itemCanChangeSign ? signValue : item?.sign === 1 || item?.sign === -1 ? item.sign : null,
      unselectable: unselectable === 'true',
      groupedBy: groupings
        .filter((grouping) => grouped[grouping.id])
        .map((grouping) => ({ classifierId: grouping.id, itemId: grouped[grouping.id] as string })),
    };
    return item ? { kind: 'edit', itemId: item.id, body } : { kind: 'add', body };
  };

  const onSubmit = () => {
    const found = check();
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate(saveOf());
  };

  const failedTitle: MessageKey = bulk
    ? 'classifiers.items.form.editSelectedError'
    : item
      ? 'classifiers.items.form.editError'
      : 'classifiers.items.form.addNewError';
  const title =
    mode.kind === 'bulk' ? (
      <FormattedMessage id="classifiers.items.form.bulkTitle" values={{ count: mode.items.length }} />
    ) : (
      <FormattedMessage id={item ? 'classifiers.items.form.editTitle' : 'classifiers.items.form.addTitle'} />
    );
  const unchangedOption = bulk ? <option value={UNCHANGED}>{intl.formatMessage({ id: 'classifiers.items.form.unchanged' })}</option> : null;

  return (
    <Modal
      title={title}
      onClose={onClose}
      width={640}
      busy={save.isPending}
      testId="item-modal"
      footer={<ModalFormFooter formId={formId} onCancel={onClose} busy={save.isPending} saveDisabled={groupingItems.isLoading} testIdPrefix="item-form" />}
    >
      <Form id={formId} onSubmit={onSubmit}>
        {save.isError ? <ErrorAlert error={save.error} title={<FormattedMessage id={failedTitle} />} testId="item-form-error" /> : null}
        {!bulk ? (
          <>
            <div className="field">
              <label htmlFor={`${formId}-code`}>
                <FormattedMessage id="classifiers.items.form.code" />
              </label>
              <input type="text" id={`${formId}-code`} value={code} onChange={(event) => setCode(event.target.value)} data-testid="item-code-input" />
              {codeLocked ? (
                <div className="field-hint">
                  <FormattedMessage id="classifiers.items.form.codeLocked" />
                </div>
              ) : null}
              <ClassifierFieldError error={errors.code} />
            </div>
            <div className="field">
              <label htmlFor={`${formId}-name`}>
                <FormattedMessage id="classifiers.items.form.name" />
              </label>
              <input type="text" id={`${formId}-name`} value={name} onChange={(event) => setName(event.target.value)} data-testid="item-name-input" />
              <ClassifierFieldError error={errors.name} />
            </div>
          </>
        ) : null}
        <div className="field">
          <label htmlFor={`${formId}-description`}>
            <FormattedMessage id="classifiers.items.form.description" />
          </label>
          <textarea
            id={`${formId}-description`}
            rows={3}
            value={description === UNCHANGED ? '' : description}
            placeholder={bulk && !descriptionChanged ? intl.formatMessage({ id: 'classifiers.items.form.unchanged' }) : undefined}
            onChange={(event) => {
              setDescriptionChanged(true);
              setDescription(event.target.value);
            }}
            data-testid="item-description-input"
          />
          <ClassifierFieldError error={errors.description} />
        </div>
        {classifier.itemCanChangeSign ? (
          <div className="field">
            <label htmlFor={`${formId}-sign`}>
              <FormattedMessage id="classifiers.items.form.sign" />
            </label>
            <select id={`${formId}-sign`} value={sign} onChange={(event) => setSign(event.target.value)} data-testid="item-sign-input">
              {unchangedOption}
              <option value="">{intl.formatMessage({ id: 'classifiers.items.form.signNone' })}</option>
              <option value="1">{intl.formatMessage({ id: 'classifiers.items.form.signPlus' })}</option>
              <option value="-1">{intl.formatMessage({ id: 'classifiers.items.form.signMinus' })}</option>
            </select>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${formId}-unselectable`}>
            <FormattedMessage id="classifiers.items.form.unselectable" />
          </label>
          <select
            id={`${formId}-unselectable`}
            value={unselectable}
            onChange={(event) => setUnselectable(event.target.value)}
            data-testid="item-unselectable-input"
          >
            {unchangedOption}
            <option value="false">{intl.formatMessage({ id: 'common.no' })}</option>
            <option value="true">{intl.formatMessage({ id: 'common.yes' })}</option>
          </select>
        </div>
        {groupings.map((grouping) => (
          <div className="field" key={grouping.id}>
            <label htmlFor={`${formId}-g-${grouping.id}`}>{grouping.name}</label>
            <select
              id={`${formId}-g-${grouping.id}`}
              value={grouped[grouping.id] ?? ''}
              onChange={(event) => setGrouped((current) => ({ ...current, [grouping.id]: event.target.value }))}
              data-testid={`item-grouping-input-${grouping.fieldName}`}
            >
              {unchangedOption}
              <option value="">{intl.formatMessage({ id: 'classifiers.items.form.groupingNone' })}</option>
              {(groupingItems.data?.list ?? [])
                .filter((option) => option.classifierId === grouping.id && (!option.unselectable || option.id === grouped[grouping.id]))
                .map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.code} {option.name}
                  </option>
                ))}
            </select>
            <ClassifierFieldError error={errors[`grouping.${grouping.id}`]} />
          </div>
        ))}
      </Form>
    </Modal>
  );
}
