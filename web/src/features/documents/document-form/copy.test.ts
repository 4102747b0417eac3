import { describe, expect, it } from 'vitest';
import { changeCopy, NO_COPY } from './useDocumentCopy';

const all = { ...NO_COPY, enabled: true, sourceDocumentId: 'd1', permissions: true, classifiers: true, schemes: true, reportViews: true };

describe('document copy choice', () => {
  it('drops schemes and report views with the classifiers they need', () => {
    expect(changeCopy(all, { classifiers: false })).toEqual({ ...all, classifiers: false, schemes: false, reportViews: false });
  });

  it('drops report views with the schemes and keeps the classifiers', () => {
    expect(changeCopy(all, { schemes: false })).toEqual({ ...all, schemes: false, reportViews: false });
  });

  it('keeps the other parts when one is chosen', () => {
    const some = { ...NO_COPY, enabled: true, classifiers: true };
    expect(changeCopy(some, { schemes: true })).toEqual({ ...some, schemes: true });
    expect(changeCopy(some, { sourceDocumentId: 'd2' })).toEqual({ ...some, sourceDocumentId: 'd2' });
  });

  it('does not take schemes without classifiers', () => {
    expect(changeCopy({ ...NO_COPY, enabled: true }, { schemes: true, reportViews: true })).toMatchObject({ schemes: false, reportViews: false });
  });
});
