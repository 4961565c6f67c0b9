/**
 * fast-check arbitraries for the protocol tests: strings that stress the URI grammar, string-leaf data
 * trees (what the element parser produces), and resource keys.
 */
import fc from 'fast-check';
import { ByteString, ComplexKey, CompoundKey, DataList, DataMap, type DataValue } from '../../src';
import { dataString } from '../support/data-arbitraries';

/** Characters that mean something to one of the layers. */
const SPECIAL = [
  '(',
  ')',
  ',',
  ':',
  "'",
  '%',
  '+',
  ' ',
  '&',
  '=',
  '/',
  '?',
  '#',
  ';',
  '$',
  '*',
  '@',
  '!',
  '~',
  '"',
  '\\',
];

/** Strings full of grammar chars, escapes-lookalikes, unicode and surrogate pairs (no lone surrogates). */
export const uriString: fc.Arbitrary<string> = fc.oneof(
  dataString,
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          ...SPECIAL,
          'List',
          "''",
          '%41',
          '%zz',
          'é',
          '☺',
          '😀',
          '\u{10FFFF}',
          '\u0000',
          '\uFEFF',
        ),
        fc.string({ maxLength: 3 }),
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join('')),
  fc.constantFrom('', "''", '%27%27', 'List', 'List(', 'a+b', '%', '%%', '(', ')'),
);

/** A {@link uriString} that may be a map key: no U+0000. */
export const mapKey: fc.Arbitrary<string> = uriString.map((k) => k.replaceAll('\u0000', '0'));

/** A data tree whose leaves are strings: what parseElement returns. */
export const stringTree: fc.Arbitrary<DataValue> = fc.letrec<{
  value: DataValue;
  map: DataMap;
  list: DataList;
}>((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 4 }, uriString, tie('map'), tie('list')),
  // map keys never hold U+0000 (data/limits.ts's sibling rule: Svc keys are PSON-writable)
  map: fc.array(fc.tuple(mapKey, tie('value')), { maxLength: 5 }).map((entries) => {
    const m = new DataMap();
    for (const [k, v] of entries) m.put(k, v);
    return m;
  }),
  list: fc.array(tie('value'), { maxLength: 5 }).map((items) => new DataList(items)),
})).value;

/** Text that is a random mix of grammar tokens and junk: what a hostile client may send. */
export const grammarNoise: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '(',
        ')',
        ',',
        ':',
        'List(',
        'List',
        "''",
        '%',
        '%2',
        '%41',
        '%C3%A9',
        '%E2%98',
        '%zz',
        'a',
        ' ',
        '+',
      ),
      fc.string({ maxLength: 2 }),
    ),
    { maxLength: 16 },
  )
  .map((parts) => parts.join(''));

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** A long in its one representation: a safe number, or a bigint beyond ±2^53. */
export const longValue: fc.Arbitrary<number | bigint> = fc
  .bigInt({ min: LONG_MIN, max: LONG_MAX })
  .map((b) => (b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b));

export const partName: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/),
  fc.constantFrom('a b', 'x:y', "it's", '(p)', 'ü'),
);

/** A compound key with string and long parts, and the part types to decode it. */
export const compoundKeyCase: fc.Arbitrary<{ key: CompoundKey; parts: Record<string, 'string' | 'long'> }> =
  fc
    .uniqueArray(
      fc.tuple(
        partName,
        fc.oneof(
          mapKey.map((s) => ({ t: 'string' as const, v: s })),
          longValue.map((v) => ({ t: 'long' as const, v })),
        ),
      ),
      {
        minLength: 1,
        maxLength: 4,
        selector: ([name]) => name,
      },
    )
    .map((parts) => {
      const key = new CompoundKey();
      const types: Record<string, 'string' | 'long'> = {};
      for (const [name, { t, v }] of parts) {
        key.append(name, v);
        Object.defineProperty(types, name, {
          value: t,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return { key, parts: types };
    });

const recordOfStrings: fc.Arbitrary<DataMap> = fc
  .array(
    fc.tuple(
      partName.filter((n) => n !== '$params'),
      fc.oneof(
        uriString,
        fc.array(uriString, { maxLength: 3 }).map((xs) => new DataList(xs)),
      ),
    ),
    {
      maxLength: 4,
    },
  )
  .map((entries) => {
    const m = new DataMap();
    for (const [k, v] of entries) m.put(k, v);
    return m;
  });

/** A complex key whose key and params records hold strings and lists of strings. */
export const complexKey: fc.Arbitrary<ComplexKey> = fc
  .tuple(recordOfStrings, fc.option(recordOfStrings, { nil: undefined }))
  .map(([key, params]) => new ComplexKey(key, params));

/** Bytes as a ByteString. */
export const byteString: fc.Arbitrary<ByteString> = fc
  .uint8Array({ maxLength: 12 })
  .map((b) => ByteString.copy(b));
