import type { Classifier, CodeTypeName, DisplayMode } from '@eelarve/shared';

/** What the classifier form edits (numbers as typed, so an empty field can be told apart). */
export interface ClassifierValues {
  name: string;
  itemName: string;
  fieldName: string;
  description: string;
  required: boolean;
  itemCanChangeSign: boolean;
  groupingId: string;
  primaryGroupedById: string;
  displayMode: DisplayMode;
  typeName: CodeTypeName;
  minLength: string;
  maxLength: string;
  hierarchical: boolean;
}

export type SetValue = <K extends keyof ClassifierValues>(field: K, value: ClassifierValues[K]) => void;

/** The form's starting values: the classifier's, or a new classifier's defaults. */
export function initialValues(classifier: Classifier | null): ClassifierValues {
  return {
    name: classifier?.name ?? '',
    itemName: classifier?.itemName ?? '',
    fieldName: classifier?.fieldName ?? '',
    description: classifier?.description ?? '',
    required: classifier?.required ?? false,
    itemCanChangeSign: classifier?.itemCanChangeSign ?? false,
    groupingId: classifier?.groupingId ?? '',
    // With a single grouping classifier it is the primary one.
    primaryGroupedById: classifier?.primaryGroupedById ?? (classifier?.groupedByIds.length === 1 ? (classifier.groupedByIds[0] ?? '') : ''),
    displayMode: classifier?.displayMode ?? 'CODE_AND_NAME',
    typeName: classifier?.codeSettings.typeName ?? 'Code',
    minLength: String(classifier?.codeSettings.minLength ?? 1),
    maxLength: String(classifier?.codeSettings.maxLength ?? 20),
    hierarchical: classifier?.codeSettings.hierarchical ?? false,
  };
}
