/**
 * src/streams/README.md, "Proxying": "Aborting a forwarded attachment drains the rest of it, so the incoming
 * message is not stalled." Over real HTTP: a client uploads two attachments to a relay service; the relay
 * forwards the first one (its `SingleAttachmentReader`, appended as it is) to an upstream that hangs up
 * mid-attachment, which aborts the forwarded reader; the relay then reads the second attachment of the same
 * incoming message and answers with it. Without the drain the second attachment would never come (the rest
 * of the first would hold the socket still) and the request would hang. Nothing is timed.
 */
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { concatMap, from, lastValueFrom, map, toArray } from 'rxjs';
import {
  LONG_KEY,
  STRING,
  type SvcClient,
  action,
  attachments$,
  attachmentsParam,
  collection,
  createClient,
  encodeRelated,
  writerFromAsyncIterable,
  writerFromBytes,
} from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { type TestServer, startServer } from '../resources/support/http';
import { makePhoto } from '../resources/support/photos';

const MIB = 1024 * 1024;
/** The first attachment: far more than the socket buffers between the three parties hold. */
const FIRST_BYTES = 64 * MIB;
/** What the upstream reads before it hangs up. */
const UPSTREAM_CUT = 256 * 1024;

/** An upstream that reads `UPSTREAM_CUT` bytes of any request body, then destroys the connection. */
async function hangingUpUpstream(): Promise<{ server: http.Server; url: string; received: () => number }> {
  let received = 0;
  const server = http.createServer((req) => {
    let mine = 0;
    req.on('data', (c: Buffer) => {
      mine += c.length;
      received += c.length;
      if (mine >= UPSTREAM_CUT) req.socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, received: () => received };
}

/** What the relay saw of the forward: the error its client call ended with. */
interface Seen {
  forwardError?: string;
}

/**
 * `POST /relay?action=forwardFirst`: forwards the first attachment to `upstream` as an attachment of a
 * `create`, then reads the next attachment and answers with its text and the forward's error name.
 */
function relayResource(upstream: string, seen: Seen) {
  let client: SvcClient | undefined;
  return collection({
    name: 'relay',
    key: LONG_KEY,
    value: Photo,
    methods: {
      actions: {
        forwardFirst: action(
          { params: { label: STRING, files: attachmentsParam() }, returns: STRING },
          async ({ files }, ctx) => {
            client ??= createClient({ baseUrl: upstream });
            const parts = await lastValueFrom(
              attachments$(files!).pipe(
                concatMap((a, i) =>
                  i === 0
                    ? from(
                        client!
                          .send({
                            method: 'create',
                            resource: 'relay',
                            body: makePhoto(1, 'forwarded'),
                            keySpec: LONG_KEY.spec,
                            attachments: [a.reader],
                            signal: ctx.signal,
                          })
                          .then(
                            () => `${a.id}: forwarded whole`,
                            (e: unknown) => {
                              seen.forwardError = (e as Error).name;
                              return `${a.id}: forward failed`;
                            },
                          ),
                      )
                    : a.data$.pipe(
                        toArray(),
                        map((chunks) => `${a.id}: ${Buffer.concat(chunks).toString()}`),
                      ),
                ),
                toArray(),
              ),
            );
            return parts.join('; ');
          },
        ),
      },
    },
  });
}

/** POSTs a `multipart/related` action request with `attachments`; resolves with the status and body. */
function post(
  port: number,
  target: string,
  attachments: Parameters<typeof encodeRelated>[1],
): Promise<{ status: number; text: string }> {
  const msg = encodeRelated(
    { contentType: 'application/json', bytes: Buffer.from('{"label":"x"}') },
    attachments,
  );
  const request = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: target,
    agent: false,
    headers: { 'content-type': msg.contentType, 'x-svc-protocol-version': '2.0.0' },
  });
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    request.on('error', reject);
  });
  msg.body.on('error', (e) => request.destroy(e));
  msg.body.pipe(request);
  return response;
}

describe('a forwarded SingleAttachmentReader whose outgoing side goes away', () => {
  let upstream: Awaited<ReturnType<typeof hangingUpUpstream>>;
  let relay: TestServer;
  const seen: Seen = {};

  beforeAll(async () => {
    upstream = await hangingUpUpstream();
    relay = await startServer({ resources: [relayResource(upstream.url, seen)], validation: false });
  });
  afterAll(async () => {
    await relay.close();
    await new Promise((r) => upstream.server.close(r));
  });

  it('is aborted, its rest is drained, and the next attachment of the incoming message arrives', async () => {
    let sentOfFirst = 0;
    async function* first(): AsyncGenerator<Uint8Array> {
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      while (sentOfFirst < FIRST_BYTES) {
        sentOfFirst += chunk.length;
        yield await Promise.resolve(chunk);
      }
    }
    const r = await post(Number(new URL(relay.base).port), '/relay?action=forwardFirst', [
      writerFromAsyncIterable('first', Readable.from(first())),
      writerFromBytes('second', Buffer.from('the next one')),
    ]);
    expect(r).toEqual({
      status: 200,
      text: JSON.stringify({ value: 'first: forward failed; second: the next one' }),
    });
    // the upstream went away mid-attachment: the forward failed, and the client still sent the whole first
    // attachment, which the relay read past (drained) to reach the second
    expect(seen.forwardError).toBeDefined();
    expect(upstream.received()).toBeLessThan(FIRST_BYTES);
    expect(sentOfFirst).toBe(FIRST_BYTES);
  });
});
