/**
 * The access log's own line builder writes numbers as pino (JSON.stringify) would: the duration in
 * hundredths of a millisecond is written as `String(h / 100)`, without converting a double.
 */
import { hundredthsText } from '../../src/runtime/access-log';

it.each([
  0,
  1,
  7,
  10,
  41,
  99,
  100,
  101,
  110,
  150,
  999,
  12_345,
  100_000,
  2 ** 31 + 7,
  2 ** 47 - 1,
  2 ** 47 + 13,
])('writes %d hundredths of a millisecond as String(h / 100)', (h) => {
  expect(hundredthsText(h)).toBe(String(h / 100));
});

it('writes every duration up to a day as String(h / 100)', () => {
  // every hundredth up to 1 s, then a sample up to 24 h
  for (let h = 0; h < 8_640_000_000; h += h < 100_000 ? 1 : 370_003)
    if (hundredthsText(h) !== String(h / 100)) throw new Error(`${h}: ${hundredthsText(h)}`);
});
