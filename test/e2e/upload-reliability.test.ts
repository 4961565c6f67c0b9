/**
 * Uploads that go wrong, as hostile or unlucky clients make them go wrong, over raw sockets against the
 * example service (issue 22): connections reset (RST) or closed (FIN) just after an attachment starts, a
 * half-close after a whole upload, and bodies whose parts never end their headers. Each exchange ends in
 * an answer or a completed upload, leaves no file under the blob directory (now and after a restart on the
 * same directory), gives every file descriptor back, and leaves either a photo with its job or neither.
 * Nothing is timed: each check waits for the event that proves it, with a generous bound.
 */
import { promises as fsp, readdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AttachmentQueue, BullMqDriver, FileBlobStore, InProcessDriver } from '../../src/queue';
import { createExampleApp } from '../../examples/app';
import { RedisServer } from '../support/redis-server';
import { type Exchange, send } from './support/wire';

jest.setTimeout(120_000);

const BOUNDARY = 'BND7xq';
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The first part and the start of the image part (headers, no bytes yet). */
function uploadHead(title: string, image = 'img1'): Buffer {
  const json = JSON.stringify({ title, format: 'PNG', image: `cid:${image}` });
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Type: application/json\r\n\r\n${json}\r\n` +
      `--${BOUNDARY}\r\nContent-ID: <${image}>\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
}

function uploadBody(title: string, imageBytes = 4096): Buffer {
  return Buffer.concat([
    uploadHead(title),
    PNG_HEAD,
    Buffer.alloc(imageBytes, 7),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

function requestHead(bodyLength: number, path = '/photos'): string {
  return (
    `POST ${path} HTTP/1.1\r\nHost: x\r\nX-Svc-Protocol-Version: 2.0.0\r\n` +
    `Content-Type: multipart/related; boundary=${BOUNDARY}\r\nContent-Length: ${bodyLength}\r\n\r\n`
  );
}

/** Every file below `dir` (directories are not counted). */
function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Open file descriptors of this process (Linux). */
function openDescriptors(): number {
  return readdirSync('/proc/self/fd').length;
}

/** Polls until `condition` holds (at most ~10 s; nothing is timed). */
async function eventually(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never reached: ${what}`);
}

interface Service {
  readonly app: FastifyInstance;
  readonly port: number;
  readonly dataDir: string;
  close(): Promise<void>;
}

type QueueKind = 'in-process' | 'bullmq';

let redis: RedisServer | undefined;
let redisUrl: string | undefined;

async function redisUrlOnce(): Promise<string> {
  if (redisUrl !== undefined) return redisUrl;
  const shared = process.env.SVC_TEST_REDIS_URL;
  if (shared !== undefined && shared !== '') redisUrl = shared;
  else {
    redis = await RedisServer.start();
    redisUrl = redis.url;
  }
  return redisUrl;
}

afterAll(async () => {
  await redis?.stop();
});

/** The example on `dataDir` with its blob store and a queue of the kind asked for. */
async function startService(kind: QueueKind, dataDir: string): Promise<Service> {
  const blobs = await FileBlobStore.open({ dir: path.join(dataDir, 'blobs') });
  const driver =
    kind === 'in-process'
      ? new InProcessDriver()
      : new BullMqDriver({ connection: await redisUrlOnce(), queueName: `reliability-${process.pid}` });
  const queue = new AttachmentQueue({ blobs, driver });
  // BullMQ jobs wait for workers elsewhere (none here): what matters is what the upload leaves
  const app = await createExampleApp({ queue, dataDir, runWorkers: kind === 'in-process' });
  app.addHook('onClose', () => queue.close({ timeoutMs: 1000 }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as net.AddressInfo).port;
  return { app, port, dataDir, close: () => app.close() };
}

/** GET over HTTP: the status and the JSON body. */
function get(service: Service, url: string): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: service.port, path: url, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            json: JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>,
          }),
        );
      })
      .on('error', reject);
  });
}

async function photoTitles(service: Service): Promise<string[]> {
  const r = await get(service, '/photos?count=1000');
  return (r.json.elements as Array<{ title: string }>).map((p) => p.title);
}

/**
 * Opens a connection, sends the request head, the payload part and the image part's headers with a few
 * bytes (Content-Length promises far more), and then resets or closes it.
 */
function abortAfterAttachmentStarts(port: number, how: 'rst' | 'fin', title: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
    socket.resume();
    socket.on('connect', () => {
      const head = uploadHead(title);
      socket.write(requestHead(head.length + 1_000_000), () => {
        socket.write(Buffer.concat([head, PNG_HEAD]), () => {
          // the server has the part's headers (the blob store opens its file now): cut it off
          setImmediate(() => (how === 'rst' ? socket.resetAndDestroy() : socket.end()));
        });
      });
    });
  });
}

/**
 * The example on a data directory of its own, for the tests of one describe block: `service()` is the one
 * running now (`restart()` starts another on the same directory, as a process would after a restart).
 */
function serviceInEachTest(kind: QueueKind): {
  service: () => Service;
  dataDir: () => string;
  restart: () => Promise<void>;
} {
  let dir: string;
  let current: Service;
  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-reliability-'));
    current = await startService(kind, dir);
  });
  afterAll(async () => {
    await current.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });
  return {
    service: () => current,
    dataDir: () => dir,
    restart: async () => {
      await current.close();
      current = await startService(kind, dir);
    },
  };
}

describe.each<QueueKind>(['in-process', 'bullmq'])('uploads cut off (%s queue)', (kind) => {
  const { service, dataDir, restart } = serviceInEachTest(kind);

  it('leaves no file and no descriptor behind after 200 clients reset or close mid-upload', async () => {
    const blobDir = path.join(dataDir(), 'blobs');
    const before = openDescriptors();
    const titlesBefore = await photoTitles(service());
    const clients = Array.from({ length: 200 }, (_, i) =>
      abortAfterAttachmentStarts(service().port, i % 2 === 0 ? 'rst' : 'fin', `storm ${i}`),
    );
    await Promise.all(clients);
    await eventually('no partial file left', () => filesBelow(blobDir).length === 0);
    await eventually('descriptors back to the baseline', () => openDescriptors() <= before);
    expect(await photoTitles(service())).toEqual(titlesBefore);
    // and the service goes on: a whole upload is answered 201
    const body = uploadBody('after the storm');
    const r = await send(service().port, Buffer.concat([Buffer.from(requestHead(body.length)), body]));
    expect(answerStatus(r)).toBe(201);
  });

  it('starts again on the same directory with nothing left over', async () => {
    await restart();
    expect(filesBelow(path.join(dataDir(), 'blobs', 'partial'))).toEqual([]);
  });
});

function answerStatus(r: Exchange): number | string {
  return r.kind === 'answered' ? r.answer.status : r.kind;
}

describe('a client that half-closes after its upload', () => {
  const { service, dataDir } = serviceInEachTest('in-process');

  it('gets its 201, and the photo comes with its job and becomes READY', async () => {
    const body = uploadBody('half-closed', 200_000);
    const r = await send(service().port, Buffer.concat([Buffer.from(requestHead(body.length)), body]), {
      end: true,
    });
    expect(answerStatus(r)).toBe(201);
    if (r.kind !== 'answered') return;
    const created = JSON.parse(r.answer.text) as { id: number; status: string; processingJob: string };
    expect(created.status).toBe('PENDING');
    expect(created.processingJob).toMatch(/^[0-9a-f-]{36}$/);
    expect((await get(service(), `/jobs/${created.processingJob}`)).status).toBe(200);
    await eventually(
      'the photo processed',
      async () => (await get(service(), `/photos/${created.id}`)).json.status === 'READY',
    );
    await eventually(
      'no partial file left',
      () => filesBelow(path.join(dataDir(), 'blobs', 'partial')).length === 0,
    );
  });

  it('gets its 201 for a JSON create too', async () => {
    const json = Buffer.from(JSON.stringify({ title: 'half-closed json', format: 'PNG' }));
    const head =
      `POST /photos HTTP/1.1\r\nHost: x\r\nX-Svc-Protocol-Version: 2.0.0\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n`;
    const r = await send(service().port, Buffer.concat([Buffer.from(head), json]), { end: true });
    expect(answerStatus(r)).toBe(201);
  });

  it('creates nothing when the FIN cuts the body short', async () => {
    const titlesBefore = await photoTitles(service());
    const body = uploadBody('cut short', 50_000);
    const r = await send(
      service().port,
      Buffer.concat([Buffer.from(requestHead(body.length)), body.subarray(0, body.length - 1000)]),
      { end: true },
    );
    // the body never arrived whole: the server answers 400 or closes, and keeps nothing
    if (r.kind === 'answered') expect(r.answer.status).toBe(400);
    else expect(r.kind).toBe('closed');
    await eventually(
      'no partial file left',
      () => filesBelow(path.join(dataDir(), 'blobs', 'partial')).length === 0,
    );
    expect(await photoTitles(service())).toEqual(titlesBefore);
  });
});

describe('parts whose headers never end', () => {
  const { service, dataDir } = serviceInEachTest('in-process');

  const json = JSON.stringify({ title: 'malformed', format: 'PNG', image: 'cid:img1' });
  const first = `--${BOUNDARY}\r\nContent-Type: application/json\r\n\r\n${json}\r\n`;
  it.each([
    [
      'a stray boundary line inside the attachment',
      `${first}--${BOUNDARY}\r\nContent-ID: <img1>\r\n\r\n\x89PNG1234\r\n--${BOUNDARY} not really\r\nmore\r\n--${BOUNDARY}--\r\n`,
      'SVC_ERR_ATTACH_STREAM',
      'part 3',
    ],
    [
      'an attachment whose headers run into the closing delimiter',
      `${first}--${BOUNDARY}\r\nContent-ID: <img1>\r\n--${BOUNDARY}--\r\n`,
      'SVC_ERR_ATTACH_STREAM',
      'part 2',
    ],
    [
      'a payload part whose headers run into the next delimiter',
      `--${BOUNDARY}\r\nContent-Type: application/json\r\n--${BOUNDARY}\r\nContent-ID: <img1>\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
      'SVC_ERR_ATTACH_BAD_PAYLOAD',
      'part 1',
    ],
  ])('answers 400 at once naming the part, and creates nothing: %s', async (_name, text, code, part) => {
    const titlesBefore = await photoTitles(service());
    const body = Buffer.from(text, 'latin1');
    const r = await send(service().port, Buffer.concat([Buffer.from(requestHead(body.length)), body]));
    expect(answerStatus(r)).toBe(400);
    if (r.kind !== 'answered') return;
    expect(JSON.parse(r.answer.text)).toMatchObject({
      code,
      message: expect.stringContaining(part),
    });
    expect(await photoTitles(service())).toEqual(titlesBefore);
    await eventually(
      'no partial file left',
      () => filesBelow(path.join(dataDir(), 'blobs', 'partial')).length === 0,
    );
    expect(filesBelow(path.join(dataDir(), 'blobs', 'blobs'))).toEqual([]);
  });
});
