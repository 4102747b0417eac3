import type { Classifier } from '@eelarve/shared';
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/messages/en';
import { et } from '../../i18n/messages/et';
import { importFieldLabel } from './ImportColumns';

const grouping = { id: 'g1', name: 'Allikad', fieldName: 'allikas' } as Classifier;

describe('import field labels', () => {
  it('names an item field by its label in the user language, never by its key', () => {
    const estonian = importFieldLabel(createIntl({ locale: 'et', messages: et }), [grouping]);
    expect(estonian('unselectable')).toBe(et['classifiers.items.column.unselectable']);
    expect(estonian('code')).toBe(et['classifiers.items.column.code']);
    const english = importFieldLabel(createIntl({ locale: 'en', messages: en }), [grouping]);
    expect(english('unselectable')).toBe(en['classifiers.items.column.unselectable']);
    expect(english('sign')).toBe(en['classifiers.items.column.sign']);
  });

  it("names a grouping column by its classifier's name and leaves an unknown column as the file has it", () => {
    const label = importFieldLabel(createIntl({ locale: 'et', messages: et }), [grouping]);
    expect(label('allikas')).toBe('Allikad');
    expect(label('extra_column')).toBe('extra_column');
  });
});
