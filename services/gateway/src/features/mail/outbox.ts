import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { createTransport } from 'nodemailer';
import type { AppConfig } from '../../config';
import type { AppDatabase } from '../../infrastructure/database';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Hands one message to its destination: an SMTP server, or a .eml file. */
export type Deliver = (message: MailMessage) => Promise<void>;

const POLL_MS = 30_000;
const BATCH = 20;
const MAX_ATTEMPTS = 10;

/** Where messages go when no SMTP server is configured: one RFC 5322 file each. */
export function mailDirectory(config: Pick<AppConfig, 'dataDir'>): string {
  return path.join(config.dataDir, 'mail');
}

function fileDelivery(config: AppConfig): Deliver {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const directory = mailDirectory(config);
  return async (message) => {
    const info = await transport.sendMail({ from: config.mail.from, ...message });
    await mkdir(directory, { recursive: true });
    // Sortable names: the newest message to an address is the last one in name order.
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.hrtime.bigint()}-${randomBytes(3).toString('hex')}.eml`;
    await writeFile(path.join(directory, name), info.message as Buffer);
  };
}

function smtpDelivery(config: AppConfig, smtpUrl: string): Deliver {
  const transport = createTransport(smtpUrl);
  return async (message) => {
    await transport.sendMail({ from: config.mail.from, ...message });
  };
}

/**
 * The mail outbox: a message is first stored (so a request never waits for, or fails on, the
 * mail server), then delivered by a loop that any gateway replica may run; rows are claimed with
 * SKIP LOCKED so each message goes out once. Failures are retried with backoff.
 */
export class Outbox {
  private readonly deliver: Deliver;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly tasks = new Set<Promise<unknown>>();

  constructor(
    private readonly db: AppDatabase,
    config: AppConfig,
    private readonly log: FastifyBaseLogger,
    deliver?: Deliver,
  ) {
    this.deliver = deliver ?? (config.mail.smtpUrl ? smtpDelivery(config, config.mail.smtpUrl) : fileDelivery(config));
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  /** Stores a message for delivery and wakes the delivery loop; resolves once stored. */
  async enqueue(message: MailMessage): Promise<void> {
    await this.db
      .insertInto('operational.mail_outbox')
      .values({ recipient: message.to, subject: message.subject, text_body: message.text, html_body: message.html })
      .execute();
    this.kick();
  }

  /**
   * Runs work after the response has gone: answers that must not reveal anything (does this
   * address exist?) take the same time whatever the work finds.
   */
  background(name: string, work: () => Promise<void>): void {
    const task = Promise.resolve()
      .then(work)
      .catch((error: unknown) => this.log.error({ err: error, task: name }, 'background mail task failed'));
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }

  /** Resolves once background work and delivery of everything due have finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.tasks.size > 0) await Promise.all([...this.tasks]);
    this.kick();
    while (this.running) await this.running;
  }

  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.again && !this.closed) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async run(): Promise<void> {
    try {
      while (!this.closed && (await this.deliverBatch()) > 0) {
        // keep going while there is due mail
      }
    } catch (error) {
      this.log.error({ err: error }, 'mail delivery loop failed');
    }
  }

  /** Claims due rows, delivers them, deletes the delivered ones; returns how many it handled. */
  private async deliverBatch(): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      // The database's clock on both sides: a row stamped with now() on insert is due at once.
      const rows = await trx
        .selectFrom('operational.mail_outbox')
        .selectAll()
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .orderBy('id')
        .limit(BATCH)
        .forUpdate()
        .skipLocked()
        .execute();
      for (const row of rows) {
        try {
          await this.deliver({ to: row.recipient, subject: row.subject, text: row.text_body, html: row.html_body });
          await trx.deleteFrom('operational.mail_outbox').where('id', '=', row.id).execute();
        } catch (error) {
          const attempts = row.attempts + 1;
          this.log.warn({ err: error, mailId: row.id, attempts }, 'mail delivery failed');
          // Back off 1, 2, 4 ... minutes (at most an hour); after the last attempt the row stays for inspection.
          const delayMs = Math.min(2 ** row.attempts * 60_000, 3_600_000);
          await trx
            .updateTable('operational.mail_outbox')
            .set({
              attempts,
              last_error: String(error instanceof Error ? error.message : error).slice(0, 1000),
              next_attempt_at: attempts >= MAX_ATTEMPTS ? sql<Date>`'infinity'::timestamptz` : new Date(Date.now() + delayMs),
            })
            .where('id', '=', row.id)
            .execute();
        }
      }
      return rows.length;
    });
  }

  async close(): Promise<void> {
    while (this.tasks.size > 0) await Promise.all([...this.tasks]);
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    while (this.running) await this.running;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    mail: Outbox;
  }
}

/** Decorates the app with `mail`, the outbox; starts delivery once the app is ready. */
export const mailPlugin = fp(
  async (app: FastifyInstance) => {
    const outbox = new Outbox(app.db, app.config, app.log.child({ feature: 'mail' }));
    app.decorate('mail', outbox);
    app.addHook('onReady', async () => outbox.start());
    app.addHook('onClose', async () => outbox.close());
  },
  { name: 'mail' },
);
