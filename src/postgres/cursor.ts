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
  /**
   * Fetch the next batch (`batchSize` rows) as soon as one arrives, before its rows are mapped and handed
   * on, so that the database produces rows while the consumer takes the previous ones: at most one batch is
   * read beyond what was asked for (held unmapped). Default false: rows are fetched only as asked for.
   * Without it, the database sat idle while a streamed answer mapped and wrote each batch.
   */
  readonly readAhead?: boolean;
}

/** What the driver has and its typings leave out: the protocol-level cancel request (`client.cancel`). */
interface Cancellable {
  cancel(client: pg.PoolClient, query: unknown): void;
  readonly connection?: {
    on(event: 'error', listener: () => void): unknown;
    once(event: 'end', listener: () => void): unknown;
  };
}

/** A client's running query as pg answers it: `_getActiveQuery()` where it has it, else the deprecated getter. */
interface ActiveQueryHolder {
  _getActiveQuery?(): unknown;
  readonly activeQuery?: unknown;
}

/** How long {@link cancelQuery} waits for the server to take a cancel request (ms). */
const CANCEL_TAKEN_MS = 5000;

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
  const readAhead = options.readAhead ?? false;
  return withDemand<T>(
    (demand$) =>
      new Observable<T>((subscriber) => {
        let client: pg.PoolClient | undefined;
        let cursor: Cursor<R> | undefined;
        let outstanding = 0;
        /** The cursor's read in flight, if any: an unsubscribe then cancels the query on the server. */
        let reading: Promise<unknown> | undefined;
        let finished = false;
        let released = false;
        const release = (err?: Error): void => {
          if (released || client === undefined) return;
          released = true;
          client.release(err);
        };
        /** Rows read and not handed on yet (`held[heldAt...]`). */
        let held: R[] = [];
        let heldAt = 0;
        /** A read came back short: there are no rows after `held`. */
        let exhausted = false;
        /** The read in flight, and how many rows it asked for (one at a time: a cursor reads in turn). */
        let next: { readonly rows: Promise<R[]>; readonly n: number } | undefined;
        let looping = false;
        const fetch = (n: number): void => {
          const read = cursor!.read(n);
          reading = read;
          const settle = (): void => {
            if (reading === read) reading = undefined;
          };
          // settled here, awaited in the loop (maybe later): a failure is never an unhandled rejection
          read.then(settle, settle);
          next = { rows: read, n };
        };
        const fail = (err: unknown, usable: boolean): void => {
          finished = true;
          // a read's error sent a Sync already: the connection is usable again (else it is destroyed)
          if (usable) release();
          else void closeThenRelease();
          subscriber.error(err);
        };
        const pump = async (): Promise<void> => {
          if (looping || cursor === undefined || finished) return;
          looping = true;
          try {
            for (;;) {
              if (heldAt === held.length) {
                if (exhausted) {
                  finished = true;
                  void closeThenRelease();
                  subscriber.complete();
                  return;
                }
                if (next === undefined) {
                  if (outstanding === 0) return; // nothing asked for: wait
                  fetch(Math.min(batchSize, outstanding));
                }
                const { rows: read, n } = next!;
                let rows: R[];
                try {
                  rows = await read;
                } catch (err) {
                  next = undefined;
                  if (!finished) fail(err, true);
                  return;
                }
                next = undefined;
                if (finished) return;
                if (rows.length < n) exhausted = true;
                held = rows;
                heldAt = 0;
              }
              // rows are about to be handed on: the next batch is read meanwhile (one ahead, never two)
              if (readAhead && !exhausted && next === undefined && outstanding > 0) fetch(batchSize);
              while (outstanding > 0 && heldAt < held.length) {
                const row = held[heldAt++]!;
                outstanding--;
                let value: T;
                try {
                  value = map(row);
                } catch (err) {
                  fail(err, false);
                  return;
                }
                subscriber.next(value);
                if (finished) return;
              }
              if (heldAt < held.length) return; // more held than asked for: wait for demand
            }
          } finally {
            looping = false;
          }
        };
        const closeThenRelease = async (): Promise<void> => {
          try {
            // a read ahead may be on its way: the cursor closes once it is in
            await reading?.catch(() => undefined);
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
          // again (a query behind the cursor's answers only once it is) before it goes back to the pool.
          // Nothing else runs on it before the server has taken the cancel request: a cancel that lands
          // late cancels whatever runs then (the cursor's close, or, once the connection is back in the
          // pool, another request's query); a close cancelled that way destroyed the connection (by
          // all signs what left the pool empty in one CI run: the fetch ended just before the cancel came)
          const taken = cancelQuery(pool, client, cursor);
          const c = client;
          const fetched = inFlight.then(
            () => true,
            () => false,
          );
          void Promise.all([fetched, taken]).then(([done, ok]) => {
            if (!ok) release(CANCEL_IN_DOUBT);
            // the fetch was done before the cancel came (a short read, or a read ahead): the portal is
            // open and no Sync was sent, so a query behind it would wait forever; close the cursor instead
            else if (done) void closeThenRelease();
            // cancelled: the cursor's error sent a Sync; the query behind it answers once it is idle
            else
              void c.query('SELECT 1').then(
                () => release(),
                (err: unknown) => release(err instanceof Error ? err : new Error(String(err))),
              );
          });
        };
      }),
  );
}

/** Why {@link cursorRows} destroys a connection whose cancel request the server did not take in time. */
const CANCEL_IN_DOUBT = new Error('The server did not take the cancel request: the connection is in doubt');

/**
 * Sends the protocol's cancel request for `query` when it is `client`'s running query, on a connection of
 * its own. Resolves true once the server has taken the request (it closes that connection after signalling
 * the backend) or at once when there was nothing to cancel; false when the server did not close it within
 * 5 s (the connection is then in doubt: destroy it rather than reuse it). Never rejects.
 *
 * Run nothing else on `client` before it resolves: the server applies a cancel to whatever the connection
 * runs when the request lands, so a request still on its way cancels the next statement, which may be
 * another request's once the connection is back in the pool.
 */
export function cancelQuery(pool: pg.Pool, client: pg.PoolClient, query: unknown): Promise<boolean> {
  const holder = client as unknown as ActiveQueryHolder;
  const active = holder._getActiveQuery !== undefined ? holder._getActiveQuery() : holder.activeQuery;
  // not running (done, or still queued: pg takes a queued one off its queue): no request goes out. A pg
  // without the connection object this watches sends the request unobserved: nothing to wait on
  const canceller = new pg.Client(pool.options) as unknown as Cancellable;
  const connection = canceller.connection;
  if (active !== query || connection === undefined) {
    canceller.cancel(client, query);
    return Promise.resolve(true);
  }
  return new Promise<boolean>((resolve) => {
    // (a process shutting down does not wait for it)
    const timer = setTimeout(() => resolve(false), CANCEL_TAKEN_MS).unref();
    // the server closes the cancel connection once it has signalled the backend; errors on the way
    // (a reset as it closes) end in the same close
    connection.on('error', () => undefined);
    connection.once('end', () => {
      clearTimeout(timer);
      resolve(true);
    });
    canceller.cancel(client, query);
  });
}
