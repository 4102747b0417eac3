import type { Me } from '@eelarve/shared';

export type OccupationSummary = Me['occupations'][number];

export function isUsableWith(occupation: OccupationSummary, authenticationType: Me['authenticationType']): boolean {
  return occupation.allowedAuthenticationTypes.includes(authenticationType);
}

/**
 * Spec 1, section 2: the last-used occupation first, then those usable with the current
 * authentication type, then alphabetical (by organisation, then occupation name).
 */
export function orderOccupations(me: Me, locale: string): OccupationSummary[] {
  const rank = (occupation: OccupationSummary) => (occupation.id === me.lastOccupationId ? 0 : isUsableWith(occupation, me.authenticationType) ? 1 : 2);
  const collator = new Intl.Collator(locale, { sensitivity: 'base' });
  return [...me.occupations].sort((a, b) => rank(a) - rank(b) || collator.compare(a.organizationName, b.organizationName) || collator.compare(a.name, b.name));
}
