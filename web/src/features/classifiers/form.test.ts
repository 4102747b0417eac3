import type { Classifier, ClassifierItem } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { classifierTree } from './ClassifiersTab';
import { codeError, fieldNameOf, importErrorKey, itemInUse } from './form';

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
