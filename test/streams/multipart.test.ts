import { PassThrough, Readable } from 'node:stream';
import {
  MultipartFormatError,
  makeMultipartBoundary,
  multipartBoundary,
  parseMultipart,
  readMultipart,
  writeMultipart,
} from '../../src/streams/multipart';
import { quiescent } from '../support/quiescent';

const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');

async function collect(source: Readable | Uint8Array, boundary: string, maxParts?: number) {
  const out: Array<{ type: string | undefined; body: string }> = [];
  for await (const part of parseMultipart(source, {
    boundary,
    ...(maxParts === undefined ? {} : { maxParts }),
  })) {
    const chunks: Buffer[] = [];
    for await (const c of part.body) chunks.push(c as Buffer);
    out.push({ type: part.headers.get('content-type'), body: Buffer.concat(chunks).toString('latin1') });
  }
  return out;
}

const TWO = [
  { type: 'application/x-www-form-urlencoded', body: 'ids=List(1,2)' },
  { type: 'application/json', body: '{"a":1}' },
];

describe('the multipart parser', () => {
  it.each([
    ['no preamble, CRLF after the closing delimiter', '', '\r\n'],
    ['a preamble CRLF, nothing after the closing delimiter', '\r\n', ''],
    ['a preamble text, an epilogue', 'preamble\r\n', '\r\nepilogue\r\n'],
  ])('reads two parts with %s', async (_d, pre, post) => {
    const body = `${pre}--b\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nids=List(1,2)\r\n--b\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n--b--${post}`;
    expect(await collect(bytes(body), 'b')).toEqual(TWO);
    const parts = await readMultipart(bytes(body), { boundary: 'b' });
    expect(
      parts.map((p) => ({ type: p.headers.get('content-type'), body: p.body.toString('latin1') })),
    ).toEqual(TWO);
  });

  it('unfolds folded headers', async () => {
    const body = '--b\r\nContent-Type:\r\n application/json;\r\n\tcharset=utf-8\r\n\r\n{}\r\n--b--';
    const [part] = await readMultipart(bytes(body), { boundary: 'b' });
    expect(part!.headers.get('content-type')).toMatch(/^application\/json;\s+charset=utf-8$/);
  });

  it.each([
    ['multipart/mixed; boundary=abc', 'abc'],
    ['multipart/mixed; boundary="a b:c"', 'a b:c'],
    ['multipart/mixed; charset=x; BOUNDARY="q\\"d"', 'q"d'],
    ['multipart/mixed', undefined],
  ])('reads the boundary of %s', (ct, boundary) => {
    expect(multipartBoundary(ct)).toBe(boundary);
  });

  it.each([
    'multipart/mixed; boundary=""',
    `multipart/mixed; boundary=${'x'.repeat(71)}`,
    'multipart/mixed; boundary=a; boundary=b',
  ])('rejects the boundary of %s', (ct) => {
    expect(() => multipartBoundary(ct)).toThrow(MultipartFormatError);
  });

  it.each([
    ['no closing delimiter', '--b\r\nContent-Type: a/b\r\n\r\nx\r\n'],
    ['no delimiter at all', 'just text'],
    ['an empty body', ''],
    ['a header block cut short', '--b\r\nContent-Type: a/b'],
  ])('rejects an envelope with %s', async (_d, body) => {
    await expect(readMultipart(bytes(body), { boundary: 'b' })).rejects.toMatchObject({
      code: 'SVC_ERR_TUNNEL_MULTIPART_MALFORMED',
    });
    await expect(collect(bytes(body), 'b')).rejects.toMatchObject({
      code: 'SVC_ERR_TUNNEL_MULTIPART_MALFORMED',
    });
  });

  it('rejects more parts than maxParts, buffered and streamed', async () => {
    const body = '--b\r\nA: 1\r\n\r\nx\r\n--b\r\nA: 2\r\n\r\ny\r\n--b\r\nA: 3\r\n\r\nz\r\n--b--';
    await expect(readMultipart(bytes(body), { boundary: 'b', maxParts: 2 })).rejects.toMatchObject({
      code: 'SVC_ERR_TUNNEL_MULTIPART_MALFORMED',
    });
    await expect(collect(bytes(body), 'b', 2)).rejects.toThrow(/more than 2 parts/);
  });

  it('rejects a part over maxPartBytes with a 413 error', async () => {
    const body = `--b\r\nA: 1\r\n\r\n${'x'.repeat(100)}\r\n--b--`;
    await expect(readMultipart(bytes(body), { boundary: 'b', maxPartBytes: 99 })).rejects.toMatchObject({
      code: 'SVC_ERR_TUNNEL_MULTIPART_TOO_LARGE',
      statusCode: 413,
    });
  });

  it('keeps a header block within maxHeaderBytes, dropping the rest', async () => {
    const body = `--b\r\nContent-Type: a/b\r\nX-Big: ${'y'.repeat(10_000)}\r\n\r\nx\r\n--b--`;
    const [part] = await readMultipart(bytes(body), { boundary: 'b', maxHeaderBytes: 1024 });
    expect(part!.headers.get('content-type')).toBe('a/b');
    expect((part!.headers.get('x-big') ?? '').length).toBeLessThan(1024);
  });

  it('streams a part with demand: the source waits while nobody reads the body', async () => {
    const source = new PassThrough({ highWaterMark: 1024 });
    const iterator = parseMultipart(source, { boundary: 'b', partHighWaterMark: 1024 });
    // the boundary search holds back a possible delimiter start ("\r\n"): the header block is known once
    // body bytes follow it
    source.write(bytes('--b\r\nContent-Type: a/b\r\n\r\n'));
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let accepted = 0;
    while (source.write(chunk) && accepted < 64) accepted++;
    const first = await iterator.next();
    expect(first.done).toBe(false);
    // the writes stop being accepted long before 64 chunks: nothing reads the part, so once the parser has
    // done all it will, the source still waits for a drain
    await quiescent(() => [source.writableLength, source.readableLength, source.writableNeedDrain]);
    expect(source.writableNeedDrain).toBe(true);
    expect(accepted).toBeLessThan(64);
    let size = 0;
    const read = (async () => {
      for await (const c of first.value!.body) size += (c as Buffer).length;
    })();
    source.end(bytes('\r\n--b--\r\n'));
    await read;
    expect(size).toBe((accepted + 1) * chunk.length);
    expect((await iterator.next()).done).toBe(true);
  });

  it('writes envelopes it reads back, with a boundary found in neither the parts nor the URL', async () => {
    const url = 'http://h/photos?ids=List(1)';
    const payload = bytes('{"a":"--svc_"}');
    const boundary = makeMultipartBoundary([payload, url]);
    expect(boundary.length).toBeGreaterThanOrEqual(40);
    expect(boundary.length).toBeLessThanOrEqual(70);
    expect(makeMultipartBoundary()).not.toBe(boundary);
    const body = writeMultipart(boundary, [
      { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: bytes('ids=List(1)') },
      { headers: { 'Content-Type': 'application/json' }, body: payload },
    ]);
    expect(body.toString('latin1').endsWith(`--${boundary}--\r\n`)).toBe(true);
    const parts = await readMultipart(body, { boundary });
    expect(parts.map((p) => p.body.toString('latin1'))).toEqual(['ids=List(1)', '{"a":"--svc_"}']);
  });

  it('stops reading when the iteration ends early', async () => {
    const body = bytes('--b\r\nA: 1\r\n\r\nx\r\n--b\r\nA: 2\r\n\r\ny\r\n--b--');
    const source = Readable.from([body]);
    for await (const part of parseMultipart(source, { boundary: 'b' })) {
      expect(part.index).toBe(0);
      break;
    }
  });
});
