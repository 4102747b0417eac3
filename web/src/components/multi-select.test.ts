import { describe, expect, it } from 'vitest';
import { matchingOptions, SEARCH_FROM_OPTIONS, visibleChoices } from './multi-select';

describe('multi-select', () => {
  it('shows a search box from 11 options on (spec 2, section 9)', () => {
    expect(SEARCH_FROM_OPTIONS).toBe(11);
  });

  it('finds options by a case-insensitive part of the label', () => {
    const options = [
      { value: '1', label: 'Õppetöö' },
      { value: '2', label: 'ERP' },
      { value: '3', label: 'Haldus' },
    ];
    expect(matchingOptions(options, ' õpp ', 'et').map((option) => option.value)).toEqual(['1']);
    expect(matchingOptions(options, 'erp', 'et').map((option) => option.value)).toEqual(['2']);
    expect(matchingOptions(options, '', 'et')).toHaveLength(3);
  });

  it('shows up to the limit of chosen values and counts the rest', () => {
    expect(visibleChoices(['a', 'b'], 3)).toEqual({ shown: ['a', 'b'], more: 0 });
    expect(visibleChoices(['a', 'b', 'c', 'd', 'e'], 3)).toEqual({ shown: ['a', 'b', 'c'], more: 2 });
  });
});
