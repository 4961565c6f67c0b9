/**
 * The pipeline's compiled header reads (src/server/header-reads.ts) answer what a loop over the names
 * reading `headers[name]` answers: for a table of cases, for random names and headers, and where code
 * cannot be compiled from strings (the loop serves then). What they read over HTTP (the version and method
 * headers of both header families, the tunneling override, `Accept-Encoding`) is tested there:
 * header-families, tunneling-wire and compression.
 */
import fc from 'fast-check';
import { firstPresentRead, firstValueRead } from '../../src/server/header-reads';
import type { RequestHeaders } from '../../src/resources/request';
import { withoutCodeFromStrings } from '../support/no-code-from-strings';

function loopValue(names: readonly string[], h: RequestHeaders): unknown {
  for (const name of names) if (h[name] !== undefined) return h[name];
  return undefined;
}

function loopPresent(names: readonly string[], h: RequestHeaders): number {
  return names.findIndex((name) => h[name] !== undefined);
}

const NAMES = ['x-svc-protocol-version', 'x-restli-protocol-version'];
const CASES: ReadonlyArray<[string, readonly string[], RequestHeaders]> = [
  ['no headers', NAMES, {}],
  ['the first name', NAMES, { 'x-svc-protocol-version': '2.0.0' }],
  ['the second name only', NAMES, { 'x-restli-protocol-version': '1.0.0', host: 'h' }],
  [
    'both names: the first wins',
    NAMES,
    { 'x-restli-protocol-version': '1.0.0', 'x-svc-protocol-version': '2.0.0' },
  ],
  ['an empty value is present', NAMES, { 'x-svc-protocol-version': '' }],
  ['a list value', ['set-cookie'], { 'set-cookie': ['a=1', 'b=2'] }],
  [
    'an undefined value is absent',
    NAMES,
    { 'x-svc-protocol-version': undefined, 'x-restli-protocol-version': '1' },
  ],
  ['another case is another name', NAMES, { 'X-Svc-Protocol-Version': '2.0.0' }],
  ['names that need escapes as literals', ['a"b', 'c\\d', '\u2028'], { 'c\\d': 'x', '\u2028': 'y' }],
  ['no names', [], { a: 'b' }],
  ['an integer-like name', ['42'], { 42: 'x' }],
];

describe('compiled header reads', () => {
  it.each(CASES)('read as the loop reads them: %s', (_, names, headers) => {
    expect(firstValueRead(names)(headers)).toEqual(loopValue(names, headers));
    expect(firstPresentRead(names)(headers)).toBe(loopPresent(names, headers));
  });

  it('read the same shape of headers again and again alike (the inline caches warm up)', () => {
    const value = firstValueRead(NAMES);
    const present = firstPresentRead(NAMES);
    for (let i = 0; i < 2000; i++) {
      const h: RequestHeaders =
        i % 3 === 0 ? { host: 'h', 'x-svc-protocol-version': `${i}` } : { host: 'h', accept: '*/*' };
      expect(value(h)).toBe(i % 3 === 0 ? `${i}` : undefined);
      expect(present(h)).toBe(i % 3 === 0 ? 0 : -1);
    }
  });

  it('read random names and headers as the loop does', () => {
    const name = fc.oneof(fc.constantFrom(...NAMES, 'accept', '__proto__', 'constructor'), fc.string());
    fc.assert(
      fc.property(
        fc.array(name, { maxLength: 4 }),
        fc.dictionary(name, fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 2 }))),
        (names, dict) => {
          const headers = Object.assign(Object.create(null) as object, dict) as RequestHeaders;
          expect(firstValueRead(names)(headers)).toEqual(loopValue(names, headers));
          expect(firstPresentRead(names)(headers)).toBe(loopPresent(names, headers));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('are loops with the same answers where code cannot be compiled from strings (a CSP)', () => {
    withoutCodeFromStrings(() => {
      const value = firstValueRead(NAMES);
      const present = firstPresentRead(NAMES);
      expect(value.name).not.toBe('firstValue');
      expect(present.name).not.toBe('firstPresent');
      for (const [, , headers] of CASES) {
        expect(value(headers)).toEqual(loopValue(NAMES, headers));
        expect(present(headers)).toBe(loopPresent(NAMES, headers));
      }
    });
  });

  it('compile to functions named for what they read', () => {
    expect(firstValueRead(NAMES).name).toBe('firstValue');
    expect(firstPresentRead(NAMES).name).toBe('firstPresent');
  });
});
