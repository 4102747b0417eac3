import type { EventStore, GlobalPosition } from '@eelarve/eventstore';
import type { ProjectorStatus } from '@eelarve/projections/status';
import type { Privilege } from '@eelarve/shared';
import type { BuildInfo } from './build-info';
import type { AppConfig } from './config';
import type { CommandActor } from './infrastructure/commands';
import type { AppDatabase } from './infrastructure/database';
import type { SessionRecord } from './features/auth/sessions';

/**
 * Who may call a route. `public`: anyone; `user`: a signed-in user, occupation not needed yet;
 * otherwise a signed-in user acting under an occupation that holds one of `privileges` (if any).
 */
export type RouteAccess = 'public' | 'user' | { privileges: Privilege[] } | 'occupation';

export interface AuthContext {
  session: SessionRecord;
  userId: string;
  occupationId: string | null;
  organizationId: string | null;
  privileges: string[];
}

/**
 * What every feature service takes first (immich's `auth` first): who calls, and the actor their
 * commands record. Routes pass `request.caller`; tasks and the worker build their own.
 */
export interface Caller {
  auth: AuthContext;
  actor: CommandActor;
}

/** What the gateway needs of the projection engine. */
export interface ProjectionsHandle {
  /** Resolves true once each named projector has applied everything up to `position`. */
  waitForPosition(projectors: readonly string[], position: GlobalPosition, timeoutMs: number): Promise<boolean>;
  isLive(): Promise<boolean>;
  status(): Promise<ProjectorStatus[]>;
  projectorNames(): string[];
  /** Builds a new generation from zero while the old one serves; resolves once switched over. */
  rebuild(name: string): Promise<void>;
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /**
     * The caller, on every route whose access is not `public` (the auth plugin refused the
     * request otherwise). Reading it on a public route without a session throws UNAUTHORIZED.
     */
    readonly auth: AuthContext;
    /** The caller if signed in, else null: for public routes that serve both. */
    optionalAuth: AuthContext | null;
  }
  interface FastifyInstance {
    config: AppConfig;
    db: AppDatabase;
    /** The records lists' own pool (infrastructure/runtime.ts). */
    listsDb: AppDatabase;
    store: EventStore;
    projections: ProjectionsHandle;
    buildInfo: BuildInfo;
  }
}
