import type { EncodedResponse } from '../../src/resources/request';
import {
  isNotedAscii,
  noteAsciiHeaderValue,
  responseBodyBytes,
  responseBodyToWrite,
} from '../../src/resources/response-facts';

const response = (body: EncodedResponse['body']): EncodedResponse => ({ status: 200, headers: {}, body });

describe('responseBodyBytes', () => {
  it.each([
    ['no body', undefined, 0],
    ['an ASCII text', '{"id":1}', 8],
    ['a text with two- and three-byte chars', '{"t":"é€"}', 13],
    ['a text with a four-byte char', '"😀"', 6],
    ['bytes', new Uint8Array([1, 2, 3]), 3],
  ])('measures %s as its UTF-8 bytes', (_, body, bytes) => {
    expect(responseBodyBytes(response(body))).toBe(bytes);
  });

  it('answers each response for its own body, whichever was measured last', () => {
    const a = response('aaaa');
    const b = response('bé');
    expect(responseBodyBytes(a)).toBe(4);
    expect(responseBodyBytes(b)).toBe(3);
    expect(responseBodyBytes(a)).toBe(4);
    expect(responseBodyBytes(a)).toBe(4);
  });

  it('measures a large text again rather than keeping it (and gets the same answer)', () => {
    const big = response('é'.repeat(70_000));
    expect(responseBodyBytes(big)).toBe(140_000);
    expect(responseBodyBytes(big)).toBe(140_000);
  });
});

/** A JSON-like text of about `chars` chars, with `extra` at its middle. */
const textOf = (chars: number, extra = ''): string => {
  const half = '{"title":"Photo 7","id":7},'.repeat(Math.ceil(chars / 54));
  return `[${half}${extra}${half}]`.slice(0, chars);
};

describe('responseBodyToWrite', () => {
  it.each([
    ['a short ASCII text', 'text', '{"id":1}'],
    ['a short text beyond Latin-1 (under the size tested)', 'text', '{"t":"☀"}'],
    ['a long ASCII text', 'text', textOf(4000)],
    ['a long Latin-1 text', 'text', textOf(4000, 'Été à Paris')],
    ['a long text beyond Latin-1', 'bytes', textOf(4000, 'Été à Paris ☀')],
    ['a long text with a four-byte char', 'bytes', textOf(2000, '😀')],
    ['a long text with a lone surrogate', 'bytes', textOf(2000, '\ud83d')],
    ['a text beyond Latin-1 larger than a pooled one', 'text', textOf(9000, '☀')],
  ])('writes %s as %s: its UTF-8, of the length measured', (_, kind, text) => {
    const r = response(text);
    const length = responseBodyBytes(r);
    const written = responseBodyToWrite(r, text);
    expect(typeof written === 'string' ? 'text' : 'bytes').toBe(kind);
    const bytes = typeof written === 'string' ? Buffer.from(written, 'utf8') : written;
    expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(bytes.length).toBe(length);
  });

  it('makes the bytes when asked first, and measures the same length after', () => {
    const text = textOf(3000, '☀');
    const r = response(text);
    const written = responseBodyToWrite(r, text);
    expect(Buffer.isBuffer(written)).toBe(true);
    expect(responseBodyBytes(r)).toBe(Buffer.byteLength(text));
  });

  it('never writes over bytes it answered before, as pools fill and are replaced', () => {
    const answered: Array<[Buffer, Buffer]> = [];
    for (let i = 0; i < 200; i++) {
      const text = textOf(1024 + ((i * 997) % 7000), `☀ ${i} é`);
      const r = response(text);
      responseBodyBytes(r);
      answered.push([responseBodyToWrite(r, text) as Buffer, Buffer.from(text, 'utf8')]);
    }
    for (const [bytes, expected] of answered) expect(bytes.equals(expected)).toBe(true);
  });
});

describe('isNotedAscii', () => {
  it('knows only the value noted last', () => {
    noteAsciiHeaderValue('id-1');
    expect(isNotedAscii('id-1')).toBe(true);
    noteAsciiHeaderValue('id-2');
    expect(isNotedAscii('id-1')).toBe(false);
    expect(isNotedAscii('id-2')).toBe(true);
    expect(isNotedAscii('ïd')).toBe(false);
  });
});
