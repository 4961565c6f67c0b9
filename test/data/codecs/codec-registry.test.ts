import {
  CodecRegistry,
  JsonCodec,
  PsonCodec,
  UnsupportedContentTypeException,
  createDefaultCodecRegistry,
  isSvcError,
} from '../../../src';
import { parseMediaType } from '../../../src/data/codecs/media-type';

describe('parseMediaType', () => {
  it.each([
    ['application/json', 'application/json', {}],
    ['Application/JSON; charset=UTF-8', 'application/json', { charset: 'UTF-8' }],
    [
      'multipart/related; boundary="a;b"; type=application/json',
      'multipart/related',
      { boundary: 'a;b', type: 'application/json' },
    ],
    ['application/x-pson ;q=0.9', 'application/x-pson', { q: '0.9' }],
  ])('parses %s', (text, essence, params) => {
    const mt = parseMediaType(text)!;
    expect(mt.essence).toBe(essence);
    expect(Object.fromEntries(mt.parameters)).toEqual(params);
  });

  it.each(['', 'json', '/json', 'application/', 'appli cation/json', 'a/b/c'])('rejects %j', (text) => {
    expect(parseMediaType(text)).toBeUndefined();
  });
});

describe('CodecRegistry', () => {
  const registry = new CodecRegistry().register(new JsonCodec(), ['text/json']);

  it('finds a codec by content type, ignoring parameters and case', () => {
    expect(registry.get('application/json; charset=utf-8')).toBeInstanceOf(JsonCodec);
    expect(registry.get('TEXT/JSON')).toBeInstanceOf(JsonCodec);
    expect(registry.contentTypes()).toEqual(['application/json', 'text/json']);
  });

  it('refuses an unknown content type with a 415 error', () => {
    let caught: unknown;
    try {
      registry.get('application/xml');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UnsupportedContentTypeException);
    expect(isSvcError(caught, 'UnsupportedContentTypeException', 'SVC_ERR_DATA_UNKNOWN_CONTENT_TYPE')).toBe(
      true,
    );
    expect((caught as UnsupportedContentTypeException).statusCode).toBe(415);
    expect(registry.find('garbage')).toBeUndefined();
  });
});

describe('createDefaultCodecRegistry', () => {
  it('speaks JSON and PSON', () => {
    const registry = createDefaultCodecRegistry();
    expect(registry.contentTypes()).toEqual(['application/json', 'application/x-pson']);
    expect(registry.get('application/x-pson')).toBeInstanceOf(PsonCodec);
  });
});
