/**
 * The page browser-client.test.ts bundles (esbuild, `svc-framework` → the client entry) and runs in
 * headless Chromium against the running example: the typed client built from the example's interfaces,
 * as a front end would use it. Each step returns plain values for the test to compare.
 */
import {
  type ClientFilter,
  GetMode,
  attachmentStreams,
  createDefaultCodecRegistry,
  createCoreClient,
  createResourceClient,
  entity,
  find,
  get,
  rxForms,
  webAttachments,
  writerFromBlob,
} from 'svc-framework/client';
import { firstValueFrom } from 'rxjs';
import { exampleInterfaces } from '../../../examples/interfaces';
import { Photo } from '../../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoCriteria } from '../../../examples/src/main/generated/com/example/photos/PhotoCriteria';
import { PhotoFormat } from '../../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { PhotoStatus } from '../../../examples/src/main/generated/com/example/photos/PhotoStatus';
// the photos interface as a browser user gets it: `svc idl import` of the example's snapshot (one module
// per resource, its own generated classes; `npm run generate`), as the client-size bench's page imports it
import { photosInterface as importedPhotos } from '../../generated/idl-example/com/example/photos/photos.interface';
import { HALF_BYTES, probesInterface } from './probe-interface';

/** What the page's requests looked like on the wire, for the test to check tunnelling and media types. */
const wire: Array<{ method: string; override?: string; contentType?: string; answered?: string }> = [];
const record: ClientFilter = async (req, next) => {
  const res = await next(req);
  const override = req.headers['X-HTTP-Method-Override'];
  const contentType = req.headers['Content-Type'];
  wire.push({
    method: req.method,
    ...(override === undefined ? {} : { override }),
    ...(contentType === undefined ? {} : { contentType: contentType.split(';')[0]! }),
    ...(res.headers['content-type'] === undefined
      ? {}
      : { answered: res.headers['content-type'].split(';')[0]! }),
  });
  return res;
};

function client(baseUrl: string, pson = false) {
  return createResourceClient(
    {
      baseUrl,
      filters: [record],
      // attachments and the Observable forms are opt-in in the browser entry (README.md, "Size")
      attachments: webAttachments,
      // PSON is opt-in in the browser entry: its default codecs are JSON only
      ...(pson
        ? {
            contentType: 'application/x-pson',
            accept: ['application/x-pson'],
            codecs: createDefaultCodecRegistry(),
          }
        : {}),
    },
    exampleInterfaces,
    { rx: rxForms },
  );
}

/** How a call with attachments ends on a client that did not turn them on. */
function withoutAttachments(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'answered',
    (err: unknown) => `rejected: ${(err as Error).name} (${(err as { option?: string }).option})`,
  );
}

/** A JPEG-looking image of `size` bytes, made in the page as a front end would get one from a file input. */
function imageBlob(size: number): Blob {
  const bytes = new Uint8Array(size).fill(7);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return new Blob([bytes], { type: 'image/jpeg' });
}

async function calls(baseUrl: string) {
  const api = client(baseUrl);
  const out: Record<string, unknown> = {};

  out.get = (await api.photos.get(1)).entity.getTitle();
  out.rx = (await firstValueFrom(api.photos.rx.get(1).pipe(entity()))).getTitle();
  // the per-method form (modular.ts): a finder imported on its own, on a client of options only
  const modular = await find(
    createCoreClient({ baseUrl }),
    exampleInterfaces.photos,
    'titleAndOrFormat',
    { format: PhotoFormat.JPEG },
    { start: 1, count: 2 },
  );
  out.modular = modular.elements.map((p) => p.getTitle());
  // the client-size bench's page: the per-method get over the idl-imported interface and its classes
  out.modularGet = (await get(createCoreClient({ baseUrl }), importedPhotos, 1)).entity.getTitle();

  const page = await api.photos.finders.titleAndOrFormat(
    { format: PhotoFormat.JPEG },
    { start: 1, count: 2 },
  );
  out.finder = {
    titles: page.elements.map((p) => p.getTitle()),
    paging: [page.paging?.start, page.paging?.count, page.paging?.total],
  };

  const criteria = [
    new PhotoCriteria().setTitle('Sunrise over the bay').setFormat(PhotoFormat.JPEG),
    new PhotoCriteria().setTitle('nowhere').setFormat(PhotoFormat.PNG),
  ];
  const batch = await api.photos.batchFinders.searchPhotos(criteria, {}, { count: 5 });
  out.batchFinder = batch.results.map((r) => (r.isError ? r.error?.status : r.elements.length));

  const created = await api.photos.create(
    new Photo().setTitle('From the browser').setFormat(PhotoFormat.PNG),
  );
  out.create = [created.status, (await api.photos.get(created.id!)).entity.getTitle()];

  const ids = Array.from({ length: 5000 }, (_, i) => i + 1);
  wire.length = 0;
  const many = await api.photos.batchGet(ids);
  out.batchGet = { found: many.results.size, missing: many.errors.size, wire: [...wire] };

  wire.length = 0;
  const pson = await client(baseUrl, true).photos.get(2);
  out.pson = { title: pson.entity.getTitle(), wire: [...wire] };

  const image = imageBlob(300_000);
  const uploaded = await api.photos.create(
    new Photo().setTitle('Uploaded from a Blob').setFormat(PhotoFormat.JPEG).setImage('cid:from-blob'),
    { attachments: [writerFromBlob('from-blob', image)] },
  );
  // the image is the processing job's until it is done (as test/e2e/client-attachments.test.ts waits)
  for (let i = 0; i < 1000; i++) {
    const status = (await api.photos.get(uploaded.id!)).entity.getStatus(GetMode.NULL);
    if (status !== PhotoStatus.PENDING) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // the image back as a response attachment, read as a web stream
  const got = await api.photos.get(uploaded.id!, { acceptResponseAttachments: true });
  const downloads: Array<[string, number, number]> = [];
  const reader = got.getAttachmentReader();
  if (reader !== undefined) {
    for await (const { id, stream } of attachmentStreams(reader)) {
      const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
      downloads.push([
        id === got.entity.getImage()?.slice(4) ? 'the image' : id,
        bytes.byteLength,
        bytes[1]!,
      ]);
    }
  }
  out.upload = { status: uploaded.status, downloads };
  const plain = createResourceClient({ baseUrl }, exampleInterfaces);
  out.withoutAttachments = [
    await withoutAttachments(
      plain.photos.create(new Photo().setTitle('Not sent').setFormat(PhotoFormat.JPEG), {
        attachments: [writerFromBlob('x', imageBlob(10))],
      }),
    ),
    await withoutAttachments(plain.photos.get(uploaded.id!, { acceptResponseAttachments: true })),
  ];
  return out;
}

/** The relay call the test cancels: it hangs on the test's upstream until the page aborts it. */
let relay: { controller: AbortController; outcome: Promise<string> } | undefined;

function startRelay(baseUrl: string): void {
  const controller = new AbortController();
  const outcome = client(baseUrl)
    .photos.actions.relay(
      { photo: new Photo().setTitle('Relayed').setFormat(PhotoFormat.JPEG).setImage('cid:relayed') },
      { attachments: [writerFromBlob('relayed', imageBlob(1 << 20))], signal: controller.signal },
    )
    .then(
      () => 'answered',
      (err: unknown) => `rejected: ${(err as Error).name}`,
    );
  relay = { controller, outcome };
}

/** How the relay call ended, if it did (the test races it with the upstream's arrival). */
function relayOutcome(): Promise<string> {
  return relay!.outcome;
}

function abortRelay(): Promise<string> {
  relay!.controller.abort(new DOMException('the user left', 'AbortError'));
  return relay!.outcome;
}

/** The probe finder that never answers, and the controller that cancels it. */
let hang: { controller: AbortController; outcome: Promise<string> } | undefined;

function startHang(probeUrl: string): void {
  const controller = new AbortController();
  const api = createResourceClient({ baseUrl: probeUrl }, { probes: probesInterface });
  const outcome = api.probes.finders.hang({}, { signal: controller.signal }).then(
    () => 'answered',
    (err: unknown) => `rejected: ${(err as Error).name}`,
  );
  hang = { controller, outcome };
}

function abortHang(): Promise<string> {
  hang!.controller.abort(new DOMException('the user left', 'AbortError'));
  return hang!.outcome;
}

/** The probe download, read as a web stream: how much came before the server was let go, and in all. */
let download:
  { reader: ReadableStreamDefaultReader<Uint8Array>; early: number; title: string; id: string } | undefined;

/** Starts the download and reads its attachment until the first half has come (the server holds the rest). */
async function startDownload(probeUrl: string): Promise<{ title: string; id: string; early: number }> {
  const api = createResourceClient(
    { baseUrl: probeUrl, attachments: webAttachments },
    { probes: probesInterface },
  );
  const got = await api.probes.get(1, { acceptResponseAttachments: true });
  const next = await attachmentStreams(got.getAttachmentReader()!).next();
  const { id, stream } = next.value!;
  const reader = stream.getReader();
  let early = 0;
  while (early < HALF_BYTES) {
    const r = await reader.read();
    if (r.done) break;
    // only As can have come: the Bs are written once the test releases them
    if (r.value.some((b: number) => b !== 0x41)) throw new Error('a byte of the second half came early');
    early += r.value.byteLength;
  }
  download = { reader, early, title: got.entity.getTitle(), id };
  return { title: download.title, id, early };
}

/** Reads the rest of the download (after the test released it). */
async function finishDownload(): Promise<{ total: number; last: number }> {
  const d = download!;
  let total = d.early;
  let last = 0;
  for (let r = await d.reader.read(); !r.done; r = await d.reader.read()) {
    total += r.value.byteLength;
    last = r.value[r.value.byteLength - 1]!;
  }
  return { total, last };
}

(globalThis as Record<string, unknown>).svcPage = {
  calls,
  startRelay,
  relayOutcome,
  abortRelay,
  startHang,
  abortHang,
  startDownload,
  finishDownload,
};
