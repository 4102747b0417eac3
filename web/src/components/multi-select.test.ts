import { describe, expect, it } from 'vitest';
import { matchingOptions, popupPosition, SEARCH_FROM_OPTIONS, toggleValue, visibleChoices } from './multi-select';

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
    expect(visibleChoices(['a', 'b'], Number.POSITIVE_INFINITY)).toEqual({ shown: ['a', 'b'], more: 0 });
  });

  it('keeps a toggled selection in the options order, without repeats', () => {
    const options = [
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
      { value: 'c', label: 'C' },
    ];
    expect(toggleValue(options, ['c'], 'a', true)).toEqual(['a', 'c']);
    expect(toggleValue(options, ['a', 'c'], 'a', true)).toEqual(['a', 'c']);
    expect(toggleValue(options, ['a', 'b', 'c'], 'b', false)).toEqual(['a', 'c']);
  });

  it('opens the popup below the trigger when there is room, otherwise above, inside the viewport', () => {
    const viewport = { width: 1000, height: 800 };
    expect(popupPosition({ top: 100, bottom: 136, left: 50, width: 200 }, viewport)).toEqual({ top: 140, left: 50, width: 300, maxHeight: 380 });
    expect(popupPosition({ top: 700, bottom: 736, left: 900, width: 200 }, viewport)).toEqual({ top: 316, left: 692, width: 300, maxHeight: 380 });
  });
});
