import type { EncodedResponse } from '../../src/resources/request';
import { isNotedAscii, noteAsciiHeaderValue, responseBodyBytes } from '../../src/resources/response-facts';

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
