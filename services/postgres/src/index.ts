export * from './database';
export * from './embedded';
export * from './migrations';
