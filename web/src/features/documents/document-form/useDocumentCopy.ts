import type { DocumentCopyPart } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { documentCopyPartsQuery } from '../api/queries';

export interface CopyState {
  enabled: boolean;
  sourceDocumentId: string;
  permissions: boolean;
  classifiers: boolean;
  schemes: boolean;
  reportViews: boolean;
}

export const NO_COPY: CopyState = { enabled: false, sourceDocumentId: '', permissions: false, classifiers: false, schemes: false, reportViews: false };

/** A change of the copy choice: schemes need classifiers, report views need schemes, so dropping one drops what needs it. */
export function changeCopy(copy: CopyState, change: Partial<CopyState>): CopyState {
  const merged = { ...copy, ...change };
  const schemes = merged.schemes && merged.classifiers;
  return { ...merged, schemes, reportViews: merged.reportViews && schemes };
}

/** The copy choice of a new document (spec 2, section 5): schemes need classifiers, report views need schemes. */
export function useDocumentCopy() {
  const [copy, setCopy] = useState<CopyState>(NO_COPY);
  const copyParts = useQuery({ ...documentCopyPartsQuery(), enabled: copy.enabled });
  const unavailable = (part: DocumentCopyPart) => !(copyParts.data?.parts ?? []).includes(part);
  const change = (next: Partial<CopyState>) => setCopy(changeCopy(copy, next));
  return {
    copy,
    unavailable,
    setEnabled: (enabled: boolean) => setCopy(enabled ? { ...NO_COPY, enabled: true } : NO_COPY),
    change,
    /** What the form sends as `copy`, or undefined when nothing is copied. */
    options: () => {
      if (!copy.enabled) return undefined;
      const { enabled: _enabled, ...options } = copy;
      return options;
    },
  };
}

export type DocumentCopy = ReturnType<typeof useDocumentCopy>;
