/**
 * The example service called through the typed client, built from the resources' interfaces alone
 * (`interfaces.ts`: keys, Photo/Album/AlbumEntry classes, finder parameters, action returns): nothing of
 * the server (handlers, store) is imported. Start the service (`npm start`), then:
 *
 *   node -r @swc-node/register examples/client.ts
 *
 * It calls http://127.0.0.1:8080, or the port in `PORT` (as `npm start` reads it: `PORT=8081 npm start`,
 * then `PORT=8081 node ... examples/client.ts`), or `BASE_URL` when set (`BASE_URL=http://host:port`).
 * It also uploads `data/sunrise.png` as a new photo's image (streamed from disk), waits for the image to be
 * processed, and downloads it (streamed to a file in `DOWNLOAD_DIR`, default the OS temp directory).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  ServiceResponseError,
  attachmentStreams,
  createResourceClient,
  diffPatch,
  isSvcError,
  withContentType,
  writerFromAsyncIterable,
} from 'svc-framework';
import { exampleInterfaces } from './interfaces';
import { Photo } from './src/main/generated/com/example/photos/Photo';
import { PhotoFormat } from './src/main/generated/com/example/photos/PhotoFormat';
import { PhotoStatus } from './src/main/generated/com/example/photos/PhotoStatus';

/** The image the client uploads: a small PNG. */
export const SAMPLE_IMAGE = path.join(__dirname, 'data/sunrise.png');

/** Where downloads go: `DOWNLOAD_DIR`, else the OS temp directory. */
export function downloadDir(env: Readonly<Record<string, string | undefined>>): string {
  const dir = env['DOWNLOAD_DIR'];
  return dir !== undefined && dir !== '' ? dir : os.tmpdir();
}

export async function main(
  baseUrl: string,
  print: (line: string) => void,
  downloads: string = os.tmpdir(),
): Promise<void> {
  const api = createResourceClient({ baseUrl }, exampleInterfaces);

  const batch = await api.photos.batchGet([1, 2, 3], { fields: 'title,format' });
  for (const [id, photo] of batch.results) print(`photo ${id}: ${photo.getTitle()} (${photo.getFormat()})`);

  const jpegs = await api.photos.finders.titleAndOrFormat({ format: PhotoFormat.JPEG }, { count: 2 });
  print(`JPEG photos: ${jpegs.elements.map((p) => p.getTitle()).join(', ')} (total ${jpegs.paging?.total})`);

  const trips = await api.albumEntries.finders.byAlbum({ albumId: 1 });
  print(`album 1 holds photos ${trips.elements.map((e) => e.getPhotoId()).join(', ')}`);

  const before = (await api.photos.get(2)).entity;
  const patched = await api.photos.partialUpdate(
    2,
    diffPatch(before, before.copy().setTitle('Harbour at night')),
  );
  print(`renamed photo 2 to '${patched.entity?.getTitle()}'`);

  const tags = await api.photos.entityActions.addTag(2, { tag: 'favourite' });
  print(`photo 2 has ${tags.value} tags`);

  try {
    await api.albums.get(404);
  } catch (err) {
    if (!(err instanceof ServiceResponseError)) throw err;
    print(`album 404: ${err.status} ${err.errorResponse?.message}`);
  }

  // an upload: the photo points at its image (`cid:<attachment id>`), which is streamed from disk as the
  // request's attachment (multipart/related), never read whole into memory
  const upload = new Photo().setTitle('Sunrise, uploaded').setFormat(PhotoFormat.PNG).setImage('cid:upload');
  const created = await api.photos.create(upload, {
    attachments: [
      withContentType(writerFromAsyncIterable('upload', createReadStream(SAMPLE_IMAGE)), 'image/png'),
    ],
  });
  const id = created.id!;
  print(`uploaded photo ${id}: ${created.entity?.getStatus()}, job ${created.entity?.getProcessingJob()}`);

  // the image is processed in the background (GET /jobs/<id> follows the job); the photo says when it is done
  let status = created.entity?.getStatus();
  for (let tries = 0; status === PhotoStatus.PENDING && tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await api.photos.get(id)).entity.getStatus();
  }
  print(`photo ${id} is ${status}`);

  // the download: the image comes as a response attachment, streamed to a file as it arrives
  const got = await api.photos.get(id, { acceptResponseAttachments: true });
  const reader = got.getAttachmentReader();
  if (reader === undefined) throw new Error(`photo ${id} came without its image`);
  for await (const { id: attachmentId, stream } of attachmentStreams(reader)) {
    const file = path.join(downloads, `photo-${id}.png`);
    await pipeline(stream, createWriteStream(file));
    print(`downloaded ${got.entity.getImage()} (attachment ${attachmentId}) to ${file}`);
  }
}

/** The service's base URL: `BASE_URL`, else http://127.0.0.1 on `PORT` (default 8080), as npm start uses. */
export function exampleBaseUrl(env: Readonly<Record<string, string | undefined>>): string {
  const baseUrl = env['BASE_URL'];
  if (baseUrl !== undefined && baseUrl !== '') return baseUrl;
  const port = env['PORT'];
  return `http://127.0.0.1:${port !== undefined && port !== '' ? port : '8080'}`;
}

/** The line printed when the service cannot be reached: the usual cause is that it is not running there. */
export function unreachableMessage(err: unknown, baseUrl: string): string | undefined {
  if (!isSvcError(err, 'TransportError')) return undefined;
  const cause = (err.cause as NodeJS.ErrnoException | undefined)?.code;
  if (cause !== 'ECONNREFUSED') return undefined;
  return (
    `Nothing answers at ${baseUrl}: start the example service with \`npm start\` ` +
    '(if it runs on another port, set PORT to it here too, or BASE_URL).'
  );
}

if (require.main === module) {
  const baseUrl = exampleBaseUrl(process.env);
  main(baseUrl, (line) => console.log(line), downloadDir(process.env)).catch((err: unknown) => {
    console.error(unreachableMessage(err, baseUrl) ?? (err instanceof Error ? err.message : err));
    process.exitCode = 1;
  });
}
