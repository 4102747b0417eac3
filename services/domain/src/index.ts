export * from './decider';
export * from './organizations/events';
export * from './organizations/decider';
export * from './accounts/events';
export * from './accounts/decider';
export * from './occupations-and-roles/events';
export * from './occupations-and-roles/decider';
