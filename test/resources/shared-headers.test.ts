import { ASCII_HEADERS, REPLY_READY_HEADERS, sharedHeaders } from '../../src/server/http-adapter';

describe('sharedHeaders', () => {
  it.each([
    [
      'a version and a content type',
      { 'x-restli-protocol-version': '2.0.0', 'content-type': 'application/json' },
    ],
    ['names in any case', { 'X-RestLi-Protocol-Version': '2.0.0', 'Content-Type': 'application/x-pson' }],
    [
      'a value needing escapes in a literal',
      { 'x-note': 'a "quoted" \\ value', 'content-type': 'text/plain' },
    ],
    ['a content length of its own', { 'content-length': '12', 'content-type': 'text/plain' }],
    ['a name a literal would take for the prototype', { ['__proto__']: 'x', 'content-type': 'text/plain' }],
    ['integer-like names', { '2': 'b', 'x-a': 'a', '1': 'c' }],
    ['no names', {}],
  ])(
    'copies %s for a response: same names, order and values, writable, apart from the shared object',
    (_, h) => {
      const headers: Record<string, string> = {};
      // defineProperty: `__proto__` as an own name, as a header name would be
      for (const [k, v] of Object.entries(h))
        Object.defineProperty(headers, k, { value: v, enumerable: true, writable: true, configurable: true });
      const shared = sharedHeaders(headers);
      expect(Object.isFrozen(shared)).toBe(true);
      const copy = ASCII_HEADERS.get(shared)!();
      expect(Object.entries(copy)).toEqual(Object.entries(shared));
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      copy['content-length'] = 99;
      expect(Object.keys(copy).at(-1)).toBe(
        Object.hasOwn(shared, 'content-length') ? Object.keys(shared).at(-1) : 'content-length',
      );
      expect(Object.hasOwn(shared, 'content-length') ? shared['content-length'] : undefined).not.toBe(99);
      expect(ASCII_HEADERS.get(shared)!()).toEqual({ ...shared });
    },
  );

  it.each([
    [
      'lower-case, typed',
      { 'x-restli-protocol-version': '2.0.0', 'content-type': 'application/json' },
      true,
      true,
    ],
    ['a name in upper case', { 'X-Version': '2.0.0', 'content-type': 'application/json' }, true, false],
    ['no content type', { 'x-restli-protocol-version': '2.0.0' }, true, false],
    ['a content length', { 'content-type': 'text/plain', 'content-length': '3' }, true, false],
    ['a value beyond ASCII', { 'content-type': 'text/plain', 'x-name': 'Zoë' }, false, false],
  ])('notes headers with %s as ASCII (%s) and as fastify keeps them (%s)', (_, h, ascii, ready) => {
    const shared = sharedHeaders({ ...h });
    expect(ASCII_HEADERS.has(shared)).toBe(ascii);
    expect(REPLY_READY_HEADERS.has(shared)).toBe(ready);
  });
});
