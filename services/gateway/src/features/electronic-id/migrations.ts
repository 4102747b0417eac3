import { type Generated, type Kysely, type Migration, sql } from 'kysely';

/**
 * Electronic-ID bindings (authentication type PASS): a user has at most one personal code and a
 * personal code belongs to at most one user. Only a keyed hash (HMAC-SHA-256) of the code is
 * stored. The keys (for that hash and for sealing the short-lived flow cookie) are generated once
 * per database, so every gateway process of the installation shares them.
 */
export const electronicIdMigrations: Record<string, Migration> = {
  '2026-11-21-eid-001-bindings-and-keys': {
    async up(db: Kysely<unknown>) {
      await sql`create schema if not exists operational`.execute(db);
      await sql`
        create table operational.electronic_ids (
          user_id uuid primary key,
          personal_code_hash bytea not null,
          bound_at timestamptz not null default now(),
          constraint electronic_ids_personal_code_hash_key unique (personal_code_hash)
        )`.execute(db);
      await sql`
        create table operational.electronic_id_keys (
          name text primary key,
          key bytea not null,
          created_at timestamptz not null default now()
        )`.execute(db);
    },
  },
};

export interface ElectronicIdTables {
  'operational.electronic_ids': { user_id: string; personal_code_hash: Buffer; bound_at: Generated<Date> };
  'operational.electronic_id_keys': { name: string; key: Buffer; created_at: Generated<Date> };
}
