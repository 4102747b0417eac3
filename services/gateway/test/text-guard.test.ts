import { describe, expect, it } from 'vitest';
import { findUnstorableText } from '../src/plugins/text-guard';

describe('findUnstorableText', () => {
  it('answers null for clean values of any shape, and the path of the first unstorable string or key', () => {
    const clean = { list: [{ name: 'Rida 1', months: ['1.5', null, 2], classifiers: { allikas: 'RE', 'õ 🙂': 'x' } }], flag: true, none: null };
    expect(findUnstorableText(clean, 'body')).toBeNull();
    expect(findUnstorableText('nul \u0000', 'query')).toBe('query');
    expect(findUnstorableText({ list: [{ name: 'ok' }, { classifiers: { allikas: 'R\u0000E' } }] }, 'body')).toBe('body.list.1.classifiers.allikas');
    expect(findUnstorableText({ list: [{ months: ['1', 'lone \ud800'] }] }, 'body')).toBe('body.list.0.months.1');
    // A key names the object that holds it.
    expect(findUnstorableText({ outer: { 'k\udfff': 1 } }, 'body')).toBe('body.outer');
  });

  it('walks values nested far deeper than the call stack allows', () => {
    let deep: unknown = ['\u0000'];
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(findUnstorableText(deep, 'body')).toBe(`body${'.0'.repeat(100_001)}`);
  });
});
