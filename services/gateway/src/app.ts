import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { API_BUILD_TIME_HEADER, API_REVISION_HEADER, API_VERSION_HEADER } from '@eelarve/shared';
import { checkpointWaiter } from '@eelarve/projections/checkpoint-waiter';
import { requestRebuild } from '@eelarve/projections/checkpoints';
import { productProjectors } from '@eelarve/projections/registry';
import { projectionStatus } from '@eelarve/projections/status';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController, type LogLevel } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { bootstrapPlatform } from './bootstrap';
import { type BuildInfo, readBuildInfo } from './build-info';
import type { AppConfig } from './config';
import { authRoutes } from './features/auth/routes';
import { loadSecretKeys, setUpSecrets } from './features/auth/secrets-setup';
import { classifierRoutes } from './features/classifiers/routes';
import { documentRoutes } from './features/documents/routes';
import { electronicIdRoutes } from './features/electronic-id/routes';
import { healthRoutes } from './features/health/routes';
import { localeRoutes } from './features/locales/routes';
import { mailPlugin } from './features/mail/outbox';
import { recordImportRoutes } from './features/record-imports/routes';
import { registrationRoutes } from './features/registration/routes';
import { userSettingsRoutes } from './features/user-settings/routes';
import { storedSettingsRoutes } from './features/stored-settings/routes';
import { userActionLogRoutes } from './features/user-action-logs/routes';
import { organizationRoutes } from './features/organizations/routes';
import { projectionRoutes } from './features/projections/routes';
import { budgetRecordRoutes } from './features/records/routes';
import { reportRoutes } from './features/report/routes';
import { reportLiveRoutes } from './features/report-live/routes';
import { adminOccupationRoutes } from './features/admin-occupations/routes';
import { occupationRoutes } from './features/occupations/routes';
import { resourcePermissionRoutes } from './features/resource-permissions/routes';
import { resourceStatusRoutes } from './features/resource-statuses/routes';
import { roleRoutes } from './features/roles/routes';
import { approvalRouteRoutes } from './features/approval-route/routes';
import { budgetApprovalRoutes } from './features/budget-approval/routes';
import { budgetRoutes } from './features/budgets/routes';
import { schemeRoutes } from './features/schemes/routes';
import { subBudgetRoutes } from './features/sub-budgets/routes';
import { taskQueuePlugin } from './features/tasks/plugin';
import { taskRoutes } from './features/tasks/routes';
import { userRoutes } from './features/users/routes';
import { recordRoutes } from './infrastructure/route-list';
import { type Runtime, startRuntime } from './infrastructure/runtime';
import { MULTIPART_LIMITS } from './infrastructure/upload-limits';
import { authPlugin } from './plugins/auth';
import { commandsPlugin } from './plugins/commands';
import { errorsPlugin } from './plugins/errors';
import { runOneOffMigrations } from './one-off-migrations/runner';
import { openApiPlugin } from './plugins/openapi';
import { securityHeadersPlugin } from './plugins/security-headers';
import { textGuardPlugin } from './plugins/text-guard';
import { webPlugin } from './plugins/web';
import type { ProjectionsHandle } from './types';
import './types';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The engine's surface the routes use. A gateway that runs no projectors itself (an API-only
 * replica) still answers read-your-writes by watching the checkpoints.
 */
function projectionsHandle(runtime: Runtime): ProjectionsHandle {
  const names = productProjectors.map((projector) => projector.name);
  const status = () => projectionStatus(runtime.db as never, runtime.store);
  const engine = runtime.engine;
  if (engine) {
    return {
      waitForPosition: (projectors, position, timeoutMs) => engine.waitForPosition(projectors, position, timeoutMs),
      isLive: async () => (await engine.status()).every((row) => row.state !== 'catching-up'),
      status: () => engine.status(),
      projectorNames: () => names,
      rebuild: async (name) => {
        await engine.rebuildProjector(name);
      },
      stop: () => engine.stop(),
    };
  }
  const waiter = checkpointWaiter(runtime.db as never);
  return {
    waitForPosition: (projectors, position, timeoutMs) => waiter.waitForPosition(projectors, position, timeoutMs),
    isLive: async () => true,
    status,
    projectorNames: () => names,
    rebuild: async (name) => {
      await requestRebuild(runtime.db as never, name);
    },
    stop: async () => {},
  };
}

/**
 * Request lines are wanted in production's logs, but at a console during development they bury
 * the start banner: there requests log at debug (LOG_LEVEL=debug shows them again).
 */
export function requestLogLevel(environment: AppConfig['environment']): LogLevel {
  return environment === 'production' ? 'info' : 'debug';
}

/** Fastify's request lines at the given level; errors and the rest keep Fastify's own levels. */
class LeveledRequestLog extends LogController {
  constructor(private readonly level: LogLevel) {
    super();
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log[this.level]({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    reply.log[this.level]({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

function buildHeaders(app: FastifyInstance, info: BuildInfo): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header(API_VERSION_HEADER, info.version);
    reply.header(API_REVISION_HEADER, info.revision);
    reply.header(API_BUILD_TIME_HEADER, info.buildTime);
  });
}

async function registerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(mailPlugin);
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(electronicIdRoutes);
  await app.register(registrationRoutes);
  await app.register(userSettingsRoutes);
  await app.register(storedSettingsRoutes);
  await app.register(userActionLogRoutes);
  await app.register(localeRoutes);
  await app.register(organizationRoutes);
  await app.register(projectionRoutes);
  await app.register(userRoutes);
  await app.register(roleRoutes);
  await app.register(resourceStatusRoutes);
  await app.register(budgetRoutes);
  await app.register(budgetApprovalRoutes);
  await app.register(approvalRouteRoutes);
  await app.register(schemeRoutes);
  await app.register(subBudgetRoutes);
  await app.register(budgetRecordRoutes);
  await app.register(occupationRoutes);
  await app.register(resourcePermissionRoutes);
  await app.register(adminOccupationRoutes);
  await app.register(classifierRoutes);
  await app.register(documentRoutes);
  await app.register(taskRoutes);
  await app.register(recordImportRoutes);
  await app.register(reportRoutes);
  await app.register(reportLiveRoutes);
}

/**
 * The app factory (DESIGN.md section 4): everything but listening, so tests drive it with
 * `inject()` against a real database and the process entry adds only the port and signals.
 */
export async function buildApp(config: AppConfig): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    logController: new LeveledRequestLog(requestLogLevel(config.environment)),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 10 * 1024 * 1024,
    trustProxy: config.trustProxy ?? false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const secretKeys = await loadSecretKeys(config);
  const runtime = await startRuntime(config, (error, context) => app.log.error({ err: error, context }, 'projection error'));
  app.addHook('onClose', async () => runtime.close());
  const buildInfo = readBuildInfo();
  app.decorate('config', config);
  app.decorate('db', runtime.db);
  app.decorate('listsDb', runtime.listsDb);
  await setUpSecrets(secretKeys, runtime.db, app.log);
  app.decorate('store', runtime.store);
  app.decorate('projections', projectionsHandle(runtime));
  app.decorate('buildInfo', buildInfo);

  // Before any route: the route-wide tests enumerate them (infrastructure/route-list.ts).
  recordRoutes(app);
  buildHeaders(app, buildInfo);
  // Before any route (it hooks onRoute): gzip/brotli for API JSON and web files above 1 KB.
  // Request bodies are not decompressed: the upload caps count what arrives.
  await app.register(compress, { globalDecompression: false });
  // CSP, frame, HSTS and no-store headers (plugins/security-headers.ts).
  await app.register(securityHeadersPlugin);
  await app.register(cookie);
  // One file of at most 10 MB and a few parts per request; routes lower the cap (infrastructure/upload-limits.ts).
  await app.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });
  await app.register(errorsPlugin);
  // NUL bytes and lone surrogates anywhere in a request answer 400 (plugins/text-guard.ts).
  await app.register(textGuardPlugin);
  await app.register(openApiPlugin);
  await app.register(authPlugin);
  // app.commands and request.actor: the one way routes run commands (infrastructure/command-runner.ts).
  await app.register(commandsPlugin);
  // app.tasks: records background tasks and enqueues their jobs for the worker process (features/tasks/queue.ts).
  await app.register(taskQueuePlugin);
  await registerRoutes(app);
  await app.register(webPlugin, { webDist: config.webDist });

  const plan = await bootstrapPlatform(runtime.store, runtime.db, config.bootstrapAdmin, { warn: (message) => app.log.warn(message) });
  // The first screen after start (login) reads the accounts read models.
  const [last] = await runtime.store.readStream(`occupation-${plan.occupationId}`);
  if (last) await app.commands.awaitReadModels(['organizations', 'accounts'], last.position, 30_000);
  // Data repairs that run once per database (one-off-migrations/runner.ts).
  await runOneOffMigrations(app);
  return app;
}
