/**
 * No photo without its job (issue 27), on PostgreSQL: an upload writes the photo and an outbox entry in one
 * transaction, and the job is sent from the outbox after the commit. The service is killed (SIGKILL, a real
 * kill) right after that commit, before the job is sent (`SVC_EXAMPLE_PAUSE_AT=after-outbox-commit` only
 * says where to stop: the process waits there to be killed); started again on the same database and data
 * directory, it sends the job, and the photo is processed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { encodeRelated, writerFromBytes } from '../../src';
import { postgresForTests } from '../support/postgres-server';
import { tempDirs } from '../support/temp-dirs';

const ROOT = path.join(__dirname, '../..');
const postgres = postgresForTests();
const tempDir = tempDirs('svc-outbox-');

/** The smallest PNG there is: the signature is what processing sniffs. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0e0f2d70000000049454e44ae426082',
  'hex',
);

interface Service {
  readonly child: ChildProcess;
  readonly port: number;
  /** Everything it wrote to stdout so far. */
  output(): string;
}

const started: ChildProcess[] = [];
afterAll(async () => {
  for (const c of started) {
    if (c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    }
  }
});

/** Starts the example on `databaseUrl` and `dataDir`; resolves once it listens. */
function startService(
  databaseUrl: string,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<Service> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'examples/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      SVC_DATA_DIR: dataDir,
      ACCESS_LOG: 'off',
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the example exited (${code}):\n${out}\n${err}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+) /.exec(out);
      if (m !== null) resolve({ child, port: Number(m[1]), output: () => out });
    });
  });
}

function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGKILL');
  return exited;
}

/** Uploads a photo with its image; the response (if any comes) is not waited for. */
function upload(port: number, title: string): http.ClientRequest {
  const image = writerFromBytes(undefined, PNG);
  const msg = encodeRelated(
    {
      contentType: 'application/json',
      bytes: Buffer.from(JSON.stringify({ title, format: 'PNG', image: `cid:${image.getAttachmentID()}` })),
    },
    [image],
  );
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/photos',
    headers: { 'content-type': msg.contentType, 'x-restli-protocol-version': '2.0.0' },
  });
  req.on('error', () => undefined);
  msg.body.pipe(req);
  return req;
}

async function getJson(
  port: number,
  target: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(`http://127.0.0.1:${port}${target}`);
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

it('sends the job of an upload committed just before the service was killed, once it starts again', async () => {
  const databaseUrl = await postgres().createDatabase('outbox_recovery');
  const dataDir = tempDir();
  const first = await startService(databaseUrl, dataDir, { SVC_EXAMPLE_PAUSE_AT: 'after-outbox-commit' });
  upload(first.port, 'Killed mid-upload');
  while (!first.output().includes('paused at after-outbox-commit'))
    await new Promise((r) => first.child.stdout!.once('data', r));
  await killed(first.child);

  // committed, not sent: the photo is there, PENDING, and its outbox entry waits
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const photo = await db.query<{ id: string; status: string; job: string }>(
      "SELECT id::text AS id, doc->>'status' AS status, doc->>'processingJob' AS job FROM photos WHERE title = 'Killed mid-upload'",
    );
    expect(photo.rows).toEqual([{ id: '7', status: 'PENDING', job: expect.stringMatching(/^outbox-\d+$/) }]);
    const pending = await db.query('SELECT id FROM svc_outbox WHERE dispatched_at IS NULL');
    expect(pending.rowCount).toBe(1);

    // started again: the entry is sent at start, the job runs, the photo is processed
    const second = await startService(databaseUrl, dataDir);
    let photoNow = await getJson(second.port, '/photos/7');
    while (photoNow.json.status === 'PENDING') {
      await new Promise((r) => setTimeout(r, 50));
      photoNow = await getJson(second.port, '/photos/7');
    }
    expect(photoNow.json).toMatchObject({
      title: 'Killed mid-upload',
      status: 'READY',
      processingJob: photo.rows[0]!.job,
      imageInfo: { mediaType: 'image/png', bytes: PNG.length },
    });
    const job = await getJson(second.port, `/jobs/${photo.rows[0]!.job}`);
    expect(job.json).toMatchObject({ state: 'COMPLETED' });
    const left = await db.query('SELECT id FROM svc_outbox WHERE dispatched_at IS NULL');
    expect(left.rowCount).toBe(0);
    await killed(second.child);
  } finally {
    await db.end();
  }
}, 60_000);
