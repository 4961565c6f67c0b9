/**
 * The example's background processing over real HTTP: an upload is answered as soon as the image is
 * stored, with the photo PENDING and its `photo.process` job; the job (in-process driver, the embedded
 * default) hashes and sniffs the image and the photo becomes READY with what it found, or FAILED when the
 * upload is not an image; `GET /jobs/{id}` shows the job.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { type AttachmentDataSourceWriter, encodeRelated, writerFromBytes } from '../../src';
import { createExampleApp } from '../../examples/app';
import { sniffImageType } from '../../examples/processing';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions read the wire JSON freely
type Json = Record<string, any>;

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = await createExampleApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app.close());

function call(method: string, path: string, body?: { type: string; bytes: NodeJS.ReadableStream | Buffer }) {
  return new Promise<{ status: number; json: Json }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { 'x-svc-protocol-version': '2.0.0', ...(body ? { 'content-type': body.type } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: res.statusCode!,
            json: text === '' ? {} : (JSON.parse(text) as Json),
          });
        });
      },
    );
    req.on('error', reject);
    if (body === undefined) req.end();
    else if (Buffer.isBuffer(body.bytes)) req.end(body.bytes);
    else body.bytes.pipe(req);
  });
}

function upload(title: string, image: AttachmentDataSourceWriter) {
  const msg = encodeRelated(
    {
      contentType: 'application/json',
      bytes: Buffer.from(JSON.stringify({ title, format: 'PNG', image: `cid:${image.getAttachmentID()}` })),
    },
    [image],
  );
  return call('POST', '/photos', { type: msg.contentType, bytes: msg.body });
}

async function settled(id: string): Promise<Json> {
  const until = Date.now() + 20_000;
  for (;;) {
    const photo = (await call('GET', `/photos/${id}`)).json;
    if (photo.status !== 'PENDING' || Date.now() > until) return photo;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(500_000, 7),
]);

describe('photo processing in the background', () => {
  it('answers the upload with the photo PENDING, then processes it to READY with what it found', async () => {
    const created = await upload('Processed', writerFromBytes('png', PNG, 32 * 1024));
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ title: 'Processed', status: 'PENDING' });
    const jobId = String(created.json.processingJob);
    const photo = await settled(String(created.json.id));
    const sha256 = createHash('sha256').update(PNG).digest('hex');
    expect(photo).toMatchObject({
      status: 'READY',
      imageInfo: { sha256, bytes: PNG.length, mediaType: 'image/png' },
      processingJob: jobId,
    });
    const job = await call('GET', `/jobs/${jobId}`);
    expect(job.json).toMatchObject({
      name: 'photo.process',
      state: 'COMPLETED',
      attempts: 1,
      payload: { photoId: String(created.json.id) },
      attachments: [{ attachmentId: 'png', size: PNG.length }],
      result: { sha256, bytes: PNG.length, mediaType: 'image/png' },
    });
  });

  it('marks the photo FAILED when the upload is not an image, with the reason on the job', async () => {
    const created = await upload('Not an image', writerFromBytes('txt', Buffer.from('hello, world')));
    expect(created.status).toBe(201);
    const photo = await settled(String(created.json.id));
    expect(photo.status).toBe('FAILED');
    expect(photo).not.toHaveProperty('imageInfo');
    const job = await call('GET', `/jobs/${String(created.json.processingJob)}`);
    expect(job.json).toMatchObject({
      state: 'FAILED',
      attempts: 1,
      error: {
        name: 'UnrecoverableJobError',
        message: expect.stringMatching(/not an image this service knows/),
      },
    });
  });

  it.each([
    ['create', 'POST', '/photos', { title: 'Nowhere', format: 'PNG', image: 'cid:nothere' }],
    ['update', 'PUT', '/photos/1', { title: 'Nowhere', format: 'PNG', image: 'cid:nothere' }],
    ['partial update', 'POST', '/photos/1', { patch: { $set: { image: 'cid:nothere' } } }],
  ])(
    'refuses on %s an image that points at an attachment the request does not carry, and changes nothing',
    async (_method, method, path, entity) => {
      const before = await call('GET', '/photos/1');
      const json = Buffer.from(JSON.stringify(entity));
      // as JSON (no attachments at all), and as multipart/related carrying another attachment
      const other = encodeRelated({ contentType: 'application/json', bytes: json }, [
        writerFromBytes('other', PNG.subarray(0, 64)),
      ]);
      for (const body of [
        { type: 'application/json', bytes: json },
        { type: other.contentType, bytes: other.body },
      ]) {
        const r = await call(method, path, body);
        expect(r.status).toBe(400);
        expect(r.json.message).toBe("image points at attachment 'nothere', which the request does not carry");
      }
      expect(await call('GET', '/photos/1')).toEqual(before);
    },
  );

  it.each([
    ['an update', 'PUT', (title: string, cid: string) => ({ title, format: 'PNG', image: cid })],
    ['a partial update', 'POST', (_title: string, cid: string) => ({ patch: { $set: { image: cid } } })],
  ])('processes a new image that %s brings, with a new job', async (_name, method, entity) => {
    const created = await upload('Replaced', writerFromBytes('txt', Buffer.from('not an image')));
    const id = String(created.json.id);
    expect((await settled(id)).status).toBe('FAILED');
    const image = writerFromBytes('png2', PNG, 64 * 1024);
    const msg = encodeRelated(
      {
        contentType: 'application/json',
        bytes: Buffer.from(JSON.stringify(entity('Replaced', `cid:${image.getAttachmentID()}`))),
      },
      [image],
    );
    const r = await call(method, `/photos/${id}`, { type: msg.contentType, bytes: msg.body });
    expect(r.status).toBeLessThan(300);
    const photo = await settled(id);
    expect(photo).toMatchObject({
      status: 'READY',
      imageInfo: { bytes: PNG.length, mediaType: 'image/png' },
    });
    expect(photo.processingJob).not.toBe(created.json.processingJob);
    expect(photo).not.toHaveProperty('image');
  });

  it.each([
    ['image/jpeg', [0xff, 0xd8, 0xff, 0xdb]],
    ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
    ['image/gif', [...Buffer.from('GIF89a')]],
    ['image/webp', [...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBP')]],
    ['image/heic', [0, 0, 0, 24, ...Buffer.from('ftypheic')]],
    [undefined, [...Buffer.from('%PDF-1.7')]],
    [undefined, []],
  ])('sniffs %s from the first bytes', (type, header) => {
    expect(sniffImageType(Uint8Array.from(header))).toBe(type);
  });
});
