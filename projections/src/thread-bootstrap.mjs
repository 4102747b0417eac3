// The projections thread's first module (thread.ts starts it). A loader the parent process was
// started with (`node --import tsx`) does not reach a worker thread's modules in Node 20, so the
// thread registers tsx itself before it imports its TypeScript entry.
import { register } from 'tsx/esm/api';

register();
await import('./thread-entry.ts');
