import type { Classifier } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { formRules, payloadOf } from './rules';
import { initialValues } from './values';

const bounds = { min: { from: 1, to: 3 }, max: { from: 5, to: 40 }, fromCodes: true };
const open = { required: null, sign: null, bounds };

describe('classifier form rules', () => {
  it('keeps the code lengths within the bounds of the existing codes', () => {
    const values = { ...initialValues(null), minLength: '4', maxLength: '4' };
    expect(formRules(values, open, false)).toEqual({
      'codeSettings.minLength': { message: 'lengthOutOfRange' },
      'codeSettings.maxLength': { message: 'lengthOutOfRange' },
    });
  });

  it('refuses a maximum below the minimum', () => {
    const values = { ...initialValues(null), minLength: '3', maxLength: '6' };
    expect(formRules(values, { ...open, bounds: { ...bounds, max: { from: 2, to: 40 } } }, false)).toEqual({});
    expect(formRules({ ...values, maxLength: '2' }, { ...open, bounds: { ...bounds, max: { from: 2, to: 40 } } }, false)).toEqual({
      'codeSettings.maxLength': { message: 'minAndMax' },
    });
  });

  it('asks for the primary grouping classifier only when others group this one', () => {
    const values = { ...initialValues(null), minLength: '1', maxLength: '20' };
    expect(formRules(values, open, true)).toEqual({ primaryGroupedById: { message: 'validation.required' } });
    expect(formRules(values, open, false)).toEqual({});
  });

  it('sends a locked switch at its lock and the lengths as numbers', () => {
    const values = { ...initialValues(null), name: 'Allikad', required: false, itemCanChangeSign: true, minLength: '2', maxLength: '8' };
    const locks = {
      required: { reason: 'classifiers.form.requiredLocked.master', value: true },
      sign: { reason: 'classifiers.form.signLocked.notGroupingMaster', value: false },
      bounds,
    } as const;
    expect(payloadOf(values, null as Classifier | null, locks)).toMatchObject({
      name: 'Allikad',
      required: true,
      itemCanChangeSign: false,
      primaryGroupedById: null,
      codeSettings: { minLength: 2, maxLength: 8 },
    });
  });
});
