import type pg from 'pg';
import { CONTROL_CHANNEL, LOCK_PREFIX } from './schema';

const KEY = `hashtextextended('${LOCK_PREFIX}' || $1, 0)`;

/**
 * One dedicated connection that holds this process's session-level advisory locks (one per
 * projector it runs) and listens for control notifications. The locks live exactly as long as the
 * connection: when it breaks, `onLost` fires and the process must stop running those projectors,
 * because another process may take them over.
 */
export class LockSession {
  private lost = false;
  private readonly held = new Set<string>();
  /** The tail of this connection's queries: pg allows one query at a time per client. */
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly client: pg.PoolClient,
    private readonly onLost: (error: unknown) => void,
  ) {}

  static async open(pool: pg.Pool, onLost: (error: unknown) => void, onNotification: (payload: string) => void): Promise<LockSession> {
    const client = await pool.connect();
    const session = new LockSession(client, onLost);
    client.on('error', (error) => session.fail(error));
    client.on('end', () => session.fail(new Error('lock connection ended')));
    client.on('notification', (message) => {
      if (message.channel === CONTROL_CHANNEL) onNotification(message.payload ?? '');
    });
    try {
      await session.query(`listen ${CONTROL_CHANNEL}`);
    } catch (error) {
      session.fail(error);
      throw error;
    }
    return session;
  }

  get isLost(): boolean {
    return this.lost;
  }

  holds(projector: string): boolean {
    return this.held.has(projector);
  }

  async tryLock(projector: string): Promise<boolean> {
    const { rows } = await this.query<{ locked: boolean }>(`select pg_try_advisory_lock(${KEY}) as locked`, [projector]);
    if (rows[0]?.locked) this.held.add(projector);
    return this.held.has(projector);
  }

  async unlock(projector: string): Promise<void> {
    if (!this.held.delete(projector)) return;
    await this.query(`select pg_advisory_unlock(${KEY})`, [projector]);
  }

  /** A round trip, so a silently dead connection is noticed. */
  async ping(): Promise<void> {
    await this.query('select 1');
  }

  /** Releases every lock by giving the connection back closed. */
  close(): void {
    if (this.lost) return;
    this.lost = true;
    this.held.clear();
    this.client.release(true);
  }

  /**
   * Queries run one after another: callers (upkeep, releases run in parallel) may overlap, and
   * node-postgres deprecates queueing a query while the client is busy (an error in pg 9).
   */
  private query<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<Row>> {
    const result = this.tail.then(() => this.run<Row>(text, values));
    this.tail = result.catch(() => {});
    return result;
  }

  private async run<Row extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<Row>> {
    if (this.lost) throw new Error('lock connection lost');
    try {
      return await this.client.query<Row>(text, values);
    } catch (error) {
      // Any failure on this connection may mean the locks are gone; treat it as lost.
      this.fail(error);
      throw error;
    }
  }

  private fail(error: unknown): void {
    if (this.lost) return;
    this.close();
    this.onLost(error);
  }
}
