import type { Classifier, ClassifierItem } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { classifierTree } from './tree';
import { importErrorKey } from './ClassifierFieldError';
import { codeError, codeLengthBounds, fieldNameOf, itemInUse, requiredLock, signLock } from './rules';

const classifier = (id: string, displayOrder: number, groupingId: string | null = null): Classifier => ({
  id,
  documentId: 'd',
  name: id,
  itemName: id,
  fieldName: id,
  description: '',
  required: false,
  itemCanChangeSign: false,
  primary: false,
  groupingId,
  groupedByIds: [],
  primaryGroupedById: null,
  displayOrder,
  displayMode: 'CODE_AND_NAME',
  isInUseSchema: false,
  master: false,
  codeSettings: { typeName: 'Number', typeRegex: '^[0-9]+$', regexFlag: '', minLength: 2, maxLength: 4, hierarchical: false, ranking: 1 },
});

const item = (id: string, code: string, extra: Partial<ClassifierItem> = {}): ClassifierItem => ({
  id,
  classifierId: 'c',
  code,
  name: code,
  description: '',
  sign: null,
  unselectable: false,
  groupedBy: [],
  ...extra,
});

describe('classifiers: form rules', () => {
  it('derives the technical name from the item name', () => {
    expect(fieldNameOf('Tegevusala kood')).toBe('tegevusala_kood');
    expect(fieldNameOf('  Kulu  liik (ERP) ')).toBe('kulu_liik_erp');
    expect(fieldNameOf('Ülikool ja õppeasutus')).toBe('ulikool_ja_oppeasutus');
    expect(fieldNameOf('2024 eelarve')).toBe('_2024_eelarve');
  });

  it('checks a code against the type, the length bounds and the other codes', () => {
    const target = classifier('c', 0);
    const items = [item('a', '10'), item('b', '20')];
    expect(codeError('', target, items, null)?.message).toBe('validation.required');
    expect(codeError('1', target, items, null)?.message).toBe('validation.minLength');
    expect(codeError('12345', target, items, null)?.message).toBe('validation.maxLength');
    expect(codeError('1A', target, items, null)?.message).toBe('codeTypeError');
    expect(codeError('10', target, items, null)?.message).toBe('uniqueCode');
    expect(codeError('10', target, items, 'a')).toBeNull();
    expect(codeError(' 30 ', target, items, null)).toBeNull();
  });

  it('maps import messages to catalog keys', () => {
    expect(importErrorKey('validation.required')).toBe('validation.required');
    expect(importErrorKey('referenceItemNotFound')).toBe('classifiers.importError.referenceItemNotFound');
    expect(importErrorKey('somethingNew')).toBe('classifiers.importError.other');
  });

  it('knows an item in use', () => {
    expect(itemInUse(item('a', '10'))).toBe(false);
    expect(itemInUse(item('a', '10', { isInUseGroupings: true }))).toBe(true);
  });

  it('puts grouping classifiers under the classifier they group, in display order', () => {
    const tree = classifierTree([classifier('b', 1), classifier('g2', 3, 'a'), classifier('a', 0), classifier('g1', 2, 'a'), classifier('g3', 0, 'b')]);
    expect(tree.map((entry) => `${entry.classifier.id}:${entry.depth}`)).toEqual(['a:0', 'g1:1', 'g2:1', 'b:0', 'g3:1']);
  });
});

describe('classifier form locks (spec 2, sections 4 and 5)', () => {
  const own = { id: 'c', required: false, master: false, itemCanChangeSign: false };
  const ref = (classifierId: string) => ({ classifierId, id: 'i', code: 'x', sign: null });

  it('locks required on for the master classifier', () => {
    expect(requiredLock({ classifier: { ...own, master: true, required: true }, groupingId: null, groupsMaster: false })).toEqual({
      reason: 'classifiers.form.requiredLocked.master',
      value: true,
    });
  });

  it('refuses required for an additional classifier of a scheme, unless it is required already', () => {
    expect(requiredLock({ classifier: own, groupingId: null, groupsMaster: false, secondaryInScheme: true })?.reason).toBe(
      'classifiers.form.requiredLocked.secondary',
    );
    expect(requiredLock({ classifier: { ...own, required: true }, groupingId: null, groupsMaster: false, secondaryInScheme: true })).toBeNull();
  });

  it('refuses required for a grouping classifier unless every grouped item has its value', () => {
    const facts = { classifier: own, groupingId: 'g', groupsMaster: false };
    expect(requiredLock({ ...facts, groupedItems: [{ groupedBy: [ref('c')] }, { groupedBy: [ref('other')] }] })?.reason).toBe(
      'classifiers.form.requiredLocked.grouping',
    );
    expect(requiredLock({ ...facts, groupedItems: [{ groupedBy: [ref('c')] }, { groupedBy: [ref('other'), ref('c')] }] })).toBeNull();
    expect(requiredLock({ ...facts, groupedItems: [] })).toBeNull();
    // A new grouping classifier: no grouped item has its value yet.
    expect(requiredLock({ ...facts, classifier: null, groupedItems: [{ groupedBy: [] }] })?.reason).toBe('classifiers.form.requiredLocked.grouping');
    expect(requiredLock({ ...facts, classifier: null, groupedItems: [] })).toBeNull();
  });

  it('allows sign changes only when grouping the master classifier, and keeps them while items are negative', () => {
    expect(signLock({ classifier: own, groupingId: null, groupsMaster: false })?.reason).toBe('classifiers.form.signLocked.notGroupingMaster');
    expect(signLock({ classifier: own, groupingId: 'g', groupsMaster: false })?.reason).toBe('classifiers.form.signLocked.notGroupingMaster');
    expect(signLock({ classifier: own, groupingId: 'g', groupsMaster: true, items: [{ code: 'a', sign: -1 }] })).toBeNull();
    const signed = { ...own, itemCanChangeSign: true };
    expect(signLock({ classifier: signed, groupingId: 'g', groupsMaster: true, items: [{ code: 'a', sign: 1 }] })).toBeNull();
    expect(
      signLock({
        classifier: signed,
        groupingId: 'g',
        groupsMaster: true,
        items: [
          { code: 'a', sign: 1 },
          { code: 'b', sign: -1 },
        ],
      }),
    ).toEqual({ reason: 'classifiers.form.signLocked.negativeItems', value: true });
  });

  it('bounds the code lengths by the existing codes', () => {
    expect(codeLengthBounds([])).toEqual({ min: { from: 1, to: 20 }, max: { from: 1, to: 40 }, fromCodes: false });
    expect(codeLengthBounds(['02', '0301', '1'])).toEqual({ min: { from: 1, to: 1 }, max: { from: 4, to: 40 }, fromCodes: true });
    expect(codeLengthBounds(['ABCDE', 'ABC'])).toMatchObject({ min: { to: 3 }, max: { from: 5 } });
  });
});
