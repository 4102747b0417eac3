import { type Generated, type Kysely, type Migration, sql } from 'kysely';

/**
 * Mail waiting to be delivered. A row lives only until its message is handed to SMTP (or written
 * as a file): the bodies carry single-use links, so nothing is kept once delivered.
 */
export const mailMigrations: Record<string, Migration> = {
  '2026-11-21-mail-001-outbox': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.mail_outbox (
          id bigserial primary key,
          recipient text not null,
          subject text not null,
          text_body text not null,
          html_body text not null,
          created_at timestamptz not null default now(),
          attempts integer not null default 0,
          next_attempt_at timestamptz not null default now(),
          last_error text
        )`.execute(db);
      await sql`create index mail_outbox_due on operational.mail_outbox (next_attempt_at)`.execute(db);
    },
  },
};

export interface MailTables {
  'operational.mail_outbox': {
    id: Generated<string>;
    recipient: string;
    subject: string;
    text_body: string;
    html_body: string;
    created_at: Generated<Date>;
    attempts: Generated<number>;
    next_attempt_at: Generated<Date>;
    last_error: string | null;
  };
}
