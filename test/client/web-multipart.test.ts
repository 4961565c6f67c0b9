/**
 * The web platform's streaming `multipart/related` reader (src/client/web-multipart.ts) over a web
 * `ReadableStream`, as a browser's fetch hands it: parts split at any byte, the payload bounded, the
 * attachments read while the rest of the message has not arrived yet.
 */
import { attachmentStreams } from '../../src/streams/web-streams';
import { readRelatedStream } from '../../src/client/web-multipart';

const BOUNDARY = 'b0undary';
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function message(parts: Array<[Record<string, string>, string]>, preamble = ''): string {
  let out = preamble;
  for (const [headers, body] of parts) {
    out += `${out === '' ? '' : '\r\n'}--${BOUNDARY}\r\n`;
    for (const [k, v] of Object.entries(headers)) out += `${k}: ${v}\r\n`;
    out += `\r\n${body}`;
  }
  return `${out}\r\n--${BOUNDARY}--\r\nepilogue`;
}

/** A stream of `bytes` in pieces of `size` bytes, and a gate: nothing after `holdAt` until `release()`. */
function streamOf(bytes: Uint8Array, size: number, holdAt = Infinity) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (at >= holdAt) await gate;
      if (at >= bytes.length) return controller.close();
      const end = Math.min(bytes.length, at + size, at < holdAt ? holdAt : Infinity);
      controller.enqueue(bytes.slice(at, end));
      at = end;
    },
  });
  return { stream, release };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new TextDecoder().decode(await new Response(stream).arrayBuffer());
}

const MESSAGE = message(
  [
    [{ 'Content-Type': 'application/json' }, '{"title":"x"}'],
    [{ 'Content-ID': '<one>' }, 'first attachment \r\n-- not a boundary'],
    [{ 'Content-ID': '<two>', 'Content-Type': 'image/png' }, ''],
    [{ 'Content-ID': '<three>' }, 'z'.repeat(5000)],
  ],
  'preamble',
);

describe('the web multipart/related reader', () => {
  it.each([3, 7, 64, 100_000])('splits a message read %i bytes at a time', async (size) => {
    const { stream } = streamOf(enc(MESSAGE), size);
    const parts = await readRelatedStream(stream, BOUNDARY, 1000);
    expect([new TextDecoder().decode(parts.body), parts.contentType]).toEqual([
      '{"title":"x"}',
      'application/json',
    ]);
    const got: Array<[string, string]> = [];
    for await (const { id, stream: s } of attachmentStreams(parts.attachments!))
      got.push([id, await readAll(s)]);
    expect(got).toEqual([
      ['one', 'first attachment \r\n-- not a boundary'],
      ['two', ''],
      ['three', 'z'.repeat(5000)],
    ]);
  });

  it('hands out the first bytes of an attachment before the rest of the message has arrived', async () => {
    const text = message([
      [{}, '{}'],
      [{ 'Content-ID': '<big>' }, 'A'.repeat(1000) + 'B'.repeat(1000)],
    ]);
    const { stream, release } = streamOf(enc(text), 256, text.indexOf('B'));
    const parts = await readRelatedStream(stream, BOUNDARY, 100);
    const attachments = attachmentStreams(parts.attachments!);
    const first = (await attachments.next()).value!;
    const reader = first.stream.getReader();
    let early = '';
    while (early.length < 1000) early += new TextDecoder().decode((await reader.read()).value);
    // the message is held before the Bs: what came is the As
    expect(early).toMatch(/^A+$/);
    release();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read())
      rest += new TextDecoder().decode(r.value);
    expect(early + rest).toBe('A'.repeat(1000) + 'B'.repeat(1000));
    expect((await attachments.next()).done).toBe(true);
  });

  it.each([
    ['a payload over the limit', message([[{}, 'x'.repeat(101)]]), /over 100 bytes/],
    ['no boundary', 'no boundary here', /No boundary found/],
    ['a message cut short', message([[{}, '{}']]).slice(0, 20), /ends before the close delimiter/],
  ])('refuses %s', async (_what, text, error) => {
    await expect(readRelatedStream(streamOf(enc(text), 5).stream, BOUNDARY, 100)).rejects.toThrow(error);
  });

  it('reports a message cut short in an attachment to its reader', async () => {
    const text = message([
      [{}, '{}'],
      [{ 'Content-ID': '<a>' }, 'abc'.repeat(100)],
    ]);
    const parts = await readRelatedStream(
      streamOf(enc(text.slice(0, text.length - 40)), 16).stream,
      BOUNDARY,
      100,
    );
    const { stream } = (await attachmentStreams(parts.attachments!).next()).value!;
    await expect(readAll(stream)).rejects.toThrow(/ends before the close delimiter/);
  });
});
