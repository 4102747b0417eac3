/**
 * The process's stop sequence on SIGINT/SIGTERM: first `drain` (stop accepting, let in-flight
 * requests finish (tasks run in the worker process), stop projectors, close pools), bounded by `drainTimeoutMs`;
 * only then `stop` (the database). A second signal forces the exit at once; our exit hook still
 * asks the database for a fast shutdown.
 *
 * One Ctrl+C can arrive twice within milliseconds (the terminal signals the whole foreground
 * process group and npm/pnpm forward the signal to their child as well), so a signal within
 * `sameSignalMs` of the first counts as the same press.
 */
export interface ShutdownPlan {
  drain(): Promise<void>;
  stop(): Promise<void>;
  drainTimeoutMs: number;
  log: { info(object: object, message: string): void; warn(object: object, message: string): void; error(object: object, message: string): void };
  sameSignalMs?: number;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function installShutdown(plan: ShutdownPlan): void {
  let startedAt = 0;
  const sameSignalMs = plan.sameSignalMs ?? 1_000;
  const begin = (reason: object, exitCode: number) => {
    if (startedAt > 0) return;
    startedAt = Date.now();
    plan.log.info(reason, 'shutting down: draining requests, then stopping the database');
    void runShutdown(plan).then(
      () => process.exit(exitCode),
      (error) => {
        plan.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (startedAt === 0) return begin({ signal }, 0);
    if (Date.now() - startedAt < sameSignalMs) return;
    plan.log.warn({ signal }, 'second signal: exiting now');
    process.exit(1);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.on('uncaughtException', (error) => {
    plan.log.error({ err: error }, 'uncaught exception');
    begin({ reason: 'uncaught exception' }, 1);
  });
  process.on('unhandledRejection', (error) => {
    plan.log.error({ err: error }, 'unhandled rejection');
    begin({ reason: 'unhandled rejection' }, 1);
  });
}

async function runShutdown(plan: ShutdownPlan): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), plan.drainTimeoutMs);
  });
  const draining = plan.drain().then(
    () => 'drained' as const,
    (error) => {
      plan.log.error({ err: error }, 'drain failed; stopping the database anyway');
      return 'failed' as const;
    },
  );
  const drained = await Promise.race([draining, timedOut]);
  clearTimeout(timer);
  if (drained === 'timeout') plan.log.warn({ drainTimeoutMs: plan.drainTimeoutMs }, 'drain did not finish in time; stopping the database anyway');
  await plan.stop();
}
