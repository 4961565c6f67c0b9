/**
 * Reading `multipart/related` as it streams in (wire facts §6.2): every framing the reference writes or
 * accepts, bodies written by Python's standard `email` package, demand from the consumer back to the
 * source, and malformed envelopes.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { lastValueFrom, concatMap, toArray, map } from 'rxjs';
import type { AttachmentReader } from '../../src/streams';
import { attachments$, writerFromAsyncIterable, writerFromBytes } from '../../src/streams';
import { decodeRelated } from '../../src/streams/related/decoder';
import { encodeRelated } from '../../src/streams/related/encoder';
import { quiescent } from '../support/quiescent';

const text = (chunks: readonly Uint8Array[]): string => Buffer.concat(chunks).toString();

async function readAttachments(reader: AttachmentReader | undefined): Promise<Array<[string, string]>> {
  if (reader === undefined) return [];
  return lastValueFrom(
    attachments$(reader).pipe(
      concatMap((a) =>
        a.data$.pipe(
          toArray(),
          map((c): [string, string] => [a.id, text(c)]),
        ),
      ),
      toArray(),
    ),
  );
}

function bodyOf(raw: string | Buffer, chunkSize = 7): Readable {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'latin1') : raw;
  // small chunks: boundaries and headers split across writes
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  return Readable.from(chunks);
}

describe('multipart/related decoder', () => {
  it.each([
    [
      'the reference framing (leading CRLF, no CRLF after the close)',
      '\r\n--B\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n--B\r\nContent-ID: att-1\r\n\r\nBINARY\r\n--B--',
    ],
    [
      'no leading CRLF',
      '--B\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n--B\r\nContent-ID: <att-1>\r\n\r\nBINARY\r\n--B--',
    ],
    [
      'a CRLF after the close',
      '--B\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n--B\r\nContent-ID: att-1\r\n\r\nBINARY\r\n--B--\r\n',
    ],
    [
      'a preamble',
      'this is a preamble\r\n--B\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n--B\r\nContent-ID: att-1\r\n\r\nBINARY\r\n--B--',
    ],
    [
      'folded headers',
      '--B\r\nContent-Type:\r\n application/json\r\n\r\n{"a":1}\r\n--B\r\nContent-ID:\r\n\t<att-1>\r\n\r\nBINARY\r\n--B--',
    ],
  ])('reads %s', async (_name, raw) => {
    const m = decodeRelated(bodyOf(raw), 'multipart/related; boundary=B');
    const payload = await m.payload;
    expect(payload.contentType).toBe('application/json');
    expect(Buffer.from(payload.bytes).toString()).toBe('{"a":1}');
    expect(await readAttachments(await m.attachments)).toEqual([['att-1', 'BINARY']]);
  });

  it.each([
    ['a quoted boundary', 'multipart/related; boundary="B"'],
    ['parameters around it, in any case', 'Multipart/Related; type="application/json"; BOUNDARY=B; start=x'],
  ])('takes %s', async (_name, contentType) => {
    const m = decodeRelated(bodyOf('--B\r\nContent-Type: text/plain\r\n\r\nhi\r\n--B--'), contentType);
    expect(Buffer.from((await m.payload).bytes).toString()).toBe('hi');
    expect(await m.attachments).toBeUndefined();
  });

  it("reads a body written by Python's email package", async () => {
    const script = `
import sys
from email.mime.multipart import MIMEMultipart
from email.mime.application import MIMEApplication
from email.mime.text import MIMEText
from email import policy
msg = MIMEMultipart("related")
first = MIMEApplication(b'{"photo":"cid:p1"}', "json", _encoder=lambda m: None)
msg.attach(first)
for cid, data in (("p1", bytes(b for b in range(256) if b not in (10, 13)) * 4), ("p2", b"")):
    part = MIMEApplication(data, "octet-stream", _encoder=lambda m: None)
    part["Content-ID"] = "<" + cid + ">"
    msg.attach(part)
raw = msg.as_bytes(policy=policy.HTTP)
head, _, body = raw.partition(b"\\r\\n\\r\\n")
ct = [l for l in head.split(b"\\r\\n") if l.lower().startswith(b"content-type:")][0].split(b":", 1)[1].strip()
sys.stdout.buffer.write(ct + b"\\n" + body)
`;
    const out = execFileSync('python3', ['-c', script]);
    const nl = out.indexOf(10);
    const contentType = out.subarray(0, nl).toString();
    const m = decodeRelated(bodyOf(out.subarray(nl + 1), 113), contentType);
    const payload = await m.payload;
    expect(payload.contentType).toBe('application/json');
    expect(Buffer.from(payload.bytes).toString()).toBe('{"photo":"cid:p1"}');
    const reader = (await m.attachments)!;
    const got = await lastValueFrom(
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
    expect(got.map(([id]) => id)).toEqual(['p1', 'p2']);
    const binary = Array.from({ length: 256 }, (_, i) => i).filter((b) => b !== 10 && b !== 13);
    expect(Buffer.compare(got[0]![1], Buffer.from([...binary, ...binary, ...binary, ...binary]))).toBe(0);
    expect(got[1]![1].length).toBe(0);
  });

  it('round-trips the encoder, many attachments of 0, 1 and many bytes', async () => {
    const sizes = [0, 1, 2, 100_000, 0, 3, 65_536, 65_537];
    const blobs = sizes.map((n, i) => Buffer.alloc(n, i + 1));
    const msg = encodeRelated(
      { contentType: 'application/json', bytes: Buffer.from('{}') },
      blobs.map((b, i) => writerFromBytes(`a${i}`, b, 4096)),
    );
    const m = decodeRelated(msg.body, msg.contentType);
    expect(Buffer.from((await m.payload).bytes).toString()).toBe('{}');
    const got = await readAttachments(await m.attachments);
    expect(got.map(([id, t]) => [id, t.length])).toEqual(sizes.map((n, i) => [`a${i}`, n]));
  });

  it('holds the source still while nobody reads, and streams 128 MiB with checksum intact', async () => {
    const size = 128 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 9);
    let produced = 0;
    async function* generate(): AsyncGenerator<Uint8Array> {
      while (produced < size) {
        await Promise.resolve();
        produced += chunk.length;
        yield chunk;
      }
    }
    const msg = encodeRelated({ contentType: 'application/json', bytes: Buffer.from('{}') }, [
      writerFromAsyncIterable('big', generate()),
    ]);
    const m = decodeRelated(msg.body, msg.contentType);
    await m.payload;
    const reader = (await m.attachments)!;
    await quiescent(() => produced);
    // nobody asked for data yet: only buffers' worth was produced
    expect(produced).toBeLessThan(2 * 1024 * 1024);
    const hash = createHash('sha256');
    let total = 0;
    await lastValueFrom(
      attachments$(reader).pipe(
        concatMap((a) => a.data$),
        map((c) => {
          total += c.length;
          hash.update(c);
          return 0;
        }),
        toArray(),
      ),
    );
    const expected = createHash('sha256');
    for (let i = 0; i < size / chunk.length; i++) expected.update(chunk);
    expect(total).toBe(size);
    expect(hash.digest('hex')).toBe(expected.digest('hex'));
  });

  it.each([
    ['no parts at all', '--B--', 'Did not receive any parts in the multipart mime request!'],
    [
      'a missing closing delimiter',
      '--B\r\nContent-Type: application/json\r\n\r\n{}\r\n--B\r\nContent-ID: x\r\n\r\nabc',
      'Illegally formed multipart payload',
    ],
    ['no boundary at all', 'just some bytes', 'Illegally formed multipart payload'],
  ])('fails on %s', async (_name, raw, message) => {
    const m = decodeRelated(bodyOf(raw), 'multipart/related; boundary=B');
    const all = (async () => {
      await m.payload;
      await readAttachments(await m.attachments);
    })();
    await expect(all).rejects.toThrow(message);
  });

  it('refuses a payload over the limit', async () => {
    const m = decodeRelated(
      bodyOf(`--B\r\nContent-Type: application/json\r\n\r\n${'x'.repeat(2000)}\r\n--B--`),
      'multipart/related; boundary=B',
      { maxPayloadBytes: 1000 },
    );
    await expect(m.payload).rejects.toThrow(/larger than 1000 bytes/);
  });

  it.each([
    ['text/plain', /No boundary found/],
    ['multipart/related', /No boundary found/],
    ['multipart/related; boundary=', /No boundary found/],
    ['multipart/related; boundary=a; boundary=b', /given twice/],
  ])('refuses the Content-Type %p', (contentType, message) => {
    expect(() => decodeRelated(new PassThrough(), contentType)).toThrow(message);
  });

  it('drains what nobody read, so the source ends', async () => {
    const msg = encodeRelated({ contentType: 'application/json', bytes: Buffer.from('{}') }, [
      writerFromBytes('a', Buffer.alloc(1_000_000, 1)),
    ]);
    const m = decodeRelated(msg.body, msg.contentType);
    await m.payload;
    await m.attachments;
    m.drain();
    await until(() => msg.body.readableEnded);
  });

  it('serves a consumer that asks again from inside its callback from a loop, however small the chunks', async () => {
    // 300 000 one-byte pieces, queued faster than they are asked for: delivered by recursion, they would
    // overflow the stack
    const data = Buffer.alloc(300_000);
    for (let i = 0; i < data.length; i++) data[i] = i % 251;
    const head = Buffer.from(
      '--B\r\nContent-Type: application/json\r\n\r\n{}\r\n--B\r\nContent-ID: tiny\r\n\r\n',
    );
    const pieces = [head, ...Array.from(data, (b) => Buffer.from([b])), Buffer.from('\r\n--B--')];
    const m = decodeRelated(Readable.from(pieces), 'multipart/related; boundary=B');
    await m.payload;
    const reader = (await m.attachments)!;
    const got = await new Promise<Buffer>((resolve, reject) => {
      reader.registerAttachmentReaderCallback({
        onNewAttachment: (single) => {
          const chunks: Uint8Array[] = [];
          single.registerCallback({
            onAttachmentDataAvailable: (chunk) => {
              chunks.push(chunk);
              single.requestAttachmentData();
            },
            onFinished: () => resolve(Buffer.concat(chunks)),
            onDrainComplete: () => reject(new Error('drained')),
            onAttachmentError: reject,
          });
          single.requestAttachmentData();
        },
        onFinished: () => undefined,
        onDrainComplete: () => undefined,
        onStreamError: reject,
      });
    });
    expect(got.equals(data)).toBe(true);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}
