import {
  CodecRegistry,
  ContentNegotiationError,
  JsonCodec,
  PsonCodec,
  buildAcceptHeader,
  createDefaultCodecRegistry,
  negotiateResponseType,
  parseAccept,
  selectRequestCodec,
  selectResponseCodec,
} from '../../src';

const JSON_TYPE = 'application/json';
const PSON_TYPE = 'application/x-pson';

function negotiationError(fn: () => unknown): ContentNegotiationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ContentNegotiationError) return err;
    throw err;
  }
  throw new Error('no error');
}

describe('response type from Accept (wire facts §3.4)', () => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, JSON_TYPE],
    ['', JSON_TYPE],
    ['*/*', JSON_TYPE],
    ['*', JSON_TYPE],
    ['application/*', JSON_TYPE],
    ['application/json', JSON_TYPE],
    ['application/x-pson', PSON_TYPE],
    ['APPLICATION/X-PSON; charset=utf-8', PSON_TYPE],
    ['multipart/related', JSON_TYPE],
    ['multipart/related;q=0.5', JSON_TYPE],
    ['application/x-pson;q=1.0,application/json;q=0.9', PSON_TYPE],
    ['application/json;q=0.9,application/x-pson', PSON_TYPE],
    ['application/x-pson, */*', PSON_TYPE],
    ['*/*, application/x-pson', PSON_TYPE],
    ['text/html, application/x-pson;q=0.1', PSON_TYPE],
    ['application/json;q=0, */*', PSON_TYPE],
    ['application/x-pson;q=0.5, application/json;q=0.5', JSON_TYPE],
    ['application/x-pson;q=0.5, application/*;q=0.5', PSON_TYPE],
    ['application/x-pson;q=bogus', PSON_TYPE],
    ['application/x-pson;q=2, application/json;q=0.9', PSON_TYPE],
    ['application/x-pson, multipart/related', PSON_TYPE],
    ['application/json;q=0.1, application/*', PSON_TYPE],
    ['text/plain;level=1;q=0.1, application/x-pson;q=0.2', PSON_TYPE],
    [' , application/x-pson', PSON_TYPE],
  ];
  for (const [accept, expected] of cases) {
    it(`picks ${expected} for Accept: ${accept === undefined ? '(none)' : JSON.stringify(accept)}`, () => {
      expect(negotiateResponseType(accept)).toBe(expected);
    });
  }

  it('answers 406 when nothing fits', () => {
    for (const accept of [
      'text/html',
      'application/xml, text/*',
      '*/*;q=0',
      'application/json;q=0, application/x-pson;q=0',
    ]) {
      const err = negotiationError(() => negotiateResponseType(accept));
      expect(err.statusCode).toBe(406);
      expect(err.code).toBe('SVC_ERR_PROTOCOL_NOT_ACCEPTABLE');
      expect(err.message).toBe(
        "None of the types in the request's 'Accept' header are supported. Supported MIME types are: [application/json, application/x-pson]",
      );
    }
  });

  it('answers 400 for an Accept item that is not a media type', () => {
    for (const accept of ['json', 'application/json/x', 'application/json, /x']) {
      const err = negotiationError(() => negotiateResponseType(accept));
      expect(err.statusCode).toBe(400);
      expect(err.code).toBe('SVC_ERR_PROTOCOL_BAD_ACCEPT');
    }
    expect(negotiationError(() => negotiateResponseType('json')).message).toBe(
      "Encountered invalid MIME type 'json' in accept header.",
    );
  });

  it('reads q-values as the reference does: out-of-range or junk means 1', () => {
    expect(parseAccept('a/b;q=0.3, c/d;q=1.5, e/f;q=x, g/h;Q=0')).toEqual([
      { type: 'a', subtype: 'b', q: 0.3 },
      { type: 'c', subtype: 'd', q: 1 },
      { type: 'e', subtype: 'f', q: 1 },
      { type: 'g', subtype: 'h', q: 0 },
    ]);
  });

  it('follows the server preference order for ties, and a server without JSON', () => {
    expect(negotiateResponseType('*/*', [PSON_TYPE, JSON_TYPE])).toBe(PSON_TYPE);
    expect(negotiateResponseType('application/*', [PSON_TYPE, JSON_TYPE])).toBe(PSON_TYPE);
    expect(negotiateResponseType(undefined, [PSON_TYPE])).toBe(PSON_TYPE);
    expect(negotiateResponseType('*/*', [PSON_TYPE])).toBe(PSON_TYPE);
  });
});

describe('codecs from a registry', () => {
  const registry = createDefaultCodecRegistry();

  it('chooses the response codec and content type', () => {
    const json = selectResponseCodec(undefined, registry);
    expect(json.contentType).toBe(JSON_TYPE);
    expect(json.codec).toBeInstanceOf(JsonCodec);
    const pson = selectResponseCodec('application/x-pson', registry);
    expect(pson.contentType).toBe(PSON_TYPE);
    expect(pson.codec).toBeInstanceOf(PsonCodec);
    expect(() => selectResponseCodec('text/html', registry)).toThrow(ContentNegotiationError);
  });

  it('prefers JSON on ties even when registered later', () => {
    const r = new CodecRegistry().register(new PsonCodec()).register(new JsonCodec());
    expect(selectResponseCodec('*/*', r).contentType).toBe(JSON_TYPE);
  });

  it('chooses the request codec from Content-Type, JSON when absent', () => {
    expect(selectRequestCodec(undefined, registry)).toBeInstanceOf(JsonCodec);
    expect(selectRequestCodec('', registry)).toBeInstanceOf(JsonCodec);
    expect(selectRequestCodec('application/json; charset=UTF-8', registry)).toBeInstanceOf(JsonCodec);
    expect(selectRequestCodec('Application/X-PSON', registry)).toBeInstanceOf(PsonCodec);
  });

  it('answers 415 for a body it cannot read', () => {
    for (const ct of ['text/plain', 'application/xml', 'garbage']) {
      const err = negotiationError(() => selectRequestCodec(ct, registry));
      expect(err.statusCode).toBe(415);
      expect(err.code).toBe('SVC_ERR_PROTOCOL_UNSUPPORTED_MEDIA_TYPE');
    }
    expect(negotiationError(() => selectRequestCodec('text/plain', registry)).message).toBe(
      "Unsupported Content-Type 'text/plain'; supported: application/json, application/x-pson",
    );
  });
});

describe('the Accept header a client sends', () => {
  it('writes one type bare and several with falling q-values computed in floating point', () => {
    expect(buildAcceptHeader([])).toBeUndefined();
    expect(buildAcceptHeader([JSON_TYPE])).toBe(JSON_TYPE);
    expect(buildAcceptHeader(['a/a', 'b/b', 'c/c', 'd/d'])).toBe(
      'a/a;q=1.0,b/b;q=0.9,c/c;q=0.8,d/d;q=0.7000000000000001',
    );
  });

  it('adds multipart/related when attachments are welcome', () => {
    expect(buildAcceptHeader([], true)).toBe('multipart/related;q=1.0');
    expect(buildAcceptHeader([JSON_TYPE], true)).toBe('application/json;q=1.0,multipart/related;q=0.9');
  });

  it('is understood by the negotiation', () => {
    expect(negotiateResponseType(buildAcceptHeader([PSON_TYPE, JSON_TYPE], true))).toBe(PSON_TYPE);
  });
});
