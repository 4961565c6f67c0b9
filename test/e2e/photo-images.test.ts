/**
 * The example service's photo images over real HTTP: upload as an attachment of a `multipart/related`
 * create (streamed to disk), download as a response attachment when the client accepts them.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { concatMap, lastValueFrom, map, toArray } from 'rxjs';
import {
  attachments$,
  decodeRelated,
  encodeRelated,
  writerFromAsyncIterable,
  writerFromBytes,
} from '../../src';
import type { AttachmentDataSourceWriter } from '../../src';
import { createExampleApp } from '../../examples/app';
import { ImageStore } from '../../examples/images';
import { seededLibrary } from '../../examples/store';
import { tempDirs } from '../support/temp-dirs';

let app: FastifyInstance;
let port: number;

const tempDir = tempDirs('svc-photo-images-');

beforeAll(async () => {
  // images in a directory of this file's, removed after its tests (the default is one per process)
  app = await createExampleApp({ library: seededLibrary(new ImageStore(tempDir())) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app.close());

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
  readonly headers: http.IncomingHttpHeaders;
}

function request(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Readable | Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, headers: { 'x-svc-protocol-version': '2.0.0', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            contentType: String(res.headers['content-type']),
            body: Buffer.concat(chunks),
            headers: res.headers,
          }),
        );
      },
    );
    req.on('error', reject);
    if (body instanceof Readable) body.pipe(req);
    else req.end(body);
  });
}

function upload(photo: object, attachments: AttachmentDataSourceWriter[]): Promise<Answer> {
  const msg = encodeRelated(
    { contentType: 'application/json', bytes: Buffer.from(JSON.stringify(photo)) },
    attachments,
  );
  return request('POST', '/photos', { 'content-type': msg.contentType }, msg.body);
}

const digest = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** The first bytes of a PNG and of a JPEG file: processing keeps only uploads that look like images. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);

/** Waits (bounded) until the photo's image is processed (its `photo.process` job ran); returns its status. */
async function processed(id: string): Promise<string> {
  const until = Date.now() + 20_000;
  for (;;) {
    const photo = JSON.parse((await request('GET', `/photos/${id}`, {})).body.toString()) as {
      status?: string;
    };
    if (photo.status !== 'PENDING' || Date.now() > until) return String(photo.status);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('photo images', () => {
  it('uploads an image as an attachment and downloads it as one, bytes intact', async () => {
    const image = Buffer.from(Array.from({ length: 3 * 1024 * 1024 + 17 }, (_, i) => (i * 31) % 256));
    PNG_SIGNATURE.copy(image);
    const created = await upload({ title: 'With an image', format: 'PNG', image: 'cid:img' }, [
      writerFromBytes('img', image, 50_000),
    ]);
    expect(created.status).toBe(201);
    const id = String(created.headers['x-svc-id']);
    // the stored photo does not keep the message-local pointer
    expect(JSON.parse(created.body.toString())).not.toHaveProperty('image');
    // the upload is answered once stored; the image is processed in the background
    expect(JSON.parse(created.body.toString())).toMatchObject({ status: 'PENDING' });
    expect(await processed(id)).toBe('READY');

    const plain = await request('GET', `/photos/${id}`, { accept: 'application/json' });
    expect(plain.contentType).toBe('application/json');
    expect(JSON.parse(plain.body.toString())).not.toHaveProperty('image');

    const withImage = await request('GET', `/photos/${id}`, {
      accept: 'application/json, multipart/related',
    });
    expect(withImage.contentType).toMatch(/^multipart\/related; boundary=/);
    const m = decodeRelated(Readable.from([withImage.body]), withImage.contentType);
    const photo = JSON.parse(Buffer.from((await m.payload).bytes).toString()) as {
      image: string;
      title: string;
    };
    expect(photo.title).toBe('With an image');
    const got = await lastValueFrom(
      attachments$((await m.attachments)!).pipe(
        concatMap((a) =>
          a.data$.pipe(
            toArray(),
            map((c) => [a.id, Buffer.concat(c), a.reader.getContentType()] as const),
          ),
        ),
      ),
    );
    expect(photo.image).toBe(`cid:${got[0]}`);
    expect(digest(got[1])).toBe(digest(image));
    // the image part says what it holds (the media type the job sniffed), read here and in the raw bytes
    expect(got[2]).toBe('image/png');
    const head = withImage.body.subarray(0, 4096).toString('latin1');
    const imagePart = head.slice(head.indexOf('\r\n--', 2));
    expect(imagePart.slice(0, imagePart.indexOf('\r\n\r\n')).toLowerCase()).toContain(
      '\r\ncontent-type: image/png',
    );
  });

  it('streams a 64 MiB image generated on the fly', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 3);
    const first = Buffer.concat([JPEG_SIGNATURE, chunk.subarray(JPEG_SIGNATURE.length)]);
    async function* generate(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 64; i++) {
        await Promise.resolve();
        yield i === 0 ? first : chunk;
      }
    }
    const created = await upload({ title: 'Big', format: 'JPEG', image: 'cid:big' }, [
      writerFromAsyncIterable('big', generate()),
    ]);
    expect(created.status).toBe(201);
    expect(await processed(String(created.headers['x-svc-id']))).toBe('READY');
    const got = await request('GET', `/photos/${String(created.headers['x-svc-id'])}`, {
      accept: 'multipart/related',
    });
    const m = decodeRelated(Readable.from([got.body]), got.contentType);
    await m.payload;
    const bytes = await lastValueFrom(
      attachments$((await m.attachments)!).pipe(
        concatMap((a) => a.data$),
        toArray(),
      ),
    );
    expect(Buffer.concat(bytes).length).toBe(64 * 1024 * 1024);
  });

  it('refuses an image pointing at an attachment the request does not carry, and stores nothing', async () => {
    const before = JSON.parse((await request('GET', '/photos?count=100', {})).body.toString()) as {
      paging: { total: number };
    };
    const r = await upload({ title: 'Dangling', format: 'PNG', image: 'cid:missing' }, [
      writerFromBytes('other', Buffer.from('x')),
    ]);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body.toString()).message).toBe(
      "image points at attachment 'missing', which the request does not carry",
    );
    const after = JSON.parse((await request('GET', '/photos?count=100', {})).body.toString()) as {
      paging: { total: number };
    };
    expect(after.paging.total).toBe(before.paging.total);
  });

  it('creates a photo without an image from a plain request, as before', async () => {
    const r = await request(
      'POST',
      '/photos',
      { 'content-type': 'application/json' },
      Buffer.from(JSON.stringify({ title: 'Plain', format: 'GIF' })),
    );
    expect(r.status).toBe(201);
  });
});
