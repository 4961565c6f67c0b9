/**
 * Uploads that cannot be stored, over real HTTP with real multipart bytes and real file-system faults: the
 * upload is answered with a clear 5xx `ErrorResponse`, no partial blob is ever visible, no job is added,
 * and the service keeps serving.
 */
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AttachmentQueue, FileBlobStore, InProcessDriver } from '../../src/queue';
import { type UploadService, sendUpload, startUploadService } from './support/upload-service';

let dir: string;
let queue: AttachmentQueue | undefined;
let service: UploadService | undefined;

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-upload-faults-'));
});
afterEach(async () => {
  await service?.close();
  await queue?.close({ timeoutMs: 1000 });
  spawnSync('umount', [path.join(dir, 'small')], { stdio: 'ignore' });
  await fsp.rm(dir, { recursive: true, force: true });
  service = undefined;
  queue = undefined;
});

async function open(blobDir: string): Promise<UploadService> {
  queue = new AttachmentQueue({
    blobs: await FileBlobStore.open({ dir: blobDir }),
    driver: new InProcessDriver(),
  });
  service = await startUploadService(queue);
  return service;
}

/** A 1 MiB file system, when this machine lets the tests mount one (root in a container that allows it). */
async function smallFileSystem(): Promise<string | undefined> {
  const mountPoint = path.join(dir, 'small');
  await fsp.mkdir(mountPoint);
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint], { stdio: 'ignore' });
  return r.status === 0 ? mountPoint : undefined;
}

describe('uploads that cannot be stored', () => {
  it('answers 507 when the blob directory cannot be written, leaving nothing', async () => {
    const s = await open(dir);
    // the directory for writes in progress is replaced by a file: every write fails (ENOTDIR), as on a
    // directory the service may not write to (permissions do not stop root, which the tests may run as)
    await fsp.rm(path.join(dir, 'partial'), { recursive: true });
    await fsp.writeFile(path.join(dir, 'partial'), 'not a directory');
    const r = await sendUpload(s.port, 200_000);
    expect(r.status).toBe(507);
    expect(r.json).toMatchObject({ status: 507, code: 'SVC_ERR_QUEUE_BLOB_WRITE' });
    expect(r.json.message).toBe(
      'The attachment could not be stored: the blob directory is missing or not a directory (ENOTDIR)',
    );
    expect(await fsp.readdir(path.join(dir, 'blobs'))).toEqual([]);
    expect((await queue!.list('WAITING', 0, 10)).total).toBe(0);
  });

  it('answers 507 when the disk fills up mid-upload, leaving no partial blob', async () => {
    const small = await smallFileSystem();
    if (small === undefined) {
      // cannot fill a disk for real here; the unwritable-directory row above covers the same path
      console.warn(
        'skipped: this machine does not let tests mount a small tmpfs (needs root and CAP_SYS_ADMIN)',
      );
      return;
    }
    const s = await open(small);
    const r = await sendUpload(s.port, 3 * 1024 * 1024);
    expect(r.status).toBe(507);
    expect(r.json.message).toBe('The attachment could not be stored: the disk is full (ENOSPC)');
    expect(await fsp.readdir(path.join(small, 'blobs'))).toEqual([]);
    for (const sub of await fsp.readdir(path.join(small, 'partial')))
      expect(await fsp.readdir(path.join(small, 'partial', sub))).toEqual([]);
    // the service keeps serving: a small upload fits and is queued
    const ok = await sendUpload(s.port, 10_000);
    expect(ok.status).toBe(200);
    expect(await fsp.readdir(path.join(small, 'blobs'))).toHaveLength(1);
  });
});
