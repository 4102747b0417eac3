export * from './occupation-decider';
export * from './role-decider';
