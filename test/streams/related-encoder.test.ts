/**
 * Writing `multipart/related` (wire facts §6.1), read back by an independent implementation: Python's
 * standard `email` package.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  type AttachmentDataSourceWriter,
  AttachmentReader,
  dataSourceIterator,
  partsFromIterator,
  writerFromAsyncIterable,
  writerFromBytes,
  writerFromObservable,
  withContentType,
} from '../../src/streams';
import { Observable } from 'rxjs';
import { encodeRelated } from '../../src/streams/related/encoder';
import { makeBoundary } from '../../src/streams/related/boundary';

async function collect(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

/** Parses a message with Python's email package; gives each part's headers and body (base64). */
function pythonParts(
  contentType: string,
  body: Buffer,
): Array<{ headers: Record<string, string>; body: string }> {
  const script = `
import sys, json, base64, email
from email import policy
raw = sys.stdin.buffer.read()
msg = email.message_from_bytes(b"Content-Type: " + sys.argv[1].encode() + b"\\r\\n\\r\\n" + raw, policy=policy.HTTP)
assert msg.is_multipart(), "not multipart"
assert msg.get_content_type() == "multipart/related", msg.get_content_type()
out = []
for part in msg.iter_parts():
    out.append({"headers": {k.lower(): str(v) for k, v in part.items()}, "body": base64.b64encode(part.get_payload(decode=True) or b"").decode()})
print(json.dumps({"defects": [str(d) for d in msg.defects], "parts": out}))
`;
  const out = execFileSync('python3', ['-c', script, contentType], { input: body });
  const parsed = JSON.parse(out.toString()) as {
    defects: string[];
    parts: Array<{ headers: Record<string, string>; body: string }>;
  };
  expect(parsed.defects).toEqual([]);
  return parsed.parts;
}

describe('multipart/related encoder', () => {
  it('writes the payload first, then one part per attachment with its Content-ID, as Python reads it', async () => {
    const binary = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    const msg = encodeRelated(
      { contentType: 'application/json', bytes: Buffer.from('{"image":"cid:img-1"}') },
      [
        writerFromBytes('img-1', binary, 100),
        dataSourceIterator([
          writerFromBytes('empty', new Uint8Array(0)),
          writerFromBytes('one', Buffer.from('x')),
        ]),
      ],
    );
    expect(msg.contentType).toBe(`multipart/related; boundary=${msg.boundary}`);
    const body = await collect(msg.body);
    expect(body.subarray(0, 2).toString()).toBe('\r\n');
    expect(body.subarray(body.length - msg.boundary.length - 4).toString()).toBe(`--${msg.boundary}--`);
    const parts = pythonParts(msg.contentType, body);
    expect(parts.map((p) => p.headers)).toEqual([
      { 'content-type': 'application/json' },
      { 'content-id': '<img-1>' },
      { 'content-id': '<empty>' },
      { 'content-id': '<one>' },
    ]);
    expect(Buffer.from(parts[0]!.body, 'base64').toString()).toBe('{"image":"cid:img-1"}');
    expect(Buffer.compare(Buffer.from(parts[1]!.body, 'base64'), binary)).toBe(0);
    expect(parts[2]!.body).toBe('');
    expect(Buffer.from(parts[3]!.body, 'base64').toString()).toBe('x');
  });

  it('writes a payload-only message', async () => {
    const msg = encodeRelated({ contentType: 'application/x-pson', bytes: Buffer.from([0x01, 0x02]) }, []);
    const parts = pythonParts(msg.contentType, await collect(msg.body));
    expect(parts).toHaveLength(1);
    expect(parts[0]!.headers).toEqual({ 'content-type': 'application/x-pson' });
  });

  it('forwards an incoming attachment reader as it arrives', async () => {
    const incoming = new AttachmentReader(
      partsFromIterator(
        dataSourceIterator([
          writerFromBytes('a', Buffer.from('alpha')),
          writerFromBytes('b', Buffer.from('beta')),
        ]),
      ),
    );
    const msg = encodeRelated({ contentType: 'application/json', bytes: Buffer.from('{}') }, [incoming]);
    const parts = pythonParts(msg.contentType, await collect(msg.body));
    expect(
      parts.slice(1).map((p) => [p.headers['content-id'], Buffer.from(p.body, 'base64').toString()]),
    ).toEqual([
      ['<a>', 'alpha'],
      ['<b>', 'beta'],
    ]);
  });

  it('gives an attachment part the Content-Type its writer names, kept when the reader is forwarded', async () => {
    const incoming = new AttachmentReader(
      partsFromIterator(
        dataSourceIterator([
          withContentType(writerFromBytes('png', Buffer.from('\x89PNG')), 'image/png'),
          writerFromBytes('plain', Buffer.from('x')),
        ]),
      ),
    );
    const msg = encodeRelated({ contentType: 'application/json', bytes: Buffer.from('{}') }, [incoming]);
    const parts = pythonParts(msg.contentType, await collect(msg.body));
    expect(parts.map((p) => p.headers)).toEqual([
      { 'content-type': 'application/json' },
      { 'content-id': '<png>', 'content-type': 'image/png' },
      { 'content-id': '<plain>' },
    ]);
  });

  it.each([
    ['a CR LF', 'image/png\r\nX-Forged: 1'],
    ['a bare LF', 'image/png\n--boundary'],
  ])('fails the body when a content type holds %s, and aborts the writer', async (_label, type) => {
    const aborted: string[] = [];
    const writer = withContentType(writerFromBytes('a', Buffer.from('x')), type);
    const msg = encodeRelated({ contentType: 'application/json', bytes: Buffer.from('{}') }, [
      { ...writer, onAbort: (e: Error) => aborted.push(e.message) },
    ]);
    await expect(collect(msg.body)).rejects.toThrow(
      "attachment 'a' has a content type that is not a single header value",
    );
    expect(aborted).toHaveLength(1);
  });

  it('fails the body on a repeated attachment id and aborts the writer', async () => {
    const aborted: string[] = [];
    const second: AttachmentDataSourceWriter = {
      ...writerFromBytes('dup', Buffer.from('2')),
      onAbort: (e) => aborted.push(e.message),
    };
    const msg = encodeRelated({ contentType: 'application/json', bytes: Buffer.from('{}') }, [
      writerFromBytes('dup', Buffer.from('1')),
      second,
    ]);
    await expect(collect(msg.body)).rejects.toThrow(/attachment id 'dup' is used twice/);
    expect(aborted).toEqual(["attachment id 'dup' is used twice in the message"]);
  });

  it('aborts the current writer when the body is destroyed', async () => {
    const calls: string[] = [];
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (;;) {
        await Promise.resolve();
        yield Buffer.alloc(1024);
      }
    }
    const writer = writerFromAsyncIterable('e', endless());
    const msg = encodeRelated({ contentType: 'application/json', bytes: Buffer.from('{}') }, [
      {
        ...writer,
        onAbort: (e) => {
          calls.push(e.name);
          writer.onAbort(e);
        },
      },
      { ...writerFromBytes('later', Buffer.from('z')), onAbort: (e) => calls.push(`later:${e.name}`) },
    ]);
    let seen = 0;
    for await (const c of msg.body) {
      seen += (c as Buffer).length;
      if (seen > 100_000) break; // for-await's break destroys the stream
    }
    expect(calls).toEqual(['AttachmentAbortedError', 'later:AttachmentAbortedError']);
  });

  it('writes a demand-aware Observable source to its end though capacity is topped up without onWritePossible', async () => {
    // the body keeps a window of capacity open while its consumer wants data: a writer that asks its source
    // for chunks only in onWritePossible would stall after the first ones; and a source answering demand
    // synchronously, one byte per chunk, must not recurse once per chunk
    const asked: number[] = [];
    const count = 50_000;
    const letter = (i: number): string => String.fromCharCode(97 + (i % 26));
    const writer = writerFromObservable(
      'o',
      (demand$) =>
        new Observable<Uint8Array>((s) => {
          let sent = 0;
          return demand$.subscribe((n) => {
            asked.push(n);
            for (let i = 0; i < n && sent < count; i++) s.next(Buffer.from(letter(sent++)));
            if (sent === count) s.complete();
          });
        }),
    );
    const msg = encodeRelated({ contentType: 'application/json', bytes: Buffer.from('{}') }, [writer]);
    const body = (await collect(msg.body)).toString('latin1');
    expect(body).toContain(`\r\n\r\n${Array.from({ length: count }, (_, i) => letter(i)).join('')}\r\n--`);
    // never more asked for than the window of capacity
    expect(Math.max(...asked)).toBeLessThanOrEqual(2);
  });

  it('streams 256 MiB generated on the fly, reading ahead of the consumer by at most a buffer', async () => {
    const size = 256 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 3);
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
    const hash = createHash('sha256');
    let consumed = 0;
    let maxAhead = 0;
    for await (const c of msg.body) {
      const b = c as Buffer;
      consumed += b.length;
      hash.update(b);
      maxAhead = Math.max(maxAhead, produced - consumed);
    }
    expect(produced).toBe(size);
    expect(maxAhead).toBeLessThan(4 * 1024 * 1024);
    expect(consumed).toBeGreaterThan(size);
  });

  it('draws a boundary that occurs in no known content', () => {
    const b = makeBoundary([Buffer.from('payload')]);
    expect(b).toMatch(/^[-_0-9a-zA-Z]{56}$/);
    expect(makeBoundary()).not.toBe(b);
  });
});

describe('attachment ids', () => {
  it('gives writers made without an id a version 1 UUID', () => {
    const ids = [
      writerFromBytes(undefined, Buffer.from('x')),
      writerFromBytes(undefined, Buffer.from('y')),
    ].map((w) => w.getAttachmentID());
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });
});
