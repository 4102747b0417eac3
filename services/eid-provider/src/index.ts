export { type LocalEidProvider, type LocalEidProviderOptions, s256Challenge, startLocalEidProvider } from './provider';
export { DEMO_PEOPLE, type DemoPerson, isValidPersonalCode, personalCodeCheckDigit } from './personal-code';
