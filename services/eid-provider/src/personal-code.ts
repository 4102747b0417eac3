/** Estonian personal identification code (isikukood): GYYMMDDSSSC, 11 digits. */
const FIRST_WEIGHTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1];
const SECOND_WEIGHTS = [3, 4, 5, 6, 7, 8, 9, 1, 2, 3];

function weightedRemainder(digits: number[], weights: number[]): number {
  return digits.reduce((sum, digit, index) => sum + digit * weights[index]!, 0) % 11;
}

/** The check digit: weights 1..9,1 modulo 11; a remainder of 10 retries with 3..9,1..3; 10 again gives 0. */
export function personalCodeCheckDigit(firstTen: string): number {
  const digits = [...firstTen].map(Number);
  const first = weightedRemainder(digits, FIRST_WEIGHTS);
  if (first < 10) return first;
  const second = weightedRemainder(digits, SECOND_WEIGHTS);
  return second < 10 ? second : 0;
}

/** 11 digits, a century/sex digit 1-6, a real date of birth and the right check digit. */
export function isValidPersonalCode(code: string): boolean {
  if (!/^[1-6]\d{10}$/.test(code)) return false;
  const centuryDigit = Number(code[0]);
  const year = 1800 + Math.floor((centuryDigit - 1) / 2) * 100 + Number(code.slice(1, 3));
  const month = Number(code.slice(3, 5));
  const day = Number(code.slice(5, 7));
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  return personalCodeCheckDigit(code.slice(0, 10)) === Number(code[10]);
}

export interface DemoPerson {
  personalCode: string;
  givenName: string;
  familyName: string;
}

/** Preset people offered on the approval page (valid codes of made-up people). */
export const DEMO_PEOPLE: readonly DemoPerson[] = [
  { personalCode: '38001085718', givenName: 'Mari', familyName: 'Maasikas' },
  { personalCode: '49005151237', givenName: 'Liis', familyName: 'Kask' },
  { personalCode: '37605030299', givenName: 'Jaan', familyName: 'Tamm' },
  { personalCode: '47101010033', givenName: 'Mari-Liis', familyName: 'Männik' },
];
