import type { Classifier } from '@eelarve/shared';
import type { ColDef, ColGroupDef, SuppressKeyboardEventParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { actionsColumn, textComparator } from '../../grid/columns';
import { useLocale } from '../../i18n/I18nProvider';
import { itemText, type ItemIndex } from './model/grouping';
import type { PeriodYear } from './model/period';
import { compareOptionalAmounts, type RecordRow } from './model/rows';
import { RecordActionsCell, RecordAmountCell, RecordClassifierCell, RecordNameCell, RecordPeriodSumCell } from './RecordCells';

/**
 * The records table's columns (spec 3, Records screen): name, the classifiers not fixed by the
 * sub-budget, the amount (the total), then per calendar year its quarters and its sum, and the actions.
 */
export function useRecordColumns({
  classifiers,
  items,
  years,
  actionsWidth,
  isEdited,
}: {
  classifiers: readonly Classifier[];
  items: ItemIndex;
  years: readonly PeriodYear[];
  actionsWidth: number;
  isEdited: (row: RecordRow) => boolean;
}): Array<ColDef<RecordRow> | ColGroupDef<RecordRow>> {
  const intl = useIntl();
  const { locale } = useLocale();
  return useMemo(() => {
    const text = textComparator(locale);
    // The edited row's keys belong to its editors (typing a space must not select or navigate).
    const suppressKeyboardEvent = ({ data }: SuppressKeyboardEventParams<RecordRow>) => data !== undefined && isEdited(data);
    const amountColumn = (colId: string, headerName: string, sumKey: string | null, months: readonly number[]): ColDef<RecordRow> => ({
      colId,
      headerName,
      minWidth: 100,
      width: 125,
      type: 'rightAligned',
      valueGetter: ({ data }) => (data ? (sumKey === null ? data.amount : (data.sums[sumKey] ?? null)) : null),
      comparator: compareOptionalAmounts,
      cellRenderer: sumKey === null ? RecordAmountCell : RecordPeriodSumCell,
      cellRendererParams: sumKey === null ? undefined : { sumKey, months },
      suppressKeyboardEvent,
    });
    return [
      {
        colId: 'name',
        headerName: intl.formatMessage({ id: 'records.column.name' }),
        flex: 1.4,
        minWidth: 240,
        // The value is the row: its cell is drawn again whenever the row changes (a group's
        // expanded flag and count, a record's promotion), not only when the name does.
        valueGetter: ({ data }) => data,
        comparator: (a: RecordRow | undefined, b: RecordRow | undefined) => text(a?.name ?? '', b?.name ?? ''),
        cellRenderer: RecordNameCell,
        suppressKeyboardEvent,
      },
      ...classifiers.map<ColDef<RecordRow>>((classifier) => ({
        colId: `classifier-${classifier.id}`,
        headerName: classifier.required ? `${classifier.name} *` : classifier.name,
        flex: 1,
        minWidth: 170,
        comparator: text,
        valueGetter: ({ data }) => {
          const code = data?.classifiers[classifier.id] ?? '';
          return code === '' ? '' : itemText(items.get(classifier.id)?.get(code), code);
        },
        cellRenderer: RecordClassifierCell,
        cellRendererParams: { classifierId: classifier.id, classifierName: classifier.name },
        suppressKeyboardEvent,
      })),
      { ...amountColumn('amount', intl.formatMessage({ id: 'records.column.amount' }), null, []), width: 200, minWidth: 180 },
      ...years.map<ColGroupDef<RecordRow>>((year) => ({
        groupId: `group-${year.key}`,
        headerName: String(year.year),
        children: [
          ...year.quarters.map((quarter) =>
            amountColumn(quarter.key, intl.formatMessage({ id: 'records.column.quarter' }, { quarter: quarter.quarter }), quarter.key, quarter.months),
          ),
          amountColumn(year.key, intl.formatMessage({ id: 'records.column.year' }, { year: year.year }), year.key, year.months),
        ],
      })),
      {
        ...actionsColumn<RecordRow>(intl.formatMessage({ id: 'records.column.actions' }), actionsWidth, RecordActionsCell),
        valueGetter: ({ data }) => data,
        // Enter and Space press the focused button, not the grid's own keys.
        suppressKeyboardEvent: ({ event }) => (event.key === 'Enter' || event.key === ' ') && event.target instanceof HTMLButtonElement,
      },
    ];
  }, [intl, locale, classifiers, items, years, isEdited, actionsWidth]);
}
