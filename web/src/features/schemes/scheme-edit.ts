import { deriveFieldName, type Scheme, type SchemeInput } from '@eelarve/shared';
import { InlineEditStore, type InlineEditSession } from '../../grid/inline-edit';
import { useInlineEditSession } from '../../grid/useInlineRowEditing';

/**
 * Row states of the schemes table (spec 2, section 4): viewing, editing, new, duplicating,
 * highlighted, kept by the shared inline editing of `grid/` (`useInlineRowEditing`, as on the
 * roles page). Here: the rows, their draft, when it counts as changed and its request body.
 */
export interface SchemeRow {
  /** Grid row id: the scheme id, or `new-<n>` for the unsaved row. */
  key: string;
  id: string | null;
  name: string;
  fieldName: string;
  description: string;
  main: string[];
  secondary: string[];
  displayOrder: number;
  subBudgetsCount: number;
}

export type SchemeDraft = Pick<SchemeRow, 'name' | 'fieldName' | 'description' | 'main' | 'secondary'>;
export type SchemeDraftField = keyof SchemeDraft;
export type SchemeEditSession = InlineEditSession<SchemeDraft>;

export function rowFromScheme(scheme: Scheme): SchemeRow {
  return {
    key: scheme.id,
    id: scheme.id,
    name: scheme.name,
    fieldName: scheme.fieldName,
    description: scheme.description,
    main: scheme.classifierList.filter((entry) => entry.type === 'MAIN').map((entry) => entry.classifierId),
    secondary: scheme.classifierList.filter((entry) => entry.type === 'SECONDARY').map((entry) => entry.classifierId),
    displayOrder: scheme.displayOrder,
    subBudgetsCount: scheme.subBudgetsCount,
  };
}

export const draftOf = (row: SchemeDraft): SchemeDraft => ({
  name: row.name,
  fieldName: row.fieldName,
  description: row.description,
  main: [...row.main],
  secondary: [...row.secondary],
});

export const EMPTY_SCHEME_DRAFT: SchemeDraft = { name: '', fieldName: '', description: '', main: [], secondary: [] };

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join(',') === [...b].sort().join(',');

export function schemeDraftChanged(original: SchemeDraft, draft: SchemeDraft): boolean {
  return (
    original.name.trim() !== draft.name.trim() ||
    original.fieldName.trim() !== draft.fieldName.trim() ||
    original.description.trim() !== draft.description.trim() ||
    !sameSet(original.main, draft.main) ||
    !sameSet(original.secondary, draft.secondary)
  );
}

/** The request body of a draft (main classifiers first). */
export function schemePayload(draft: SchemeDraft, displayOrder?: number): SchemeInput {
  return {
    name: draft.name.trim(),
    fieldName: draft.fieldName.trim(),
    description: draft.description.trim(),
    ...(displayOrder === undefined ? {} : { displayOrder }),
    classifierList: [
      ...draft.main.map((classifierId) => ({ classifierId, type: 'MAIN' as const })),
      ...draft.secondary.map((classifierId) => ({ classifierId, type: 'SECONDARY' as const })),
    ],
  };
}

/** The schemes table's edit store; a new scheme's technical name follows its name until one is typed. */
export class SchemeEditStore extends InlineEditStore<SchemeDraft> {
  constructor() {
    super({
      changed: schemeDraftChanged,
      copy: draftOf,
      derive: (draft, changes, session) =>
        session.mode !== 'editing' && !session.touched.fieldName && changes.name !== undefined ? { ...draft, fieldName: deriveFieldName(changes.name) } : draft,
    });
  }
}

export const useSchemeEditSession: (store: SchemeEditStore) => SchemeEditSession | null = useInlineEditSession;
