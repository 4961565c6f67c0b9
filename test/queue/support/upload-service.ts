/**
 * Test support: a service whose `uploads?action=upload` enqueues the attachments of a `multipart/related`
 * request as a job (as a real upload endpoint would), beside the `jobs` resource, on a real loopback
 * socket; and a client that sends an upload as real multipart bytes.
 */
import http from 'node:http';
import { Readable } from 'node:stream';
import fastify, { type FastifyInstance } from 'fastify';
import {
  STRING,
  STRING_KEY,
  action,
  attachmentsParam,
  collection,
  encodeRelated,
  svcFrameworkErrors,
  svcPlugin,
  writerFromAsyncIterable,
} from '../../../src';
import { type AttachmentQueue, Job, jobsResource } from '../../../src/queue';

export interface UploadService {
  readonly app: FastifyInstance;
  readonly port: number;
  close(): Promise<void>;
}

export async function startUploadService(
  queue: AttachmentQueue,
  jobName = 'upload.process',
): Promise<UploadService> {
  const uploads = collection({
    name: 'uploads',
    key: STRING_KEY,
    value: Job,
    methods: {
      actions: {
        upload: action(
          { params: { note: STRING, files: attachmentsParam() }, returns: STRING },
          async ({ note, files }) => (await queue.enqueue(jobName, files, { note })).id,
        ),
      },
    },
  });
  const app = fastify({ frameworkErrors: svcFrameworkErrors({}) });
  await app.register(svcPlugin, { resources: [uploads, jobsResource(queue)] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port, close: () => app.close() };
}

/** `size` bytes of a repeating pattern, generated as they are sent (nothing held whole). */
function* pattern(size: number): Generator<Uint8Array> {
  const chunk = Buffer.alloc(64 * 1024, 0x5a);
  for (let sent = 0; sent < size; sent += chunk.length)
    yield chunk.subarray(0, Math.min(chunk.length, size - sent));
}

/** Sends an upload of one attachment of `size` bytes; resolves with the status and the JSON body. */
export function sendUpload(
  port: number,
  size: number,
): Promise<{ status: number; json: { [k: string]: unknown } }> {
  const msg = encodeRelated({ contentType: 'application/json', bytes: Buffer.from('{"note":"n"}') }, [
    writerFromAsyncIterable('file', Readable.from(pattern(size), { objectMode: true })),
  ]);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/uploads?action=upload',
        headers: { 'content-type': msg.contentType, 'x-svc-protocol-version': '2.0.0' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: res.statusCode!,
            json: text === '' ? {} : (JSON.parse(text) as { [k: string]: unknown }),
          });
        });
      },
    );
    req.on('error', reject);
    msg.body.pipe(req);
  });
}
