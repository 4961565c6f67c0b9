/**
 * Issue 27, the example on PostgreSQL: a 1,000,000-row stream (`GET /photos?q=export&count=1000000`)
 * through the framework (rows from a server-side cursor, written as the response drains) against the same
 * rows read by a bare `pg` cursor into /dev/null in the same run; the server's RSS growth during the
 * stream; get-by-id requests/s on PostgreSQL and in memory; the large-object blob store against the file
 * store, 100 MiB in and out.
 *
 * Goals (the issue's), measured and printed, never asserted: the stream's rows/s ≥ 0.7× the bare cursor's,
 * and the server's RSS growth < 64 MiB.
 *
 * How: `suites()` spawns this file as a *driver* (`--driver`), which starts its own PostgreSQL
 * (test/support/postgres-server.ts: initdb in a temp dir, a free loopback port), fills it, and spawns the
 * example as *servers* (`--server`, one on PostgreSQL and one in memory), pinned to one core with
 * `taskset` when there is one; the driver (pinned to the other) reads the responses and samples the
 * server's RSS from /proc. PostgreSQL runs on either core (its postmaster's affinity is reset after the
 * start: the backends it forks may run anywhere, for the bare cursor as for the server). Everything is
 * stopped and removed at the end.
 *
 * Like with like: the bare cursor reads the same rows with the same query and batch size as the server's
 * cursor, and writes them as JSON lines into /dev/null; the framework adds the mapping to records, the
 * JSON encoding of the collection, HTTP (no compression: the reader sends no Accept-Encoding, and the
 * bench says which Content-Encoding came) and the reader's side of the loopback socket. The stream and the
 * bare cursor take turns, {@link ROUNDS} times, after a warm-up request; the notes give each round's ratio.
 * `BENCH_PG_ROWS` sets fewer rows for a quick look.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, promises as fsp } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type * as PgModule from 'pg';
import type * as CursorModule from 'pg-cursor';
import type * as AppModule from '../examples/app';
import type * as PgStoreModule from '../examples/pg-store';
import type * as PostgresModule from '../src/postgres';
import type * as QueueModule from '../src/queue';
import type * as ServerModule from '../test/support/postgres-server';
import type { BenchFile, Fact, Suite } from './harness';
import { pinned, tasksetPath } from './cores';
import { roleFromFlags, runRole } from './process-role';

// loaded by the roles only: `npm run bench` loads every bench file to list them
const load = createRequire(__filename);

/** Rows streamed: the million; `BENCH_PG_ROWS` sets fewer for a quick look. */
const ROWS = Number(process.env.BENCH_PG_ROWS ?? 1_000_000);
const BLOB_BYTES = 100 * 1024 * 1024;
const GET_SECONDS = 3;
/** Turns of bare cursor and stream. */
const ROUNDS = 2;
/** Rows per cursor read: what the example's cursor reads per round trip (cursorRows' default). */
const BATCH = 1024;

interface StreamRun {
  ttfbMs: number;
  seconds: number;
  bytes: number;
  rows: number;
  encoding: string;
}

interface BareRun {
  ttfbMs: number;
  seconds: number;
  rows: number;
}

interface Result {
  pinned: boolean;
  postgresAnywhere: boolean;
  fillSeconds: number;
  streams: StreamRun[];
  bares: BareRun[];
  rss: { beforeMiB: number; peakMiB: number };
  gets: { postgres: number; memory: number };
  blobs: { lo: { inMiBs: number; outMiBs: number }; file: { inMiBs: number; outMiBs: number } };
}

/** The example app on DATABASE_URL (or in memory), listening on a free port, which it sends its parent. */
async function runServer(): Promise<void> {
  const { createExampleApp } = load('../examples/app') as typeof AppModule;
  const app = await createExampleApp({ observe: false, databaseUrl: process.env.BENCH_DATABASE_URL ?? '' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!((app.server.address() as { port: number }).port);
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
}

function startServer(databaseUrl: string): Promise<{ child: ChildProcess; port: number }> {
  const { cmd, args } = pinned(0, [process.execPath, '-r', '@swc-node/register', __filename, '--server']);
  const child = spawn(cmd, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, REDIS_URL: '', SVC_DATA_DIR: '' },
  });
  return new Promise((resolve, reject) => {
    child.once('message', (port) => resolve({ child, port: port as number }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${String(code)}`)));
  });
}

/** The process's resident set in MiB (the server's; `taskset` execs node, so the pid is node's). */
async function rssMiB(pid: number): Promise<number> {
  const status = await fsp.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function runDriver(): Promise<void> {
  const { PostgresServer } = load('../test/support/postgres-server') as typeof ServerModule;
  const pg = load('pg') as typeof PgModule;
  const Cursor = load('pg-cursor') as typeof CursorModule.default;
  const { PgPhotoStore } = load('../examples/pg-store') as typeof PgStoreModule;
  const { FileBlobStore } = load('../src/queue') as typeof QueueModule;
  const { LargeObjectBlobStore } = load('../src/postgres') as typeof PostgresModule;
  const server = await PostgresServer.start();
  // the postmaster inherited the driver's core: its backends (forked from it) may run on any core
  const postgresAnywhere =
    spawnSync('taskset', ['-p', '-c', `0-${os.cpus().length - 1}`, String(server.pid)], { stdio: 'ignore' })
      .status === 0;
  const scratch = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-pg-bench-'));
  const children: ChildProcess[] = [];
  // stopped from outside (the runner's timeout): the database, the servers and the scratch go too
  process.once('SIGTERM', () => {
    for (const c of children) c.kill('SIGKILL');
    void server.dispose().finally(() => {
      void fsp.rm(scratch, { recursive: true, force: true }).finally(() => process.exit(1));
    });
  });
  try {
    const url = await server.createDatabase('bench');
    const fill0 = performance.now();
    // the schema (migrations) and the seed, then a million photos more
    await (await PgPhotoStore.open({ connectionString: url })).close();
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    await pool.query(`
      INSERT INTO photos (title, format, taken_at, tags, doc)
      SELECT 'Photo ' || g, 'JPEG', 1700000000000 + g, ARRAY['bulk'],
             jsonb_build_object('title', 'Photo ' || g, 'format', 'JPEG', 'takenAt', 1700000000000 + g,
                                'tags', jsonb_build_array('bulk'))
      FROM generate_series(1, ${ROWS}) g`);
    await pool.query('VACUUM ANALYZE photos');
    const fillSeconds = (performance.now() - fill0) / 1000;

    // the bare cursor: the same query, rows as JSON lines into /dev/null
    const bare = async (): Promise<BareRun> => {
      const client = await pool.connect();
      const sink = createWriteStream('/dev/null');
      const t0 = performance.now();
      let ttfb = 0;
      let rows = 0;
      const cursor = client.query(
        new Cursor<{ id: string; doc: string }>(
          'SELECT id::text AS id, doc::text AS doc FROM photos ORDER BY photos.id LIMIT $1 OFFSET 0',
          [ROWS],
        ),
      );
      for (;;) {
        const batch = await cursor.read(BATCH);
        if (rows === 0) ttfb = performance.now() - t0;
        if (batch.length === 0) break;
        let text = '';
        for (const r of batch) text += `${JSON.stringify(r)}\n`;
        rows += batch.length;
        if (!sink.write(text)) await new Promise<void>((r) => sink.once('drain', () => r()));
      }
      await cursor.close();
      client.release();
      await new Promise<void>((r) => sink.end(r));
      return { ttfbMs: ttfb, seconds: (performance.now() - t0) / 1000, rows };
    };

    // the framework: the export finder over HTTP, read and dropped (elements counted by their ids)
    const onPg = await startServer(url);
    children.push(onPg.child);
    const pid = onPg.child.pid!;
    const stream = async (count: number): Promise<StreamRun> => {
      const needle = Buffer.from('"id":');
      const t0 = performance.now();
      let ttfb = 0;
      let bytes = 0;
      let rows = 0;
      let carry: Buffer = Buffer.alloc(0);
      const countIn = (b: Buffer): void => {
        for (let i = b.indexOf(needle); i !== -1; i = b.indexOf(needle, i + needle.length)) rows++;
      };
      let encoding = '';
      await new Promise<void>((resolve, reject) => {
        http
          .get(`http://127.0.0.1:${onPg.port}/photos?q=export&count=${count}`, (res) => {
            encoding = res.headers['content-encoding'] ?? 'identity';
            res.on('data', (c: Buffer) => {
              if (bytes === 0) ttfb = performance.now() - t0;
              bytes += c.length;
              // a needle across two chunks: the previous chunk's last bytes with this one's first
              countIn(Buffer.concat([carry, c.subarray(0, needle.length - 1)]));
              countIn(c);
              carry = c.subarray(c.length - (needle.length - 1));
            });
            res.on('end', resolve);
            res.on('error', reject);
          })
          .on('error', reject);
      });
      if (rows !== count) throw new Error(`the stream had ${rows} elements, not ${count}`);
      return { ttfbMs: ttfb, seconds: (performance.now() - t0) / 1000, bytes, rows, encoding };
    };
    // a warm server (its first request compiles the pipeline's code) and a warm pool
    await stream(1000);
    const rssBefore = await rssMiB(pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      void rssMiB(pid).then(
        (v) => (rssPeak = Math.max(rssPeak, v)),
        () => undefined,
      );
    }, 20);
    const bares: BareRun[] = [];
    const streams: StreamRun[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bares.push(await bare());
      streams.push(await stream(ROWS));
    }
    clearInterval(sampler);

    // get-by-id, PostgreSQL vs memory, with autocannon
    const autocannon = createRequire(__filename)('autocannon') as (o: object) => Promise<{
      requests: { total: number };
      duration: number;
    }>;
    const rps = async (port: number): Promise<number> => {
      // a warm pool (its connections opened) and warm code first
      await autocannon({ url: `http://127.0.0.1:${port}/photos/1`, connections: 16, duration: 1 });
      const r = await autocannon({
        url: `http://127.0.0.1:${port}/photos/1`,
        connections: 16,
        duration: GET_SECONDS,
      });
      return r.requests.total / r.duration;
    };
    const inMemory = await startServer('');
    children.push(inMemory.child);
    const gets = { postgres: await rps(onPg.port), memory: await rps(inMemory.port) };

    // blob stores, 100 MiB in (streamed, 256 KiB chunks) and out
    function* source(): Generator<Uint8Array> {
      const chunk = Buffer.alloc(256 * 1024, 7);
      for (let sent = 0; sent < BLOB_BYTES; sent += chunk.length) yield chunk;
    }
    const blobRun = async (store: {
      put(s: AsyncIterable<Uint8Array>): Promise<{ id: string }>;
      get(id: string): Promise<AsyncIterable<unknown>>;
      delete(id: string): Promise<boolean>;
    }) => {
      const t0 = performance.now();
      const { id } = await store.put(toAsync(source()));
      const t1 = performance.now();
      for await (const _ of await store.get(id)) void _;
      const t2 = performance.now();
      await store.delete(id);
      const mib = BLOB_BYTES / 1024 / 1024;
      return { inMiBs: mib / ((t1 - t0) / 1000), outMiBs: mib / ((t2 - t1) / 1000) };
    };
    await pool.query(
      'CREATE TABLE IF NOT EXISTS svc_blobs (id uuid PRIMARY KEY, oid oid NOT NULL, size bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
    );
    const blobs = {
      lo: await blobRun(new LargeObjectBlobStore(pool)),
      file: await blobRun(await FileBlobStore.open({ dir: path.join(scratch, 'files') })),
    };
    await pool.end();
    const result: Result = {
      pinned: tasksetPath() !== undefined,
      postgresAnywhere,
      fillSeconds,
      streams,
      bares,
      rss: { beforeMiB: rssBefore, peakMiB: rssPeak },
      gets,
      blobs,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    for (const c of children) {
      if (c.exitCode === null && c.signalCode === null) {
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGKILL');
        await exited;
      }
    }
    await server.dispose();
    await fsp.rm(scratch, { recursive: true, force: true });
  }
}

async function* toAsync(items: Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const item of items) yield await Promise.resolve(item);
}

/** Rows/s over all rounds (total rows / total seconds). */
function rate(runs: ReadonlyArray<{ rows: number; seconds: number }>): number {
  return runs.reduce((n, r) => n + r.rows, 0) / runs.reduce((t, r) => t + r.seconds, 0);
}

const median = (values: readonly number[]): number => {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 === 1 ? v[v.length >> 1]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
};

function suite(r: Result): Suite {
  const streamRps = rate(r.streams);
  const bareRps = rate(r.bares);
  const perRound = r.streams.map((s, i) => s.rows / s.seconds / (r.bares[i]!.rows / r.bares[i]!.seconds));
  const growth = r.rss.peakMiB - r.rss.beforeMiB;
  const bytes = r.streams.reduce((n, s) => n + s.bytes, 0);
  const seconds = r.streams.reduce((t, s) => t + s.seconds, 0);
  const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');
  const facts: Fact[] = [
    {
      label: 'stream: time to first byte (median)',
      value: median(r.streams.map((s) => s.ttfbMs)),
      unit: 'ms',
    },
    { label: 'stream: rows/s', value: streamRps, unit: 'rows/s' },
    { label: 'stream: MB/s', value: bytes / 1e6 / seconds, unit: 'MB/s' },
    {
      label: 'bare cursor: time to first row (median)',
      value: median(r.bares.map((b) => b.ttfbMs)),
      unit: 'ms',
    },
    { label: 'bare cursor: rows/s', value: bareRps, unit: 'rows/s' },
    { label: 'server RSS growth during the streams', value: growth, unit: 'MiB' },
    { label: 'get-by-id on PostgreSQL', value: r.gets.postgres, unit: 'req/s' },
    { label: 'get-by-id in memory', value: r.gets.memory, unit: 'req/s' },
    { label: 'large objects: 100 MiB in', value: r.blobs.lo.inMiBs, unit: 'MiB/s' },
    { label: 'large objects: 100 MiB out', value: r.blobs.lo.outMiBs, unit: 'MiB/s' },
    { label: 'files: 100 MiB in', value: r.blobs.file.inMiBs, unit: 'MiB/s' },
    { label: 'files: 100 MiB out', value: r.blobs.file.outMiBs, unit: 'MiB/s' },
  ];
  const runs = r.streams
    .map(
      (s, i) =>
        `${s.seconds.toFixed(2)} s vs ${r.bares[i]!.seconds.toFixed(2)} s (${perRound[i]!.toFixed(2)}×; first byte ${s.ttfbMs.toFixed(0)} vs ${r.bares[i]!.ttfbMs.toFixed(0)} ms)`,
    )
    .join(', ');
  return {
    title: `The example on PostgreSQL: a ${ROWS.toLocaleString('en')}-row stream, get-by-id, blob stores`,
    short: 'postgres',
    facts,
    ratios: [
      { name: 'stream rows/s vs bare cursor', of: 'stream: rows/s', to: 'bare cursor: rows/s' },
      { name: 'get-by-id PostgreSQL vs memory', of: 'get-by-id on PostgreSQL', to: 'get-by-id in memory' },
      { name: 'large objects in vs files', of: 'large objects: 100 MiB in', to: 'files: 100 MiB in' },
      { name: 'large objects out vs files', of: 'large objects: 100 MiB out', to: 'files: 100 MiB out' },
    ],
    notes: [
      `server ${r.pinned ? 'pinned to one core, driver (bare cursor, HTTP reader, autocannon) on the other (taskset)' : 'not pinned'}; PostgreSQL ${r.postgresAnywhere ? 'on either core' : "on the driver's core"}; the machine is shared: expect noise`,
      `${r.streams[0]!.rows} rows (filled in ${r.fillSeconds.toFixed(1)} s), ${(r.streams[0]!.bytes / 1e6).toFixed(1)} MB of JSON, Content-Encoding ${r.streams[0]!.encoding}; ${ROUNDS} rounds, stream vs bare cursor: ${runs}`,
      `goal: stream ≥ 0.7× the bare cursor's rows/s: ${verdict(streamRps >= 0.7 * bareRps)} (${(streamRps / bareRps).toFixed(2)}× over all rounds; rounds ${Math.min(...perRound).toFixed(2)}-${Math.max(...perRound).toFixed(2)}×)`,
      `goal: server RSS growth < 64 MiB: ${verdict(growth < 64)} (${growth.toFixed(1)} MiB, ${r.rss.beforeMiB.toFixed(0)} → ${r.rss.peakMiB.toFixed(0)} MiB, sampled every 20 ms)`,
    ],
  };
}

function suites(): Suite[] {
  const { cmd, args } = pinned(1, [process.execPath, '-r', '@swc-node/register', __filename, '--driver']);
  const out = spawnSync(cmd, args, {
    encoding: 'utf8',
    timeout: 600_000,
    killSignal: 'SIGTERM',
    maxBuffer: 1 << 24,
  });
  if (out.status !== 0)
    throw new Error(`postgres bench driver failed (${String(out.status ?? out.signal)}):\n${out.stderr}`);
  const lines = out.stdout.trim().split('\n');
  return [suite(JSON.parse(lines[lines.length - 1]!) as Result)];
}

export const benchmark: BenchFile = { title: 'Issue 27: the example on PostgreSQL', suites };

if (require.main === module) runRole(roleFromFlags({ server: runServer, driver: runDriver }));
