/**
 * Attachments through the client over real HTTP (brief, "Client API for attachments"): sending them with a
 * request (`attachments`), receiving them (`acceptResponseAttachments`, `hasAttachments()`,
 * `getAttachmentReader()`), and the example's relay forwarding an upload hop to hop, checksums intact.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { concatMap, lastValueFrom, map, toArray } from 'rxjs';
import {
  type AttachmentReader,
  GetMode,
  RequestAttachments,
  attachments$,
  createResourceClient,
  writerFromAsyncIterable,
  writerFromBytes,
} from '../../src';
import { createExampleApp } from '../../examples/app';
import { exampleResources } from '../../examples/resources';
import { ImageStore } from '../../examples/images';
import { PhotoLibrary, seededLibrary } from '../../examples/store';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { PhotoStatus } from '../../examples/src/main/generated/com/example/photos/PhotoStatus';
import { tempDirs } from '../support/temp-dirs';

const [photos] = exampleResources(new PhotoLibrary());
const tempDir = tempDirs('svc-client-attachments-');

async function start(
  upstream?: string,
): Promise<{ app: FastifyInstance; baseUrl: string; lib: PhotoLibrary }> {
  // images in a directory of this file's, removed after its tests (the default is one per process)
  const lib = seededLibrary(new ImageStore(tempDir()));
  const app = await createExampleApp({ library: lib, ...(upstream === undefined ? {} : { upstream }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, lib, baseUrl: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}

async function readAll(reader: AttachmentReader | undefined): Promise<Array<readonly [string, Buffer]>> {
  if (reader === undefined) return [];
  return lastValueFrom(
    attachments$(reader).pipe(
      concatMap((a) =>
        a.data$.pipe(
          toArray(),
          map((c) => [a.id, Buffer.concat(c)] as const),
        ),
      ),
      toArray(),
    ),
  );
}

const digest = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);

/** Waits (bounded) until the uploaded image of photo `id` is processed (READY), as downloads need. */
async function processed(lib: PhotoLibrary, id: number | bigint): Promise<void> {
  const until = Date.now() + 20_000;
  while (lib.getPhoto(id)?.getStatus(GetMode.NULL) === PhotoStatus.PENDING && Date.now() < until)
    await new Promise((r) => setTimeout(r, 20));
  expect(lib.getPhoto(id)?.getStatus(GetMode.NULL)).toBe(PhotoStatus.READY);
}

describe('client attachments', () => {
  let server: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.app.close());

  it('sends attachments with a create and receives them with a get', async () => {
    const api = createResourceClient({ baseUrl: server.baseUrl }, { photos });
    const image = Buffer.from(Array.from({ length: 1_000_003 }, (_, i) => (i * 7) % 256));
    PNG_SIGNATURE.copy(image); // processing keeps only uploads that look like images
    const photo = new Photo().setTitle('Sent by the client').setFormat(PhotoFormat.PNG).setImage('cid:pic');
    const created = await api.photos.create(photo, {
      attachments: RequestAttachments.builder()
        .appendSingleAttachment(writerFromBytes('pic', image, 65_536))
        .build(),
    });
    expect(created.status).toBe(201);
    expect(created.hasAttachments()).toBe(false);
    await processed(server.lib, created.id!);

    const plain = await api.photos.get(created.id!);
    expect(plain.hasAttachments()).toBe(false);
    expect(plain.getAttachmentReader()).toBeUndefined();

    const rich = await api.photos.get(created.id!, { acceptResponseAttachments: true });
    expect(rich.hasAttachments()).toBe(true);
    const got = await readAll(rich.getAttachmentReader());
    expect(got).toHaveLength(1);
    expect(rich.entity.getImage()).toBe(`cid:${got[0]![0]}`);
    expect(rich.entity.getTitle()).toBe('Sent by the client');
    expect(digest(got[0]![1])).toBe(digest(image));
  });

  it('refuses attachments on a request without a body before sending', async () => {
    const api = createResourceClient({ baseUrl: server.baseUrl }, { photos });
    await expect(
      api.photos.get(1, { attachments: [writerFromBytes('x', Buffer.from('x'))] }),
    ).rejects.toThrow(/has no body to carry attachments/);
  });

  it('aborts the writers when the call is aborted mid-upload', async () => {
    const api = createResourceClient({ baseUrl: server.baseUrl }, { photos });
    const aborted: string[] = [];
    let sent = 0;
    async function* forever(): AsyncGenerator<Uint8Array> {
      for (;;) {
        await new Promise((r) => setTimeout(r, 1));
        sent++;
        yield Buffer.alloc(64 * 1024, 1);
      }
    }
    const endless = writerFromAsyncIterable('endless', forever());
    const controller = new AbortController();
    const call = api.photos.create(
      new Photo().setTitle('never').setFormat(PhotoFormat.PNG).setImage('cid:endless'),
      {
        attachments: [
          {
            ...endless,
            onAbort: (e) => {
              aborted.push(e.name);
              endless.onAbort(e);
            },
          },
        ],
        signal: controller.signal,
      },
    );
    // mid-upload: some of the attachment is on its way
    await until(() => sent >= 4);
    controller.abort(new Error('enough'));
    await expect(call).rejects.toThrow('enough');
    await until(() => aborted.length === 1);
    // the server keeps serving
    expect((await api.photos.get(1)).status).toBe(200);
  });
});

describe('relay: an upload forwarded hop to hop', () => {
  let downstream: Awaited<ReturnType<typeof start>>;
  let relay: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    downstream = await start();
    relay = await start(downstream.baseUrl);
  });
  afterAll(async () => {
    await relay.app.close();
    await downstream.app.close();
  });

  it('creates the photo downstream with the image streamed through, checksum intact', async () => {
    const api = createResourceClient({ baseUrl: relay.baseUrl }, { photos });
    const chunk = Buffer.alloc(256 * 1024, 9);
    const first = Buffer.concat([JPEG_SIGNATURE, chunk.subarray(JPEG_SIGNATURE.length)]);
    const hash = createHash('sha256');
    async function* generate(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 64; i++) {
        await Promise.resolve();
        const c = i === 0 ? first : chunk;
        hash.update(c);
        yield c;
      }
    }
    const photo = new Photo().setTitle('Relayed').setFormat(PhotoFormat.JPEG).setImage('cid:relayed');
    const r = await api.photos.actions.relay(
      { photo },
      { attachments: [writerFromAsyncIterable('relayed', generate())] },
    );
    const id = r.value;
    expect(relay.lib.getPhoto(id)).toBeUndefined();
    expect(downstream.lib.getPhoto(id)?.getTitle()).toBe('Relayed');
    await processed(downstream.lib, id);
    const down = createResourceClient({ baseUrl: downstream.baseUrl }, { photos });
    const got = await readAll(
      (await down.photos.get(id, { acceptResponseAttachments: true })).getAttachmentReader(),
    );
    expect(got[0]![1].length).toBe(16 * 1024 * 1024);
    expect(digest(got[0]![1])).toBe(hash.digest('hex'));
  });

  it('answers 501 where no upstream is configured', async () => {
    const api = createResourceClient({ baseUrl: downstream.baseUrl }, { photos });
    await expect(
      api.photos.actions.relay({ photo: new Photo().setTitle('x').setFormat(PhotoFormat.PNG) }),
    ).rejects.toMatchObject({ status: 501 });
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}
