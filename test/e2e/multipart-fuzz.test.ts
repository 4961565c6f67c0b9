/**
 * The streaming multipart decoders (`multipart/related` uploads, tunneled `multipart/mixed` requests) fed
 * over real sockets as a network or a hostile client feeds them (issue 22): a valid upload split at every
 * byte across two TCP writes, and mangled bodies (cut short, stray boundaries, header soup, flipped bytes)
 * sent in random pieces. Every exchange must end in an answer (a completed upload, or a 4xx) soon after
 * its last byte, never a hang or a 5xx; afterwards no partial blob is left and every photo the service
 * shows has its job. `SVC_FUZZ_RUNS` raises the number of mangled bodies for a longer session.
 */
import { promises as fsp, readdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { createExampleApp } from '../../examples/app';
import { fuzzRuns } from '../data/fuzz-runs';

jest.setTimeout(300_000);

const B = 'fz9Q';
/** How long after its last byte an exchange may take before it counts as a hang (a bound, not a timing). */
const HANG_MS = 5000;

let app: FastifyInstance;
let port: number;
let dataDir: string;

beforeAll(async () => {
  dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-multipart-fuzz-'));
  app = await createExampleApp({ dataDir });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await app.close();
  await fsp.rm(dataDir, { recursive: true, force: true });
});

interface Outcome {
  /** The status line's code, or 'closed' / 'hang'. */
  readonly status: number | 'closed' | 'hang';
  readonly text: string;
}

/**
 * Sends `head` and `body` over a new connection, the body in the given pieces (each its own write, the
 * next one only once the previous has left), and reads until a whole answer has arrived (a Content-Length
 * body), the server closes, or HANG_MS pass after the last byte.
 */
function exchange(head: string, body: Buffer, cuts: readonly number[]): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (status: Outcome['status']): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status, text: Buffer.concat(chunks).toString('latin1') });
    };
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      const raw = Buffer.concat(chunks).toString('latin1');
      const end = raw.indexOf('\r\n\r\n');
      if (end === -1) return;
      const status = Number(raw.slice(9, 12));
      const length = /\r\ncontent-length: (\d+)/i.exec(raw.slice(0, end));
      // 204 and 304 have no body; others say their length (the service never chunks small answers)
      if (status === 204 || status === 304 || (length !== null && raw.length - end - 4 >= Number(length[1])))
        finish(status);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      finish(raw.startsWith('HTTP/1.1 ') ? Number(raw.slice(9, 12)) : 'closed');
    });
    const points = [...new Set(cuts.filter((c) => c > 0 && c < body.length))].sort((a, b) => a - b);
    const pieces: Buffer[] = [];
    let at = 0;
    for (const c of [...points, body.length]) {
      pieces.push(body.subarray(at, c));
      at = c;
    }
    const writeNext = (i: number): void => {
      if (done) return;
      if (i === pieces.length) {
        timer = setTimeout(() => finish('hang'), HANG_MS);
        return;
      }
      // a piece of its own: written once the previous one was handed to the kernel, a turn later
      socket.write(pieces[i]!, () => setImmediate(() => writeNext(i + 1)));
    };
    socket.on('connect', () => socket.write(head, () => writeNext(0)));
  });
}

function relatedHead(length: number): string {
  return (
    `POST /photos HTTP/1.1\r\nHost: x\r\nX-Svc-Protocol-Version: 2.0.0\r\n` +
    `Content-Type: multipart/related; boundary=${B}\r\nContent-Length: ${length}\r\n\r\n`
  );
}

function mixedHead(length: number): string {
  return (
    `POST /photos HTTP/1.1\r\nHost: x\r\nX-Svc-Protocol-Version: 2.0.0\r\nX-HTTP-Method-Override: PUT\r\n` +
    `Content-Type: multipart/mixed; boundary=${B}\r\nContent-Length: ${length}\r\n\r\n`
  );
}

const IMAGE = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(40, 9),
]);

function validUpload(title: string): Buffer {
  const json = JSON.stringify({ title, format: 'PNG', image: 'cid:i1' });
  return Buffer.concat([
    Buffer.from(
      `--${B}\r\nContent-Type: application/json\r\n\r\n${json}\r\n--${B}\r\nContent-ID: <i1>\r\n\r\n`,
    ),
    IMAGE,
    Buffer.from(`\r\n--${B}--\r\n`),
  ]);
}

/** A tunneled update of photo 1 (`PUT /photos/1` as `multipart/mixed`: the query, then the entity). */
function validTunneledUpdate(): Buffer {
  return Buffer.from(
    `--${B}\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n\r\n` +
      `--${B}\r\nContent-Type: application/json\r\n\r\n{"title":"Sunrise over the bay","format":"JPEG"}\r\n--${B}--\r\n`,
  );
}

/** Everything below the blob directory's `partial/` (writes in progress or left behind). */
function partialFiles(): string[] {
  const root = path.join(dataDir, 'blobs', 'partial');
  const out: string[] = [];
  for (const d of readdirSync(root)) out.push(...readdirSync(path.join(root, d)));
  return out;
}

function getJson(url: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: url, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>));
      })
      .on('error', reject);
  });
}

/** No partial blob is left, and every photo that waits for or went through processing names its job. */
async function nothingHalfDone(): Promise<void> {
  for (let i = 0; i < 500 && partialFiles().length > 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(partialFiles()).toEqual([]);
  const photos = (await getJson('/photos?count=1000')).elements as Array<Record<string, unknown>>;
  const orphans = photos.filter((p) => p.status !== undefined && typeof p.processingJob !== 'string');
  expect(orphans).toEqual([]);
}

describe('a valid body split across two TCP writes at every byte', () => {
  it('is a completed upload wherever the split falls (multipart/related)', async () => {
    const body = validUpload('split');
    const statuses = new Map<string, number>();
    for (let cut = 1; cut < body.length; cut++) {
      const r = await exchange(relatedHead(body.length), body, [cut]);
      statuses.set(String(r.status), (statuses.get(String(r.status)) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ '201': body.length - 1 });
    await nothingHalfDone();
  });

  it('is a completed update wherever the split falls (tunneled multipart/mixed)', async () => {
    const body = validTunneledUpdate();
    const statuses = new Map<string, number>();
    for (let cut = 1; cut < body.length; cut++) {
      const r = await exchange(mixedHead(body.length).replace('POST /photos ', 'POST /photos/1 '), body, [
        cut,
      ]);
      statuses.set(String(r.status), (statuses.get(String(r.status)) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ '204': body.length - 1 });
  });
});

/** What mangles a valid body. */
const mangling = (base: Buffer): fc.Arbitrary<Buffer> =>
  fc.oneof(
    // cut short (the Content-Length says so: the message is whole, its multipart body is not)
    fc.integer({ min: 0, max: base.length - 1 }).map((n) => base.subarray(0, n)),
    // a stray boundary, a closing one, or one followed by junk, anywhere
    fc
      .tuple(
        fc.integer({ min: 0, max: base.length }),
        fc.constantFrom(
          `\r\n--${B}`,
          `\r\n--${B}--`,
          `\r\n--${B} junk\r\n`,
          `--${B}\r\n`,
          `\r\n--${B}\r\n\r\n`,
        ),
      )
      .map(([at, s]) => Buffer.concat([base.subarray(0, at), Buffer.from(s), base.subarray(at)])),
    // header soup after a delimiter: no colon, folded lines, no blank line, huge values, NULs
    fc
      .tuple(
        fc.constantFrom(
          'X-No-Colon',
          ': no name',
          ' folded continuation',
          `Content-ID: <${'x'.repeat(20_000)}>`,
          'Content-Type: application/json\u0000',
          'Content-Type:',
          Array.from({ length: 100 }, (_, i) => `X-H${i}: v`).join('\r\n'),
        ),
        fc.boolean(),
      )
      .map(([soup, blankLine]) => {
        const at = base.indexOf(`--${B}\r\n`, 1);
        const cut = at === -1 ? base.length : at + B.length + 4;
        return Buffer.concat([
          base.subarray(0, cut),
          Buffer.from(`${soup}\r\n${blankLine ? '\r\n' : ''}`),
          base.subarray(cut),
        ]);
      }),
    // bytes flipped
    fc
      .array(fc.tuple(fc.integer({ min: 0, max: base.length - 1 }), fc.integer({ min: 0, max: 255 })), {
        minLength: 1,
        maxLength: 8,
      })
      .map((flips) => {
        const out = Buffer.from(base);
        for (const [at, v] of flips) out[at] = v;
        return out;
      }),
  );

const pieces = (max: number): fc.Arbitrary<number[]> =>
  fc.array(fc.integer({ min: 1, max: Math.max(1, max) }), { maxLength: 6 });

describe('mangled bodies sent in random pieces', () => {
  it.each([
    ['multipart/related uploads', () => validUpload('mangled'), relatedHead],
    [
      'tunneled multipart/mixed updates',
      validTunneledUpdate,
      (n: number) => mixedHead(n).replace('POST /photos ', 'POST /photos/1 '),
    ],
  ] as const)('%s are answered, never hang and never fail the server', async (_name, base, head) => {
    const seen: Outcome[] = [];
    await fc.assert(
      fc.asyncProperty(
        mangling(base()).chain((body) => pieces(body.length).map((cuts) => [body, cuts] as const)),
        async ([body, cuts]) => {
          const r = await exchange(head(body.length), body, cuts);
          seen.push(r);
          expect(r.status).not.toBe('hang');
          if (typeof r.status === 'number') expect(r.status).toBeLessThan(500);
        },
      ),
      { numRuns: fuzzRuns(150) },
    );
    // bad input is answered (a 4xx says why), not just cut off
    expect(seen.filter((r) => typeof r.status === 'number' && r.status >= 400).length).toBeGreaterThan(0);
    await nothingHalfDone();
  });
});
