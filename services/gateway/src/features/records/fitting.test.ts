import { describe, expect, it } from 'vitest';
import { schemeFitter } from './fitting';

/** Which sub-budget of a scheme a record falls in (issue 11): all of the scheme's values equal, empty where the sub-budget's are. */
describe('schemeFitter', () => {
  const scheme = ['kind', 'source'];
  const fit = schemeFitter(scheme, [
    { id: 'education', scheme_id: 's', name: 'Haridus', classifiers: { kind: '01' } },
    { id: 'education-a', scheme_id: 's', name: 'Haridus A', classifiers: { kind: '01', source: 'A' } },
    { id: 'culture', scheme_id: 's', name: 'Kultuur', classifiers: { kind: '02' } },
  ]);

  it('places a record in the sub-budget whose values it carries on every classifier of the scheme', () => {
    expect(fit({ kind: '01' })).toBe('education');
    expect(fit({ kind: '01', source: 'A' })).toBe('education-a');
    expect(fit({ kind: '02', account: '4500' })).toBe('culture');
  });

  it('answers -2 when no sub-budget has exactly its values', () => {
    expect(fit({ kind: '01', source: 'B' })).toBe('-2');
    expect(fit({ kind: '02', source: 'A' })).toBe('-2');
    expect(fit({ kind: '03' })).toBe('-2');
    expect(fit({})).toBe('-2');
  });
});
