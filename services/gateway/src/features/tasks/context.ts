import type { EventStore } from '@eelarve/eventstore';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config';
import type { CommandRunner } from '../../infrastructure/command-runner';
import type { AppDatabase } from '../../infrastructure/database';

/**
 * What task code (copies today; imports and ERP sync later) needs of the process it runs in. A
 * gateway (`app`) has all of it, and the worker process builds its own (services/workers), so
 * the same code runs in either without a Fastify instance.
 */
export interface TaskContext {
  db: AppDatabase;
  store: EventStore;
  commands: CommandRunner;
  config: AppConfig;
  log: Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;
}
