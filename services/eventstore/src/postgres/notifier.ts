import pg from 'pg';
import { backoffDelay } from '../internal/wakeup';
import { NOTIFY_CHANNEL } from './sql';

/**
 * Wakes subscriptions of this process when events are appended: by this process at once, by
 * any process through a dedicated LISTEN connection (append_events notifies), which reconnects
 * by itself. Subscriptions also poll, so a notification lost while reconnecting costs latency only.
 */
export class AppendNotifier {
  readonly #pool: pg.Pool;
  readonly #callbacks = new Set<() => void>();
  #client: pg.Client | null = null;
  #reconnectTimer: NodeJS.Timeout | null = null;
  #reconnectAttempt = 0;
  #closed = false;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Calls `callback` after appends; returns the function that stops that. */
  listen(callback: () => void): () => void {
    this.#callbacks.add(callback);
    if (!this.#client && !this.#reconnectTimer && !this.#closed) this.#connect();
    return () => this.#callbacks.delete(callback);
  }

  /** This process appended: no need to wait for the notification's round trip. */
  appended(): void {
    for (const callback of this.#callbacks) callback();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }

  #connect(): void {
    const client = new pg.Client({ ...this.#pool.options, keepAlive: true });
    this.#client = client;
    client.on('notification', () => this.appended());
    client.on('error', () => this.#reconnect(client));
    client.on('end', () => this.#reconnect(client));
    client
      .connect()
      .then(() => client.query(`listen ${NOTIFY_CHANNEL}`))
      .then(() => {
        this.#reconnectAttempt = 0;
        // Appends made while no connection listened went unheard.
        this.appended();
      })
      .catch(() => this.#reconnect(client));
  }

  #reconnect(client: pg.Client): void {
    if (client !== this.#client) return;
    this.#client = null;
    client.end().catch(() => {});
    if (this.#closed) return;
    this.#reconnectAttempt += 1;
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = null;
      this.#connect();
    }, backoffDelay(this.#reconnectAttempt));
  }
}
