import type { Classifier, ImportValidation } from '@eelarve/shared';
import type { ColDef } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useMemo } from 'react';
import { FormattedMessage, type IntlShape, useIntl } from 'react-intl';
import { validationValues } from '../../i18n/keys';
import type { MessageKey } from '../../i18n/messages';
import { importErrorKey } from './ClassifierFieldError';

export type ImportRow = ImportValidation['rows'][number] & { id: string };

/** The checked rows' columns: the row number, the file's columns named by their labels, and the row's errors. */
export function useImportColumns(fileColumns: readonly string[], groupings: readonly Classifier[]) {
  const intl = useIntl();
  const fieldLabel = useMemo(() => importFieldLabel(intl, groupings), [intl, groupings]);
  const columns = useMemo<ColDef<ImportRow>[]>(() => {
    const valueColumns: ColDef<ImportRow>[] = fileColumns.map((column) => ({
      colId: `value-${column}`,
      headerName: fieldLabel(column),
      // The file's own column name, as the template has it.
      headerTooltip: column,
      valueGetter: ({ data }) => {
        const value = data?.values[column];
        return value === null || value === undefined ? '' : String(value);
      },
      width: column === 'name' || column === 'description' ? 180 : 110,
    }));
    return [
      { colId: 'row', field: 'row', headerName: intl.formatMessage({ id: 'classifiers.import.column.row' }), width: 90 },
      ...valueColumns,
      {
        colId: 'errors',
        headerName: intl.formatMessage({ id: 'classifiers.import.column.errors' }),
        flex: 1,
        minWidth: 260,
        autoHeight: true,
        wrapText: true,
        sortable: false,
        valueGetter: ({ data }) => data?.errors.length ?? 0,
        cellRenderer: ErrorsCell,
      },
    ];
  }, [fileColumns, intl, fieldLabel]);
  return { columns, fieldLabel };
}

export interface ImportGridContext {
  fieldLabel: (field: string) => string;
}

const ITEM_FIELD_LABELS: Record<string, MessageKey> = {
  code: 'classifiers.items.column.code',
  name: 'classifiers.items.column.name',
  description: 'classifiers.items.column.description',
  sign: 'classifiers.items.column.sign',
  unselectable: 'classifiers.items.column.unselectable',
};

/** A file column's name as the user reads it: the item field's label, or the grouping classifier's name. */
export function importFieldLabel(intl: IntlShape, groupings: readonly Classifier[]): (field: string) => string {
  return (field) => {
    const key = ITEM_FIELD_LABELS[field];
    if (key) return intl.formatMessage({ id: key });
    return groupings.find((grouping) => grouping.fieldName === field)?.name ?? field;
  };
}

function ErrorsCell({ data, context }: CustomCellRendererProps<ImportRow, unknown, ImportGridContext>) {
  const intl = useIntl();
  if (!data) return null;
  if (data.errors.length === 0)
    return (
      <span className="import-ok" data-testid="import-row-ok">
        <FormattedMessage id="classifiers.import.rowOk" />
      </span>
    );
  return (
    <ul className="import-errors" data-testid="import-row-errors">
      {data.errors.map((error) => (
        <li key={`${error.field}-${error.message}`} data-testid="import-row-error" data-field={error.field} data-message={error.message}>
          {intl.formatMessage(
            { id: 'classifiers.import.error' },
            { field: context.fieldLabel(error.field), message: intl.formatMessage({ id: importErrorKey(error.message) }, validationValues()) },
          )}
        </li>
      ))}
    </ul>
  );
}
