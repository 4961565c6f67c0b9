import type pg from 'pg';
import type { Migration } from './migrations';

/** A message waiting in the outbox. */
export interface OutboxEntry {
  /** Its id (a bigint's decimal text): stable, so a dispatch can be made idempotent with it (a job id). */
  readonly id: string;
  readonly topic: string;
  readonly payload: Record<string, unknown>;
}

/** Options of {@link Outbox}. */
export interface OutboxOptions {
  /** Sends one entry on (adds its job). Must be idempotent: after a crash an entry may be sent again. */
  readonly dispatch: (entry: OutboxEntry) => Promise<void>;
  /** The table. Default `svc_outbox`. */
  readonly table?: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** The outbox table, as a migration of the service's own list (give it the next free version). */
export function outboxMigration(version: number, table = 'svc_outbox'): Migration {
  if (!IDENTIFIER.test(table)) throw new TypeError(`outbox table '${table}': a plain lower-case SQL name`);
  return {
    version,
    name: `outbox ${table}`,
    sql: `
      CREATE TABLE ${table} (
        id bigserial PRIMARY KEY,
        topic text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        dispatched_at timestamptz
      );
      CREATE INDEX ${table}_pending ON ${table} (id) WHERE dispatched_at IS NULL;
    `,
  };
}

/**
 * The transactional outbox (issue 27: "no entity without its job"): a change and the message announcing it
 * (a job to enqueue) are written in one transaction ({@link add}, on the caller's client inside its
 * `BEGIN`/`COMMIT`), and sent on afterwards ({@link dispatchPending}), each entry marked once sent. A crash
 * between the commit and the send leaves the entry pending, and the next {@link dispatchPending} (at
 * start, or after the next write) sends it: the job comes late, never not at all. Sending is at least
 * once (a crash after the send, before the mark, sends again), so `dispatch` must be idempotent: add the
 * job under a job id made from the entry's id.
 *
 * Several instances may dispatch at once: each entry is claimed with `FOR UPDATE SKIP LOCKED` and sent
 * by one of them while it holds the row.
 */
export class Outbox {
  readonly table: string;
  readonly #pool: pg.Pool;
  readonly #dispatch: (entry: OutboxEntry) => Promise<void>;
  /** The dispatch under way, so that calls made meanwhile run once more after it rather than beside it. */
  #running: Promise<number> | undefined;
  #again = false;

  constructor(pool: pg.Pool, options: OutboxOptions) {
    this.table = options.table ?? 'svc_outbox';
    if (!IDENTIFIER.test(this.table))
      throw new TypeError(`outbox table '${this.table}': a plain lower-case SQL name`);
    this.#pool = pool;
    this.#dispatch = options.dispatch;
  }

  /**
   * Adds an entry in the caller's transaction (call between its `BEGIN` and `COMMIT`); resolves with its
   * id. Nothing is sent before the transaction commits and {@link dispatchPending} runs.
   */
  async add(client: pg.ClientBase, topic: string, payload: Record<string, unknown>): Promise<string> {
    const r = await client.query<{ id: string }>(
      `INSERT INTO ${this.table} (topic, payload) VALUES ($1, $2::jsonb) RETURNING id::text AS id`,
      [topic, JSON.stringify(payload)],
    );
    return r.rows[0]!.id;
  }

  /**
   * Sends every pending entry, oldest first, marking each once sent; resolves with how many this call
   * sent. An entry whose dispatch fails stays pending (and stops this round: order is kept); the error is
   * thrown. Concurrent calls in one process are folded into one more round.
   */
  dispatchPending(): Promise<number> {
    if (this.#running !== undefined) {
      this.#again = true;
      return this.#running;
    }
    const run = async (): Promise<number> => {
      let sent = 0;
      do {
        this.#again = false;
        sent += await this.#round();
      } while (this.#again);
      return sent;
    };
    this.#running = run().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #round(): Promise<number> {
    let sent = 0;
    const client = await this.#pool.connect();
    let failed: Error | undefined;
    try {
      for (;;) {
        await client.query('BEGIN');
        try {
          const r = await client.query<{ id: string; topic: string; payload: Record<string, unknown> }>(
            `SELECT id::text AS id, topic, payload FROM ${this.table}
             WHERE dispatched_at IS NULL ORDER BY ${this.table}.id LIMIT 1 FOR UPDATE SKIP LOCKED`,
          );
          const entry = r.rows[0];
          if (entry === undefined) {
            await client.query('COMMIT');
            return sent;
          }
          await this.#dispatch(entry);
          await client.query(`UPDATE ${this.table} SET dispatched_at = now() WHERE id = $1`, [entry.id]);
          await client.query('COMMIT');
          sent++;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        }
      }
    } catch (err) {
      failed = err as Error;
      throw err;
    } finally {
      client.release(failed !== undefined && isConnectionError(failed) ? failed : undefined);
    }
  }

  /** Entries not sent yet. */
  async pending(): Promise<number> {
    const r = await this.#pool.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${this.table} WHERE dispatched_at IS NULL`,
    );
    return Number(r.rows[0]!.n);
  }
}

/** Errors of the connection itself (not of a statement or a dispatch): the client is not reused. */
function isConnectionError(err: Error): boolean {
  return /Connection terminated|ECONNRESET|EPIPE/.test(err.message);
}
