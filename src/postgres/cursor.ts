import { Observable } from 'rxjs';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { withDemand } from '../streams';

/** Options of {@link cursorRows}. */
export interface CursorRowsOptions<R, T> {
  /**
   * Rows fetched per round trip, at most (never more than asked for). Default 1024: a streamed answer asks
   * for up to 1,024 rows at a time (src/server/streamed-collection.ts), each ask one round trip.
   */
  readonly batchSize?: number;
  /** Each row (an object by column name) to the value emitted. Default: the row itself. */
  readonly map?: (row: R) => T;
}

/** What the driver has and its typings leave out: the protocol-level cancel request (`client.cancel`). */
interface Cancellable {
  cancel(client: pg.PoolClient, query: unknown): void;
  readonly connection?: { on(event: 'error', listener: () => void): unknown };
}

/**
 * The rows of a query as an Observable with demand (src/streams `withDemand`), read through a server-side
 * cursor (`pg-cursor`) on a connection of `pool`: a connection is taken on subscribe, and rows are fetched
 * only as the consumer asks for them (`batchSize` at a time, never more than it asked for), so a finder
 * returning this streams a result of any length with flat memory, and a slow client slows the cursor.
 *
 * Unsubscribing cancels: between fetches the cursor is closed; during one, the query is cancelled on the
 * server (the driver's cancel request, what `pg_cancel_backend` does, on a connection of its own, so it
 * works when the pool is exhausted); then the connection goes back to the pool (destroyed instead if it
 * is in doubt). Subscribed without demand (a plain `subscribe`), it fetches batch after batch.
 *
 * @example
 * ```ts
 * getAll: (_params, ctx) =>
 *   cursorRows(pool, { text: 'SELECT * FROM photos ORDER BY id LIMIT $1 OFFSET $2',
 *                      values: [ctx.paging.count, ctx.paging.start] }, { map: toPhoto })
 * ```
 */
export function cursorRows<R extends object = Record<string, unknown>, T = R>(
  pool: pg.Pool,
  query: { readonly text: string; readonly values?: readonly unknown[] },
  options: CursorRowsOptions<R, T> = {},
): Observable<T> {
  const batchSize = options.batchSize ?? 1024;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new RangeError('batchSize must be a positive integer');
  const map = options.map ?? ((row: R) => row as unknown as T);
  return withDemand<T>(
    (demand$) =>
      new Observable<T>((subscriber) => {
        let client: pg.PoolClient | undefined;
        let cursor: Cursor<R> | undefined;
        let outstanding = 0;
        let reading: Promise<unknown> | undefined;
        let finished = false;
        let released = false;
        const release = (err?: Error): void => {
          if (released || client === undefined) return;
          released = true;
          client.release(err);
        };
        const pump = async (): Promise<void> => {
          if (reading !== undefined || cursor === undefined || finished) return;
          while (outstanding > 0 && !finished) {
            const n = Math.min(batchSize, outstanding);
            const read = cursor.read(n);
            reading = read;
            let rows: R[];
            try {
              rows = await read;
            } catch (err) {
              reading = undefined;
              if (finished) return;
              finished = true;
              // the cursor's error sent a Sync already: the connection is usable again (else it is destroyed)
              release();
              subscriber.error(err);
              return;
            }
            reading = undefined;
            if (finished) return;
            outstanding -= rows.length;
            for (const row of rows) {
              let value: T;
              try {
                value = map(row);
              } catch (err) {
                finished = true;
                void closeThenRelease();
                subscriber.error(err);
                return;
              }
              subscriber.next(value);
              if (finished) return;
            }
            if (rows.length < n) {
              finished = true;
              void closeThenRelease();
              subscriber.complete();
              return;
            }
          }
        };
        const closeThenRelease = async (): Promise<void> => {
          try {
            await cursor?.close();
            release();
          } catch (err) {
            release(err as Error);
          }
        };
        const demand = demand$.subscribe((n) => {
          outstanding += n;
          void pump();
        });
        pool.connect().then(
          (c) => {
            client = c;
            if (finished) {
              release();
              return;
            }
            cursor = c.query(new Cursor<R>(query.text, query.values as unknown[] | undefined));
            void pump();
          },
          (err: unknown) => {
            if (!finished) {
              finished = true;
              subscriber.error(err);
            }
          },
        );
        return () => {
          demand.unsubscribe();
          if (finished) return;
          finished = true;
          if (client === undefined) return; // connect() resolves later and releases
          const inFlight = reading;
          if (inFlight === undefined) {
            void closeThenRelease();
            return;
          }
          // a fetch is running on the server: cancel it there, then make sure the connection is idle
          // again (a query behind the cursor's answers only once it is) before it goes back to the pool
          cancelQuery(pool, client, cursor);
          const c = client;
          void inFlight
            .catch(() => undefined)
            .then(() => c.query('SELECT 1'))
            .then(
              () => release(),
              (err: unknown) => release(err instanceof Error ? err : new Error(String(err))),
            );
        };
      }),
  );
}

/** Sends the protocol's cancel request for `client`'s running query, on a connection of its own. */
export function cancelQuery(pool: pg.Pool, client: pg.PoolClient, query: unknown): void {
  const canceller = new pg.Client(pool.options) as unknown as Cancellable;
  // the server closes the cancel connection at once; nothing it reports there matters
  canceller.connection?.on('error', () => undefined);
  canceller.cancel(client, query);
}
