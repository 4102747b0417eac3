import { type Generated, type Kysely, type Migration, sql } from 'kysely';

/**
 * TOTP secrets. `secret` is the confirmed (active) one, `pending_secret` one being set up;
 * `last_step` is the time step of the last accepted code, so a code is never accepted twice.
 */
export const authMigrations: Record<string, Migration> = {
  '2026-11-21-auth-001-mfa-secrets': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.mfa_secrets (
          user_id uuid primary key,
          secret text,
          pending_secret text,
          confirmed_at timestamptz,
          last_step bigint,
          updated_at timestamptz not null default now()
        )`.execute(db);
    },
  },
};

export interface AuthTables {
  'operational.mfa_secrets': {
    user_id: string;
    secret: string | null;
    pending_secret: string | null;
    confirmed_at: Date | null;
    last_step: string | number | null;
    updated_at: Generated<Date>;
  };
}
