import type { Classifier, ClassifierItem, SubBudget } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { type RefObject, useEffect, useId, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSavePreselections } from './api/mutations';
import { preselectionsQuery } from './api/queries';
import { PRESELECTION_LIST_MAX_PX, PRESELECTION_ROW_PX } from './model';

/**
 * The resizable lower pane: which items of each classifier the sub-budget's records may use
 * (spec 2, Schemes tab; checkbox lists at most 250 px high, 30 px a row).
 */
export function PreselectionsPane({
  subBudget,
  classifiers,
  items,
  canEdit,
  onClose,
}: {
  subBudget: SubBudget;
  classifiers: Classifier[];
  items: ClassifierItem[];
  canEdit: boolean;
  onClose: () => void;
}) {
  const intl = useIntl();
  const headingId = useId();
  const current = useQuery(preselectionsQuery(subBudget.id));
  const [draft, setDraft] = useState<Record<string, string[]> | null>(null);
  const [saved, setSaved] = useState(false);
  const pane = useRef<HTMLElement>(null);
  useRevealOnOpen(pane);
  useEffect(() => {
    if (current.data && draft === null) setDraft(current.data.preselections);
  }, [current.data, draft]);

  const byClassifier = useMemo(() => {
    const map = new Map<string, ClassifierItem[]>();
    for (const item of items) {
      if (item.unselectable) continue;
      map.set(item.classifierId, [...(map.get(item.classifierId) ?? []), item]);
    }
    return map;
  }, [items]);

  const save = useSavePreselections(subBudget.id, () => setSaved(true));

  const toggle = (classifierId: string, code: string, checked: boolean) => {
    setSaved(false);
    setDraft((value) => {
      const codes = new Set(value?.[classifierId] ?? []);
      if (checked) codes.add(code);
      else codes.delete(code);
      return { ...(value ?? {}), [classifierId]: [...codes].sort() };
    });
  };

  return (
    <section ref={pane} className="preselections-pane" aria-labelledby={headingId} data-testid="preselections-pane">
      <header className="preselections-header">
        <h4 className="section-title" id={headingId} tabIndex={-1}>
          <FormattedMessage id="preselections.title" values={{ name: subBudget.name }} />
        </h4>
        <span className="toolbar-spacer" />
        {canEdit ? (
          <button
            type="button"
            className="button button-primary"
            disabled={draft === null || save.isPending}
            onClick={() => save.mutate(Object.fromEntries(Object.entries(draft ?? {}).filter(([, codes]) => codes.length > 0)))}
            data-testid="preselections-save"
          >
            <FormattedMessage id="preselections.save" />
          </button>
        ) : null}
        <button type="button" className="button" onClick={onClose} data-testid="preselections-close">
          <FormattedMessage id="preselections.close" />
        </button>
      </header>
      {saved ? (
        <p className="notice-success" role="status" data-testid="preselections-saved">
          <FormattedMessage id="preselections.saved" />
        </p>
      ) : null}
      {save.isError ? <ErrorAlert error={save.error} title={<FormattedMessage id="preselections.failed" />} /> : null}
      {current.isError ? <ErrorAlert error={current.error} /> : null}
      <div className="preselections-lists">
        {classifiers
          .filter((classifier) => classifier.groupingId === null)
          .map((classifier) => {
            const list = byClassifier.get(classifier.id) ?? [];
            const chosen = new Set(draft?.[classifier.id] ?? []);
            return (
              <fieldset key={classifier.id} className="preselections-list" data-testid={`preselections-${classifier.fieldName}`}>
                <legend>
                  {classifier.name} <span className="muted">{intl.formatMessage({ id: 'preselections.count' }, { count: chosen.size })}</span>
                </legend>
                {list.length === 0 ? (
                  <p className="muted">
                    <FormattedMessage id="preselections.noItems" />
                  </p>
                ) : (
                  <div className="preselections-options" style={{ maxHeight: PRESELECTION_LIST_MAX_PX }}>
                    {list.map((item) => (
                      <label key={item.id} className="checkbox preselection-option" style={{ height: PRESELECTION_ROW_PX }}>
                        <input
                          type="checkbox"
                          checked={chosen.has(item.code)}
                          disabled={!canEdit || draft === null}
                          onChange={(event) => toggle(classifier.id, item.code, event.target.checked)}
                          data-testid={`preselection-${classifier.fieldName}-${item.code}`}
                        />
                        {`${item.code} – ${item.name}`}
                      </label>
                    ))}
                  </div>
                )}
              </fieldset>
            );
          })}
      </div>
    </section>
  );
}

/**
 * The pane opens below the sub-budgets table, usually below the fold: it is scrolled into view and
 * its heading takes the focus, so opening it visibly does something (and keyboard users land in it).
 */
function useRevealOnOpen(pane: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = pane.current;
    if (!element) return;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    element.scrollIntoView?.({ block: 'nearest', behavior: reduceMotion ? 'auto' : 'smooth' });
    element.querySelector<HTMLElement>('h4')?.focus({ preventScroll: true });
  }, [pane]);
}
