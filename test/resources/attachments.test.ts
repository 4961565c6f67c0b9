/**
 * Attachments on the server over real HTTP (brief, "Server API for attachments" and its request-attachment
 * table; wire facts §6.3–6.5): multipart/related requests streamed into handlers, the four rows of the
 * table, malformed envelopes, response attachments only when accepted, aborts on errors and hang-ups.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { Readable } from 'node:stream';
import { lastValueFrom, concatMap, toArray, map, from } from 'rxjs';
import {
  type AttachmentDataSourceWriter,
  type AttachmentReader,
  LONG_KEY,
  ResponseAttachments,
  STRING,
  action,
  attachments$,
  attachmentChunks$,
  attachmentsParam,
  consumeChunks,
  collection,
  encodeRelated,
  finder,
  withAttachments,
  writerFromAsyncIterable,
  writerFromBytes,
  decodeRelated,
} from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { TEST_PROTOCOL, type TestServer, startServer } from './support/http';
import { makePhoto } from './support/photos';

/** id → sha256 of what a handler read. */
async function digestAll(reader: AttachmentReader | null): Promise<Record<string, string>> {
  if (reader === null) return {};
  const out: Record<string, string> = {};
  await lastValueFrom(
    attachments$(reader).pipe(
      concatMap((a) => {
        const hash = createHash('sha256');
        let size = 0;
        return a.data$.pipe(
          map((c) => {
            size += c.length;
            hash.update(c);
            return 0;
          }),
          toArray(),
          map(() => {
            out[a.id] = `${size}:${hash.digest('hex').slice(0, 16)}`;
          }),
        );
      }),
      toArray(),
    ),
    { defaultValue: [] },
  );
  return out;
}

const sha = (b: Uint8Array): string =>
  `${b.length}:${createHash('sha256').update(b).digest('hex').slice(0, 16)}`;

interface Probe {
  aborted: string[];
  seen: Record<string, string>[];
}

function resource(probe: Probe) {
  return collection({
    name: 'photos',
    key: LONG_KEY,
    value: Photo,
    methods: {
      // takes attachments: reads them all before answering
      create: withAttachments(async (attachments, photo: Photo) => {
        probe.seen.push(await digestAll(attachments));
        return { id: attachments === null ? 0 : 1, entity: photo };
      }),
      // takes none
      update: () => undefined,
      get: (id, ctx) => {
        const image = Buffer.alloc(Number(id), 7);
        if (ctx.responseAttachmentsSupported()) {
          const writer: AttachmentDataSourceWriter = {
            ...writerFromBytes('image', image, 1000),
            onAbort: (e) => probe.aborted.push(`image:${e.name}`),
          };
          ctx.setResponseAttachments(ResponseAttachments.builder().appendSingleAttachment(writer).build());
          if (id === 666) throw new Error('failed after setting attachments');
        } else {
          try {
            ctx.setResponseAttachments(ResponseAttachments.builder().build());
          } catch (e) {
            probe.aborted.push(`refused:${(e as Error).message}`);
          }
        }
        return makePhoto(id, `image ${id}`);
      },
      finders: {
        endless: finder({ params: {} }, (_p, ctx) => {
          async function* forever(): AsyncGenerator<Uint8Array> {
            for (;;) {
              await new Promise((r) => setTimeout(r, 1));
              yield Buffer.alloc(64 * 1024, 1);
            }
          }
          const writer = writerFromAsyncIterable('stream', forever());
          ctx.setResponseAttachments(
            ResponseAttachments.builder()
              .appendSingleAttachment({
                ...writer,
                onAbort: (e) => {
                  probe.aborted.push(`endless:${e.name}`);
                  writer.onAbort(e);
                },
              })
              .build(),
          );
          return [makePhoto(1, 'one')];
        }),
      },
      actions: {
        upload: action(
          { params: { label: STRING, files: attachmentsParam() }, returns: STRING },
          async ({ label, files }) => `${label}:${JSON.stringify(await digestAll(files))}`,
        ),
      },
    },
  });
}

const PHOTO = JSON.stringify(makePhoto(9, 't').data());

/** Sends a multipart/related request built by the encoder; the body streams. */
function sendRelated(
  server: TestServer,
  method: string,
  path: string,
  payload: string,
  writers: AttachmentDataSourceWriter[],
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; json: { [k: string]: unknown }; headers: Record<string, string> }> {
  const msg = encodeRelated({ contentType: 'application/json', bytes: Buffer.from(payload) }, writers);
  return sendRaw(server, method, path, msg.contentType, msg.body, extraHeaders);
}

async function sendRaw(
  server: TestServer,
  method: string,
  path: string,
  contentType: string,
  body: Readable | Buffer,
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; json: { [k: string]: unknown }; headers: Record<string, string> }> {
  // over HTTP/1.1 a stream goes chunked; over HTTP/2 as DATA frames with the stream's flow control
  const r = await server.request(method, path, {
    headers: { 'content-type': contentType, ...extraHeaders },
    raw: body,
  });
  return {
    status: r.status,
    headers: Object.fromEntries(r.headers),
    json: r.text === '' ? {} : (JSON.parse(r.text) as { [k: string]: unknown }),
  };
}

describe('request attachments', () => {
  let server: TestServer;
  const probe: Probe = { aborted: [], seen: [] };
  beforeAll(async () => {
    server = await startServer({ resources: [resource(probe)] });
  });
  afterAll(() => server.close());

  it('streams attachments into a method that takes them (declared, sent)', async () => {
    const blobs = [Buffer.alloc(0), Buffer.alloc(1, 1), Buffer.alloc(300_000, 2)];
    const r = await sendRelated(
      server,
      'POST',
      '/photos',
      PHOTO,
      blobs.map((b, i) => writerFromBytes(`a${i}`, b, 8192)),
    );
    expect(r.status).toBe(201);
    expect(r.headers['x-svc-id']).toBe('1');
    expect(probe.seen.at(-1)).toEqual({ a0: sha(blobs[0]!), a1: sha(blobs[1]!), a2: sha(blobs[2]!) });
  });

  it('gives null to a method that takes attachments when none were sent (declared, not sent)', async () => {
    const r = await server.request('POST', '/photos', { json: JSON.parse(PHOTO) });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-svc-id')).toBe('0');
    expect(probe.seen.at(-1)).toEqual({});
  });

  it('accepts a payload-only multipart/related request as having no attachments', async () => {
    const r = await sendRelated(server, 'POST', '/photos', PHOTO, []);
    expect(r.status).toBe(201);
    expect(r.headers['x-svc-id']).toBe('0');
  });

  it('refuses attachments to a method that takes none, drains them, and keeps serving (not declared, sent)', async () => {
    const r = await sendRelated(server, 'PUT', '/photos/1', PHOTO, [
      writerFromBytes('x', Buffer.alloc(2_000_000, 3)),
    ]);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({
      status: 400,
      code: 'SVC_ERR_ATTACH_NOT_ACCEPTED',
      message: 'Resource method endpoint invoked does not accept any request attachments.',
    });
    expect((await server.request('GET', '/photos/3')).status).toBe(200);
  });

  it('serves a plain request to a method that takes none (neither)', async () => {
    expect((await server.request('PUT', '/photos/1', { json: JSON.parse(PHOTO) })).status).toBe(204);
  });

  it('hands attachments to the attachments parameter of an action', async () => {
    const r = await sendRelated(server, 'POST', '/photos?action=upload', JSON.stringify({ label: 'L' }), [
      writerFromBytes('f', Buffer.from('hello')),
    ]);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ value: `L:${JSON.stringify({ f: sha(Buffer.from('hello')) })}` });
  });

  it("reads a request body written by Python's email package", async () => {
    const script = `
import sys
from email.mime.multipart import MIMEMultipart
from email.mime.application import MIMEApplication
from email import policy
msg = MIMEMultipart("related")
msg.attach(MIMEApplication(b'{"label":"py"}', "json", _encoder=lambda m: None))
part = MIMEApplication(b"from python", "octet-stream", _encoder=lambda m: None)
part["Content-ID"] = "<py-1>"
msg.attach(part)
raw = msg.as_bytes(policy=policy.HTTP)
head, _, body = raw.partition(b"\\r\\n\\r\\n")
ct = [l for l in head.split(b"\\r\\n") if l.lower().startswith(b"content-type:")][0].split(b":", 1)[1].strip()
sys.stdout.buffer.write(ct + b"\\n" + body)
`;
    const out = execFileSync('python3', ['-c', script]);
    const nl = out.indexOf(10);
    const r = await sendRaw(
      server,
      'POST',
      '/photos?action=upload',
      out.subarray(0, nl).toString(),
      out.subarray(nl + 1),
    );
    expect(r.json).toEqual({ value: `py:${JSON.stringify({ 'py-1': sha(Buffer.from('from python')) })}` });
  });

  it.each([
    [
      'a first part without Content-Type',
      '--B\r\n\r\n{}\r\n--B--',
      400,
      'Incorrect multipart/related payload. First part must contain the Content-Type!',
    ],
    [
      'a first part of an unknown type',
      '--B\r\nContent-Type: text/csv\r\n\r\na,b\r\n--B--',
      415,
      'Unknown Content-Type for first part of multipart/related payload: text/csv',
    ],
    ['no parts', '--B--', 400, 'Did not receive any parts in the multipart mime request!'],
    [
      'a broken envelope',
      '--B\r\nContent-Type: application/json\r\n\r\n{"label":"x"}\r\n--B\r\nContent-ID: x\r\n\r\nabc',
      400,
      'Illegally formed multipart payload',
    ],
    [
      'an attachment without Content-ID',
      '--B\r\nContent-Type: application/json\r\n\r\n{"label":"x"}\r\n--B\r\nContent-Type: text/plain\r\n\r\nabc\r\n--B--',
      400,
      'missing the ContentID',
    ],
  ])('answers %s with its status', async (_name, raw, status, message) => {
    const r = await sendRaw(
      server,
      'POST',
      '/photos?action=upload',
      'multipart/related; boundary=B',
      Buffer.from(raw),
    );
    expect(r.status).toBe(status);
    expect(String(r.json.message)).toContain(message);
    expect((await server.request('GET', '/photos/3')).status).toBe(200);
  });

  it('answers a payload over the body limit with 413', async () => {
    const small = await startServer({ resources: [resource(probe)], maxBodyBytes: 100 });
    try {
      const r = await sendRelated(small, 'POST', '/photos', JSON.stringify({ title: 'x'.repeat(500) }), []);
      expect(r.status).toBe(413);
    } finally {
      await small.close();
    }
  });

  it('streams 64 MiB generated on the fly, checksummed at the far end', async () => {
    const size = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 5);
    async function* generate(): AsyncGenerator<Uint8Array> {
      for (let sent = 0; sent < size; sent += chunk.length) {
        await Promise.resolve();
        yield chunk;
      }
    }
    const expected = createHash('sha256');
    for (let i = 0; i < size / chunk.length; i++) expected.update(chunk);
    const r = await sendRelated(server, 'POST', '/photos', PHOTO, [
      writerFromAsyncIterable('big', generate()),
    ]);
    expect(r.status).toBe(201);
    expect(probe.seen.at(-1)).toEqual({ big: `${size}:${expected.digest('hex').slice(0, 16)}` });
  });
});

describe('streaming behaviour', () => {
  it('reads many attachments in one message', async () => {
    const probe: Probe = { aborted: [], seen: [] };
    const server = await startServer({ resources: [resource(probe)] });
    try {
      const blobs = Array.from({ length: 200 }, (_, i) => Buffer.alloc(i * 13, i % 256));
      const r = await sendRelated(
        server,
        'POST',
        '/photos',
        PHOTO,
        blobs.map((b, i) => writerFromBytes(`m${i}`, b, 1000)),
      );
      expect(r.status).toBe(201);
      expect(Object.keys(probe.seen[0]!)).toHaveLength(200);
      expect(probe.seen[0]!['m199']).toBe(sha(blobs[199]!));
    } finally {
      await server.close();
    }
  });

  it('holds the upload while a slow consumer works, reading at its pace', async () => {
    let read = 0;
    let produced = 0;
    let maxAhead = 0;
    const slow = collection({
      name: 'photos',
      key: LONG_KEY,
      value: Photo,
      methods: {
        create: withAttachments(async (attachments) => {
          // asynchronous work per chunk: consumeChunks asks for the next chunk only when the work is done
          await lastValueFrom(
            attachments$(attachments!).pipe(
              concatMap((a) =>
                consumeChunks(
                  (demand$) => attachmentChunks$(a.reader, demand$),
                  async (c) => {
                    read += c.length;
                    maxAhead = Math.max(maxAhead, produced - read);
                    await new Promise((r) => setTimeout(r, 1));
                  },
                ),
              ),
            ),
            { defaultValue: undefined },
          );
          return { id: 1 };
        }),
      },
    });
    const server = await startServer({ resources: [slow], validation: false });
    try {
      const chunk = Buffer.alloc(64 * 1024, 1);
      async function* generate(): AsyncGenerator<Uint8Array> {
        for (let i = 0; i < 256; i++) {
          await Promise.resolve();
          produced += chunk.length;
          yield chunk;
        }
      }
      const r = await sendRelated(server, 'POST', '/photos', '{}', [
        writerFromAsyncIterable('slow', generate()),
      ]);
      expect(r.status).toBe(201);
      expect(read).toBe(16 * 1024 * 1024);
      // the client could not run ahead of the consumer by more than the buffers between them (sockets, parser)
      expect(maxAhead).toBeLessThan(8 * 1024 * 1024);
    } finally {
      await server.close();
    }
  });

  it("fails the handler's reader when the client aborts mid-upload, and keeps serving", async () => {
    const errors: string[] = [];
    let received = 0;
    const victim = collection({
      name: 'photos',
      key: LONG_KEY,
      value: Photo,
      methods: {
        create: withAttachments(async (attachments) => {
          try {
            await lastValueFrom(
              attachments$(attachments!).pipe(
                concatMap((a) => a.data$),
                map((c) => (received += c.length)),
              ),
              { defaultValue: undefined },
            );
          } catch (e) {
            errors.push((e as Error).name);
            throw e;
          }
          return { id: 1 };
        }),
        get: () => makePhoto(1, 'still here'),
      },
    });
    const server = await startServer({ resources: [victim], validation: false });
    try {
      const upload = await server.open('POST', '/photos', {
        'content-type': 'multipart/related; boundary=B',
      });
      upload.write(
        '--B\r\nContent-Type: application/json\r\n\r\n{}\r\n--B\r\nContent-ID: a\r\n\r\n' +
          'x'.repeat(100_000),
      );
      // mid-upload: the handler is reading the attachment, which has not ended
      await until(() => received > 0);
      upload.abort();
      await until(() => errors.length === 1);
      expect(errors[0]).toBe('AttachmentAbortedError');
      expect((await server.request('GET', '/photos/1')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('multi-GB attachments', () => {
  // SVC_ATTACHMENT_GIB=8 for a longer run; 2 GiB in the suite (a few seconds), 0.25 over HTTP/2, whose TLS
  // and framing cost ~10× more CPU per byte in one process (the demand itself is shown by the slow consumer)
  const gib = Number(process.env.SVC_ATTACHMENT_GIB ?? (TEST_PROTOCOL === 'h2' ? '0.25' : '2'));
  it(`streams ${gib} GiB generated on the fly through the server, checksummed at the far end`, async () => {
    const size = gib * 1024 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 131) % 251;
    let sent = 0;
    let sentCrc = 0;
    async function* generate(): AsyncGenerator<Uint8Array> {
      while (sent < size) {
        await Promise.resolve();
        sent += chunk.length;
        sentCrc = crc32(chunk, sentCrc);
        yield chunk;
      }
    }
    let received = 0;
    let receivedCrc = 0;
    let peakRss = 0;
    const huge = collection({
      name: 'photos',
      key: LONG_KEY,
      value: Photo,
      methods: {
        create: withAttachments(async (attachments) => {
          await lastValueFrom(
            attachments$(attachments!).pipe(
              concatMap((a) => a.data$),
              map((c) => {
                received += c.length;
                receivedCrc = crc32(c, receivedCrc);
                if ((received & 0x7ffffff) === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
              }),
            ),
            { defaultValue: undefined },
          );
          return { id: 1 };
        }),
      },
    });
    const server = await startServer({ resources: [huge], validation: false });
    try {
      const rssBefore = process.memoryUsage().rss;
      const r = await sendRelated(server, 'POST', '/photos', '{}', [
        writerFromAsyncIterable('huge', generate()),
      ]);
      expect(r.status).toBe(201);
      expect(received).toBe(size);
      expect(receivedCrc).toBe(sentCrc);
      // memory does not grow with the attachment (client and server share this process)
      expect(peakRss - rssBefore).toBeLessThan(256 * 1024 * 1024);
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('response attachments', () => {
  let server: TestServer;
  const probe: Probe = { aborted: [], seen: [] };
  beforeAll(async () => {
    server = await startServer({ resources: [resource(probe)] });
  });
  afterAll(() => server.close());

  async function getRaw(
    path: string,
    accept: string,
  ): Promise<{ status: number; contentType: string; body: Buffer }> {
    const r = await server.request('GET', path, { headers: { accept } });
    return {
      status: r.status,
      contentType: String(r.headers.get('content-type')),
      body: Buffer.from(r.bytes),
    };
  }

  it('sends them as multipart/related when the client accepts them', async () => {
    const r = await getRaw('/photos/5000', 'application/json, multipart/related;q=0.5');
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^multipart\/related; boundary=[-_0-9a-zA-Z]{56}$/);
    const m = decodeRelated(Readable.from([r.body]), r.contentType);
    const payload = await m.payload;
    expect(payload.contentType).toBe('application/json');
    expect(JSON.parse(Buffer.from(payload.bytes).toString())).toMatchObject({ title: 'image 5000' });
    const reader = (await m.attachments)!;
    expect(await digestAll(reader)).toEqual({ image: sha(Buffer.alloc(5000, 7)) });
  });

  it.each([
    ['multipart/related', true],
    ['MultiPart/Related', true],
    ['application/json ,  multipart/related', true],
    ['multipart/related;q=0', true],
    ['application/json,multipart/related', true],
    ['application/json, multipart/relate', false],
    ['application/json, multipart/related-x', false],
    ['*/*;q=0.1, application/json', false],
    ['application/json', false],
    ['*/*', false],
    ['', false],
  ])('tells a handler whether Accept %j takes response attachments (%s)', async (accept, takes) => {
    const r = await getRaw('/photos/10', accept);
    expect(r.status).toBe(200);
    expect(r.contentType.startsWith('multipart/related; boundary=')).toBe(takes);
  });

  it('refuses setResponseAttachments when the client did not accept them, and answers plainly', async () => {
    const r = await getRaw('/photos/10', 'application/json');
    expect(r.contentType).toBe('application/json');
    expect(probe.aborted).toContain(
      'refused:Response attachments can only be set if the client request indicates permissibility',
    );
  });

  it('aborts the response attachments of a failed request and sends the error as a plain body', async () => {
    const r = await getRaw('/photos/666', 'multipart/related');
    expect(r.status).toBe(500);
    expect(r.contentType).toBe('application/json');
    expect(probe.aborted).toContain('image:AttachmentAbortedError');
  });

  it('aborts the writers when the client hangs up mid-download, and keeps serving', async () => {
    const download = await server.open('GET', '/photos?q=endless', { accept: 'multipart/related' });
    await until(() => download.received() > 1_000_000);
    download.abort();
    await until(() => probe.aborted.includes('endless:AttachmentAbortedError'));
    expect((await getRaw('/photos/3', 'application/json')).status).toBe(200);
  });
});

void from;

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}
