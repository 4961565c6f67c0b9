/**
 * Clients that hang up mid-transfer, over real HTTP (issue 13: "client abort mid-upload and mid-download
 * (writers aborted, no leaked sockets or file handles, server keeps serving)"). The handlers are written as a
 * service would write them: an upload streamed into a file with `pipeline`, a download read from a file
 * with `writerFromAsyncIterable(createReadStream(...))`, and a relay forwarding an incoming attachment
 * onward. After the client destroys its socket, the server side hears of it (the reader's stream error, the
 * writer's `onAbort`), its files are closed, its sockets and the process's file descriptors return to what
 * they were before, and the next request is answered. Nothing is timed: each check waits for its event,
 * with a generous bound.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { concatMap, from, lastValueFrom } from 'rxjs';
import {
  type AttachmentDataSourceWriter,
  LONG_KEY,
  ResponseAttachments,
  STRING,
  type SvcClient,
  action,
  attachmentChunks$,
  attachments$,
  attachmentsParam,
  collection,
  createClient,
  encodeRelated,
  toAsyncIterable,
  withAttachments,
  writerFromAsyncIterable,
} from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { type TestServer, startServer } from '../resources/support/http';
import { makePhoto } from '../resources/support/photos';

const MIB = 1024 * 1024;
/** The download: a sparse file, far larger than what the socket buffers between server and client hold. */
const DOWNLOAD_BYTES = 1024 * MIB;
/** What the client sends or receives before it hangs up. */
const CUT_AFTER = 8 * MIB;

/** What the handlers of one server saw. */
interface Probe {
  /** Bytes the upload handler has written to its file so far. */
  uploaded: number;
  /** `upload:<error name>`, `download:<error name>` (the writer's onAbort), `relay:<error name>`. */
  errors: string[];
  /** Files the handlers opened and have not closed yet. */
  openFiles: Set<string>;
}

const newProbe = (): Probe => ({ uploaded: 0, errors: [], openFiles: new Set() });

/** Watches a file stream's descriptor: in `open` from its `open` event to its `close` event. */
function tracked<T extends NodeJS.EventEmitter>(stream: T, name: string, open: Set<string>): T {
  stream.on('open', () => open.add(name));
  stream.on('close', () => open.delete(name));
  return stream;
}

/**
 * The service: `POST /files` streams its one attachment into a file of `dir` (removed if the upload breaks
 * off); `GET /files/<id>` with `Accept: multipart/related` sends the file `download` as an attachment;
 * `POST /files?action=relay` forwards its attachments to the same service at `upstream` (the documented
 * proxy idiom: the incoming reader appended to an outgoing request of the client).
 */
function filesResource(probe: Probe, dir: string, download: string, upstream?: string) {
  let client: SvcClient | undefined;
  return collection({
    name: 'files',
    key: LONG_KEY,
    value: Photo,
    methods: {
      create: withAttachments(async (attachments) => {
        const target = path.join(dir, `upload-${process.hrtime.bigint()}`);
        try {
          await lastValueFrom(
            attachments$(attachments!).pipe(
              concatMap((a) => {
                const source = Readable.from(toAsyncIterable((d$) => attachmentChunks$(a.reader, d$)));
                source.on('data', (c: Buffer) => {
                  probe.uploaded += c.length;
                });
                const file = tracked(fs.createWriteStream(target), 'upload', probe.openFiles);
                return from(pipeline(source, file));
              }),
            ),
            { defaultValue: undefined },
          );
        } catch (e) {
          probe.errors.push(`upload:${(e as Error).name}`);
          await fs.promises.rm(target, { force: true });
          throw e;
        }
        return { id: 1 };
      }),
      get: (id, ctx) => {
        if (ctx.responseAttachmentsSupported()) {
          const file = writerFromAsyncIterable(
            'file',
            tracked(fs.createReadStream(download), 'download', probe.openFiles),
          );
          const writer: AttachmentDataSourceWriter = {
            ...file,
            onAbort: (e) => {
              probe.errors.push(`download:${e.name}`);
              file.onAbort(e);
            },
          };
          ctx.setResponseAttachments(ResponseAttachments.builder().appendSingleAttachment(writer).build());
        }
        return makePhoto(id, 'file');
      },
      actions: {
        relay: action(
          { params: { label: STRING, files: attachmentsParam() }, returns: STRING },
          async ({ files }, ctx) => {
            client ??= createClient({ baseUrl: upstream! });
            try {
              await client.send({
                method: 'create',
                resource: 'files',
                body: makePhoto(1, 'relayed'),
                keySpec: LONG_KEY.spec,
                attachments: files === null ? [] : [files],
                signal: ctx.signal,
              });
            } catch (e) {
              probe.errors.push(`relay:${(e as Error).name}`);
              throw e;
            }
            return 'relayed';
          },
        ),
      },
    },
  });
}

/**
 * What the descriptors of this process point at (servers, clients and their files all live here): sockets
 * by inode, files by path. Compared as sets, not counts, so that a socket still closing when the baseline
 * was taken does not hide a leak, and a reused descriptor number does not pass for an old one.
 */
function openFds(): Set<string> {
  const targets = new Set<string>();
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      targets.add(fs.readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // the descriptor of the directory listing itself, closed by now
    }
  }
  return targets;
}

const connections = (server: TestServer): Promise<number> =>
  new Promise((resolve, reject) =>
    server.server.getConnections((e, n) => (e === null ? resolve(n) : reject(e))),
  );

/** Polls `condition` until it holds; fails naming `what` (with `state()`) after a generous bound. */
async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  state: () => unknown = () => undefined,
): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(state())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until no server holds a connection and the process holds no descriptor it did not hold at `baseline`. */
async function settled(servers: readonly TestServer[], baseline: ReadonlySet<string>): Promise<void> {
  let last: { connections: number[]; leaked: string[] } = { connections: [], leaked: [] };
  await waitFor(
    'sockets and descriptors back to baseline',
    async () => {
      last = {
        connections: await Promise.all(servers.map(connections)),
        leaked: [...openFds()].filter((t) => !baseline.has(t)),
      };
      return last.connections.every((n) => n === 0) && last.leaked.length === 0;
    },
    () => last,
  );
}

/** An endless attachment (64 KiB chunks, generated), with its writer's aborts recorded in `aborted`. */
function endless(aborted: string[]): AttachmentDataSourceWriter {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  async function* forever(): AsyncGenerator<Uint8Array> {
    for (;;) yield await Promise.resolve(chunk);
  }
  const writer = writerFromAsyncIterable('endless', forever());
  return {
    ...writer,
    onAbort: (e) => {
      aborted.push(e.name);
      writer.onAbort(e);
    },
  };
}

/**
 * Starts an upload of `writer` on a connection of its own, as the client transport sends it (a request
 * that goes away stops its body, and so the writers behind it). Resolves with the status when it completes.
 */
function upload(
  port: number,
  target: string,
  writer: AttachmentDataSourceWriter,
): { request: http.ClientRequest; response: Promise<number> } {
  const msg = encodeRelated({ contentType: 'application/json', bytes: Buffer.from('{"label":"x"}') }, [
    writer,
  ]);
  const request = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: target,
    agent: false,
    headers: { 'content-type': msg.contentType, 'x-svc-protocol-version': '2.0.0' },
  });
  const response = new Promise<number>((resolve, reject) => {
    request.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    request.on('error', reject);
  });
  request.on('close', () => {
    if (!msg.body.readableEnded) msg.body.destroy();
  });
  msg.body.on('error', (e) => request.destroy(e));
  msg.body.pipe(request);
  return { request, response };
}

/** GETs `target` accepting attachments on a connection of its own; resolves with the status and byte count. */
function download(
  port: number,
  target: string,
  onData: (received: number, request: http.ClientRequest, response: http.IncomingMessage) => void = () =>
    undefined,
): { request: http.ClientRequest; response: Promise<{ status: number; bytes: number }> } {
  const request = http.get({
    host: '127.0.0.1',
    port,
    path: target,
    agent: false,
    headers: { accept: 'multipart/related', 'x-svc-protocol-version': '2.0.0' },
  });
  const response = new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    request.on('response', (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        onData(bytes, request, res);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    request.on('error', reject);
  });
  return { request, response };
}

/** One complete upload and download, on a server of their own. */
async function warmUp(dir: string, file: string): Promise<void> {
  const probe = newProbe();
  const server = await startServer({ resources: [filesResource(probe, dir, file)], validation: false });
  try {
    const port = Number(new URL(server.base).port);
    const once = writerFromAsyncIterable('once', Readable.from([Buffer.alloc(1024, 2)]));
    expect(await upload(port, '/files', once).response).toBe(201);
    expect(await download(port, '/files/1').response).toEqual({ status: 200, bytes: expect.any(Number) });
    await fs.promises.rm(
      path.join(
        dir,
        (await fs.promises.readdir(dir)).find((f) => f.startsWith('upload-'))!,
      ),
    );
  } finally {
    await server.close();
  }
}

describe('a client that hangs up mid-transfer', () => {
  let dir: string;
  let big: string;
  let small: string;
  let probe: Probe;
  let server: TestServer;
  let port: number;

  beforeAll(async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'svc-attachment-abort-'));
    // sparse: a large file that costs no disk
    big = path.join(dir, 'big.bin');
    await fs.promises.writeFile(big, '');
    await fs.promises.truncate(big, DOWNLOAD_BYTES);
    small = path.join(dir, 'small.bin');
    await fs.promises.writeFile(small, Buffer.alloc(256 * 1024, 1));
    probe = newProbe();
    server = await startServer({ resources: [filesResource(probe, dir, big)], validation: false });
    port = Number(new URL(server.base).port);
    // a complete upload and download first, so that whatever a process opens once (the thread pool's
    // descriptors, the file system's) is open before the baselines are taken
    await warmUp(dir, small);
    probe.errors.length = 0;
  });

  afterAll(async () => {
    await server.close();
    await fs.promises.rm(dir, { recursive: true, force: true });
  });

  it('fails the reader of an upload cut off mid-attachment, closes the file it was writing, leaks no socket or descriptor, and keeps serving', async () => {
    const baseline = openFds();
    const clientAborts: string[] = [];
    probe.uploaded = 0;
    const { request, response } = upload(port, '/files', endless(clientAborts));
    response.catch(() => undefined);
    await waitFor(
      'the upload to reach the file',
      () => probe.uploaded >= CUT_AFTER && probe.openFiles.has('upload'),
      () => probe,
    );
    request.destroy();
    await waitFor(
      'the handler to fail',
      () => probe.errors.length > 0,
      () => probe.errors,
    );
    expect(probe.errors).toEqual(['upload:AttachmentAbortedError']);
    expect(clientAborts).toEqual(['AttachmentAbortedError']);
    await waitFor(
      'the file to be closed',
      () => probe.openFiles.size === 0,
      () => [...probe.openFiles],
    );
    // the partial file was removed by the handler: only the download sources are left
    expect((await fs.promises.readdir(dir)).sort()).toEqual(['big.bin', 'small.bin']);
    await settled([server], baseline);
    expect((await server.request('GET', '/files/1')).status).toBe(200);
  });

  it('aborts the writer of a download cut off mid-attachment, closes the file it was reading, leaks no socket or descriptor, and keeps serving', async () => {
    const baseline = openFds();
    probe.errors.length = 0;
    const { response } = download(port, '/files/2', (received, request, res) => {
      if (received < CUT_AFTER || request.destroyed) return;
      // stop reading, then hang up: the server is still writing (the file is far larger than the buffers)
      res.pause();
      request.destroy();
    });
    response.catch(() => undefined);
    await waitFor(
      'the writer to be aborted',
      () => probe.errors.length > 0,
      () => probe.errors,
    );
    expect(probe.errors).toEqual(['download:AttachmentAbortedError']);
    await waitFor(
      'the file to be closed',
      () => probe.openFiles.size === 0,
      () => [...probe.openFiles],
    );
    await settled([server], baseline);
    expect((await server.request('GET', '/files/1')).status).toBe(200);
  });
});

describe('a client that hangs up mid-relay', () => {
  let dir: string;
  let probeA: Probe;
  let probeB: Probe;
  let relay: TestServer;
  let upstream: TestServer;

  beforeAll(async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'svc-attachment-relay-abort-'));
    const file = path.join(dir, 'small.bin');
    await fs.promises.writeFile(file, Buffer.alloc(1024, 1));
    await warmUp(dir, file);
    probeA = newProbe();
    probeB = newProbe();
    upstream = await startServer({ resources: [filesResource(probeB, dir, file)], validation: false });
    relay = await startServer({
      resources: [filesResource(probeA, dir, file, upstream.base)],
      validation: false,
    });
  });

  afterAll(async () => {
    await relay.close();
    await upstream.close();
    await fs.promises.rm(dir, { recursive: true, force: true });
  });

  it('fails both hops of a relayed upload, closes the far end’s file, leaks no socket or descriptor, and both keep serving', async () => {
    const baseline = openFds();
    const clientAborts: string[] = [];
    const { request, response } = upload(
      Number(new URL(relay.base).port),
      '/files?action=relay',
      endless(clientAborts),
    );
    response.catch(() => undefined);
    await waitFor(
      'the relayed upload to reach the far end’s file',
      () => probeB.uploaded >= CUT_AFTER && probeB.openFiles.has('upload'),
      () => probeB,
    );
    request.destroy();
    await waitFor(
      'both hops to fail',
      () => probeA.errors.length > 0 && probeB.errors.length > 0,
      () => [probeA.errors, probeB.errors],
    );
    expect(clientAborts).toEqual(['AttachmentAbortedError']);
    expect(probeB.errors).toEqual(['upload:AttachmentAbortedError']);
    // the relay's outgoing call fails with the incoming request's signal (or, first, with its attachment)
    expect(probeA.errors).toHaveLength(1);
    expect(probeA.errors[0]).toMatch(/^relay:(ClientClosedError|AttachmentAbortedError)$/);
    await waitFor(
      'the file to be closed',
      () => probeB.openFiles.size === 0,
      () => [...probeB.openFiles],
    );
    expect((await fs.promises.readdir(dir)).sort()).toEqual(['small.bin']);
    await settled([relay, upstream], baseline);
    expect((await relay.request('GET', '/files/1')).status).toBe(200);
    expect((await upstream.request('GET', '/files/1')).status).toBe(200);
  });
});
