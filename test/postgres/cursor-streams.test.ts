/**
 * Rows of a server-side cursor as an Observable with demand (src/postgres/cursor.ts), on a real PostgreSQL
 * (test/support/postgres-server.ts): fetched only as asked for, cancelled on the server when unsubscribed
 * (watched in pg_stat_activity), and served by a finder as the response is written (a slow client slows
 * the cursor; a client hanging up cancels the query and the connection goes back to the pool).
 */
import http from 'node:http';
import net from 'node:net';
import pg from 'pg';
import { LONG_KEY, DemandPuller, collection, demandSourceOf, finder } from '../../src';
import { cancelQuery, cursorRows } from '../../src/postgres';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';
import { postgresForTests } from '../support/postgres-server';
import { type TestServer, startServer } from '../resources/support/http';

const postgres = postgresForTests();
let pool: pg.Pool;
let watcher: pg.Client;
let server: TestServer;
/** Rows the finders' cursors handed over (mapped), over all requests. */
let fetched = 0;

interface NumberRow {
  g: number;
  pad: string;
}

const toPhoto = (row: NumberRow): Photo => {
  fetched++;
  return new Photo().setId(row.g).setTitle(row.pad).setFormat(PhotoFormat.JPEG);
};

/**
 * A query of `count` numbers from `start + 1`, with a title of `pad` characters; `slowAfter`: rows beyond
 * it sleep a minute each.
 */
function numbers(start: number, count: number, slowAfter?: number, pad = 100) {
  return {
    text: (
      "SELECT g, lpad(g::text, $PAD, '.') AS pad FROM generate_series($1::int + 1, $1::int + $2::int) g" +
      (slowAfter === undefined ? '' : ' WHERE g <= $3 OR pg_sleep(60) IS NOT NULL')
    ).replace('$PAD', String(pad)),
    values: slowAfter === undefined ? [start, count] : [start, count, slowAfter],
  };
}

const resource = () =>
  collection({
    name: 'numbers',
    key: LONG_KEY,
    value: Photo,
    methods: {
      finders: {
        // paging: true: the query pages, so the server can stream the page as it is read
        all: finder({ params: {}, paging: true }, (_p, ctx) =>
          cursorRows(pool, numbers(ctx.paging.start, ctx.paging.count), { map: toPhoto }),
        ),
        // 1000-character titles: socket buffers fill after a few thousand rows
        wide: finder({ params: {}, paging: true }, (_p, ctx) =>
          cursorRows(pool, numbers(0, ctx.paging.count, undefined, 1000), { map: toPhoto }),
        ),
        slow: finder({ params: {}, paging: true }, (_p, ctx) =>
          cursorRows(pool, numbers(0, ctx.paging.count, 300), { map: toPhoto }),
        ),
        broken: finder({ params: {}, paging: true }, () =>
          cursorRows(pool, { text: 'SELECT 1 / 0 AS g' }, { map: toPhoto }),
        ),
      },
    },
  });

beforeAll(async () => {
  const url = await postgres().createDatabase('cursor_streams');
  pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => undefined);
  watcher = new pg.Client({ connectionString: url });
  watcher.on('error', () => undefined);
  await watcher.connect();
  server = await startServer({ resources: [resource()] });
});

afterAll(async () => {
  await server?.close();
  await watcher?.end();
  await pool?.end();
});

/** Backends running a statement that contains `text` in `database` (default: the pool's), and their state. */
async function activity(text: string, database?: string): Promise<Array<{ pid: number; state: string }>> {
  const r = await watcher.query<{ pid: number; state: string }>(
    "SELECT pid, state FROM pg_stat_activity WHERE datname = coalesce($2, current_database()) AND pid <> pg_backend_pid() AND query LIKE '%' || $1 || '%'",
    [text, database ?? null],
  );
  return r.rows;
}

/** Polls `probe` until it is true (the test's timeout bounds the wait). */
async function until(probe: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await probe())) await new Promise((r) => setTimeout(r, 20));
}

/** The pool has every connection it made back, idle. */
const poolIdle = (): boolean => pool.waitingCount === 0 && pool.idleCount === pool.totalCount;

describe('cancelQuery', () => {
  it('answers once the server has taken the request: the running statement fails, the next one runs', async () => {
    const client = await pool.connect();
    try {
      const sleeping = new pg.Query('SELECT pg_sleep(60) AS slept_in_cancel_test');
      const failed = new Promise<unknown>((resolve) => {
        sleeping.on('error', resolve);
        sleeping.on('end', () => resolve(undefined));
      });
      client.query(sleeping);
      await until(async () => (await activity('slept_in_cancel_test')).some((a) => a.state === 'active'));
      expect(await cancelQuery(pool, client, sleeping)).toBe(true);
      expect(await failed).toMatchObject({ code: '57014' });
      // nothing of the cancel is left to land on the statement after it
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      client.release();
    }
  });

  it('sends nothing for a statement that is no longer running, and the next one runs', async () => {
    const client = await pool.connect();
    try {
      const done = new pg.Query('SELECT 2 AS two');
      await new Promise((resolve, reject) => {
        done.on('end', resolve);
        done.on('error', reject);
        client.query(done);
      });
      expect(await cancelQuery(pool, client, done)).toBe(true);
      expect((await client.query('SELECT pg_sleep(0.2), 1 AS one')).rows).toEqual([{ pg_sleep: '', one: 1 }]);
    } finally {
      client.release();
    }
  });
});

/**
 * A TCP proxy on loopback in front of `target` that holds each new connection `delayMs` before it connects
 * upstream: a cancel request (a connection of its own) then lands that much later, a fault no timing on an
 * idle machine gives reliably.
 */
async function slowConnectProxy(
  target: URL,
  delayMs: number,
): Promise<{ readonly port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    sockets.add(client);
    client.pause();
    const timer = setTimeout(() => {
      const upstream = net.connect(Number(target.port), target.hostname, () => {
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.end();
      });
    }, delayMs);
    client.on('error', () => undefined);
    client.on('close', () => {
      clearTimeout(timer);
      sockets.delete(client);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as net.AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

describe('a cancel request that lands late', () => {
  it('is taken before the connection runs anything else: the next query on it is not cancelled', async () => {
    const direct = new URL(await postgres().createDatabase('cursor_streams_late_cancel'));
    // every new connection waits 400 ms: the pool's one (once, at the start) and the cancel request's
    const proxy = await slowConnectProxy(direct, 400);
    const via = new URL(direct);
    via.hostname = '127.0.0.1';
    via.port = String(proxy.port);
    const single = new pg.Pool({ connectionString: via.toString(), max: 1 });
    single.on('error', () => undefined);
    try {
      await single.query('SELECT 1');
      // a fetch of 150 ms, unsubscribed once it runs: it ends long before the cancel request arrives
      const subscription = cursorRows(single, {
        text: 'SELECT pg_sleep(0.15) AS ended_before_cancel',
      }).subscribe({ error: () => undefined });
      // (in its database: the watcher's is another)
      const database = decodeURIComponent(direct.pathname.slice(1));
      await until(async () =>
        (await activity('ended_before_cancel', database)).some((a) => a.state === 'active'),
      );
      subscription.unsubscribe();
      await until(() => single.waitingCount === 0 && single.idleCount === single.totalCount);
      // the same connection (the pool has one), now running a statement longer than the cancel's delay:
      // before cursorRows waited for the cancel request to be taken, it failed here with "canceling
      // statement due to user request" (3 of 3 runs), the late cancel landing on it
      const next = await single.query<{ one: number }>('SELECT pg_sleep(0.6), 1 AS one');
      expect(next.rows[0]!.one).toBe(1);
      expect(single.totalCount).toBe(1);
    } finally {
      await single.end();
      await proxy.close();
    }
  });
});

describe('cursorRows', () => {
  it('fetches only the rows asked for, and closes the cursor when unsubscribed between fetches', async () => {
    fetched = 0;
    const source = demandSourceOf<Photo>(cursorRows(pool, numbers(0, 100_000), { map: toPhoto }))!;
    const puller = new DemandPuller(source, 10);
    expect((await puller.next())!.map((p) => p.getId())).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(fetched).toBe(10);
    expect(await puller.next()).toHaveLength(10);
    expect(fetched).toBe(20);
    puller.cancel();
    await until(poolIdle);
    expect(fetched).toBe(20);
    // the connection is back and usable
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('cancels a running fetch on the server when unsubscribed, and returns the connection to the pool', async () => {
    const subscription = cursorRows(pool, { text: 'SELECT pg_sleep(60) AS slept_in_cursor_test' }).subscribe({
      error: () => undefined,
    });
    await until(async () => (await activity('slept_in_cursor_test')).some((a) => a.state === 'active'));
    const [running] = await activity('slept_in_cursor_test');
    subscription.unsubscribe();
    // the same backend, no longer running the query: cancelled, not left to sleep out its minute
    await until(async () =>
      (await activity('slept_in_cursor_test')).every((a) => a.pid !== running!.pid || a.state !== 'active'),
    );
    await until(poolIdle);
    const same = await watcher.query<{ state: string }>('SELECT state FROM pg_stat_activity WHERE pid = $1', [
      running!.pid,
    ]);
    expect(same.rows).toEqual([{ state: 'idle' }]);
  });

  it('reads one batch ahead of demand with readAhead, maps only what was asked for, and completes in order', async () => {
    // the query's rows are numbered by a sequence: its last value is how many rows PostgreSQL produced
    await pool.query('DROP SEQUENCE IF EXISTS produced; CREATE SEQUENCE produced');
    const produced = async (): Promise<number> =>
      Number((await watcher.query<{ n: string }>('SELECT last_value AS n FROM produced')).rows[0]!.n);
    fetched = 0;
    const source = demandSourceOf<Photo>(
      cursorRows(
        pool,
        { text: "SELECT nextval('produced')::int AS g, 'x' AS pad FROM generate_series(1, 35)" },
        { map: toPhoto, batchSize: 10, readAhead: true },
      ),
    )!;
    const puller = new DemandPuller(source, 10);
    const ids: unknown[] = [];
    for (let k = 1; k <= 3; k++) {
      ids.push(...(await puller.next())!.map((p) => p.getId()));
      expect(fetched).toBe(10 * k);
      // the next batch is read (or being read) already, and no more
      expect(await produced()).toBeLessThanOrEqual(10 * (k + 1));
      await until(async () => (await produced()) === Math.min(35, 10 * (k + 1)));
    }
    ids.push(...(await puller.next())!.map((p) => p.getId()));
    expect(await puller.next()).toBeUndefined();
    expect(ids).toEqual(Array.from({ length: 35 }, (_, i) => i + 1));
    await until(poolIdle);
  });

  it('returns the connection when unsubscribed with a batch read ahead', async () => {
    const source = demandSourceOf<Photo>(
      cursorRows(pool, numbers(0, 100_000), { map: toPhoto, batchSize: 100, readAhead: true }),
    )!;
    const puller = new DemandPuller(source, 100);
    expect(await puller.next()).toHaveLength(100);
    puller.cancel();
    await until(poolIdle);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('completes with every row when subscribed without demand', async () => {
    const ids: unknown[] = [];
    await new Promise<void>((resolve, reject) =>
      cursorRows(pool, numbers(0, 600), { map: toPhoto, batchSize: 100 }).subscribe({
        next: (p) => ids.push(p.getId()),
        error: reject,
        complete: resolve,
      }),
    );
    expect(ids).toHaveLength(600);
    expect(ids[599]).toBe(600);
    await until(poolIdle);
  });
});

describe('a finder streaming a cursor', () => {
  it('answers a page as Rest.li does, the paging record after the elements', async () => {
    const r = await server.request('GET', '/numbers?q=all&start=5&count=300&fields=id');
    expect(r.status).toBe(200);
    expect(r.json.elements).toHaveLength(300);
    expect(r.json.elements[0]).toEqual({ id: 6 });
    expect(r.json.elements[299]).toEqual({ id: 305 });
    expect(r.json.paging).toMatchObject({ start: 5, count: 300 });
    expect(r.json.paging.links.map((l: { rel: string }) => l.rel)).toEqual(['prev', 'next']);
    const empty = await server.request('GET', '/numbers?q=all&count=0');
    expect(empty.json).toEqual({ elements: [], paging: { start: 0, count: 0, links: [] } });
  });

  it('answers a query that fails before its first row with an ErrorResponse', async () => {
    const r = await server.request('GET', '/numbers?q=broken');
    expect(r.status).toBe(500);
    expect(r.headers.get('x-restli-error-response') ?? r.headers.get('x-svc-error-response')).toBe('true');
    await until(poolIdle);
  });

  it('reads rows only as a slow client takes them, and sends them all when it reads on', async () => {
    const total = 20_000; // ~20 MB of JSON: far beyond what socket buffers hold (a few MB on loopback)
    fetched = 0;
    const url = `${server.base}/numbers?q=wide&count=${total}`;
    let received = 0;
    let text = '';
    const response = await new Promise<http.IncomingMessage>((resolve) => http.get(url, resolve));
    response.setEncoding('utf8');
    response.pause();
    // the client reads nothing: the server stalls once the socket's buffers are full
    let last = -1;
    let same = 0;
    while (same < 10) {
      await new Promise((r) => setTimeout(r, 30));
      same = fetched === last ? same + 1 : 0;
      last = fetched;
    }
    expect(fetched).toBeLessThan(total / 2);
    response.on('data', (chunk: string) => {
      received += chunk.length;
      text += chunk;
    });
    response.resume();
    await new Promise((r) => response.once('end', r));
    const body = JSON.parse(text) as { elements: Array<{ id: number }> };
    expect(body.elements).toHaveLength(total);
    expect(body.elements[total - 1]!.id).toBe(total);
    expect(received).toBeGreaterThan(total * 1000);
    expect(fetched).toBe(total);
    await until(poolIdle);
  });

  it('cancels the query on the server when the client hangs up mid-stream', async () => {
    const first = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${server.base}/numbers?q=slow&count=1000`, resolve),
    );
    // the first rows came (the status and the start of the body), then the cursor hit a sleeping row
    await new Promise((r) => first.once('data', r));
    await until(async () => (await activity('pg_sleep(60)')).some((a) => a.state === 'active'));
    first.destroy();
    await until(async () => (await activity('pg_sleep(60)')).every((a) => a.state !== 'active'));
    await until(poolIdle);
    expect(pool.totalCount).toBeGreaterThan(0);
  });
});
