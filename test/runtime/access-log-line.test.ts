/**
 * The access log's own line builders write what pino (JSON.stringify) would: the duration in hundredths
 * of a millisecond is written as `String(h / 100)` without converting a double, and the line built from
 * cached parts is the line built as text, or is not built (left to the text form).
 */
import {
  type AccessTarget,
  accessLineText,
  hundredthsText,
  plainAccessLine,
  timeText,
  wallClock,
} from '../../src/runtime/access-line';

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

it.each([
  0,
  999_999,
  1_000_000,
  1_000_001,
  1_795_000_000_000,
  1_795_000_000_001,
  1_795_000_100_000,
  1_795_000_999_999,
  2 ** 40,
  2 ** 53 - 1,
  2 ** 53,
  1.5,
])('writes the time %d as String(time)', (t) => {
  expect(timeText(t)).toBe(String(t));
});

it("reads the wall clock from performance.now(), measuring the clocks' difference again once a second", () => {
  const now = jest.spyOn(Date, 'now');
  try {
    // a performance.now() later than any before, so that the difference is measured at once
    const p = performance.now() + 1e9;
    now.mockReturnValue(1_795_000_000_000);
    expect(wallClock(p)).toBe(1_795_000_000_000);
    expect(wallClock(p + 250.7)).toBe(1_795_000_000_250);
    // the clock is set forward an hour: lines show it within a second
    now.mockReturnValue(1_795_003_600_999);
    expect(wallClock(p + 999.9)).toBe(1_795_000_000_999);
    expect(wallClock(p + 1000)).toBe(1_795_003_600_999);
    expect(wallClock(p + 1000.5)).toBe(1_795_003_600_999);
    expect(wallClock(p + 1001)).toBe(1_795_003_601_000);
    expect(now).toHaveBeenCalledTimes(2);
  } finally {
    now.mockRestore();
  }
  // the real clocks: within the millisecond Date.now() reads
  const before = Date.now();
  const t = wallClock(performance.now());
  expect(t).toBeGreaterThanOrEqual(before - 1);
  expect(t).toBeLessThanOrEqual(Date.now());
});

function target(resource: string, method: string): AccessTarget {
  const text = `,"resource":${JSON.stringify(resource)},"method":${JSON.stringify(method)}`;
  // eslint-disable-next-line no-control-regex -- beyond ASCII
  return { text, ascii: !/[^\x00-\x7f]/.test(text), status: -1, tail: '' };
}

type Fields = Parameters<typeof accessLineText>;
const base: Fields = [
  1_795_000_123_456,
  '1b4e28ba-2fa1-41d2-883f-00000000002a',
  'GET',
  '/photos/3',
  target('photos', 'get'),
  200,
  41,
  0,
  312,
  undefined,
  undefined,
];
const set = (changes: Partial<Record<number, unknown>>): Fields => {
  const f = [...base] as unknown[];
  for (const [i, v] of Object.entries(changes)) f[Number(i)] = v;
  return f as Fields;
};

/** The line from cached parts (twice: the second finds its parts made), or 'text' when it leaves it to the text form. */
function plain(fields: Fields, plainId = false): string {
  const [time, id, http, url, t, status, h, bytesIn, bytesOut] = fields;
  const lines = [0, 1].map(() =>
    plainAccessLine(time, id, plainId, http, url, t, status, h, bytesIn, bytesOut),
  );
  expect(lines[1]).toBe(lines[0]);
  return lines[0] ?? 'text';
}

it.each<[string, Fields]>([
  ['a get by id', base],
  [
    'a finder with a query',
    set({ 2: 'POST', 3: '/photos?q=search&format=PNG&count=10&x=%7E', 4: target('photos', 'finder:search') }),
  ],
  ['another status', set({ 5: 404 })],
  ['a whole millisecond', set({ 6: 100 })],
  ['tenths', set({ 6: 150 })],
  ['hundredths below a tenth', set({ 6: 7 })],
  ['a day', set({ 6: 8_640_000_000 })],
  ['a duration beyond 2^47 hundredths', set({ 6: 2 ** 47 + 13 })],
  ['a body in', set({ 7: 1234 })],
  ['large byte counts', set({ 7: 2 ** 40 + 3, 8: 9_007_199_254_740_991 })],
  ['zeros', set({ 0: 0, 6: 0, 8: 0 })],
  ['DEL in the URL', set({ 3: '/photos/\u007f' })],
])('builds the line of %s from cached parts as the text form does', (_what, fields) => {
  const text = accessLineText(...fields);
  expect(JSON.parse(text)).toHaveProperty('msg', 'request');
  expect(plain(fields)).toBe(text);
  expect(plain(fields, true)).toBe(text);
});

it.each<[string, Fields]>([
  ['no request id', set({ 1: undefined })],
  ['not routed', set({ 4: undefined })],
  ['a quote in the URL', set({ 3: '/photos/"x' })],
  ['a backslash in the id', set({ 1: 'a\\b' })],
  ['a quote in the method', set({ 2: 'G"T' })],
  ['a control char in the URL', set({ 3: '/photos/\u0001' })],
  ['a char beyond ASCII in the URL', set({ 3: '/fotos/ü' })],
  ['a lone surrogate in the id', set({ 1: 'id\ud800' })],
  ['a target beyond ASCII', set({ 4: target('fotos-ü', 'get') })],
])('leaves the line with %s to the text form', (_what, fields) => {
  expect(plain(fields)).toBe('text');
  // which writes what pino would
  const line = JSON.parse(accessLineText(...fields)) as Record<string, unknown>;
  expect(line['url']).toBe(fields[3]);
  expect(line['reqId']).toBe(fields[1]);
  expect(line['http']).toBe(fields[2]);
});

it.each<[string, Fields, Record<string, unknown>]>([
  [
    'an error with a code',
    set({ 5: 404, 9: 'ResourceNotFoundError', 10: 'SVC_ERR_NOT_FOUND' }),
    { error: 'ResourceNotFoundError', code: 'SVC_ERR_NOT_FOUND' },
  ],
  ['an error without a code', set({ 5: 500, 9: 'Error' }), { error: 'Error' }],
  ['an error name to escape', set({ 5: 500, 9: 'E"\ud800' }), { error: 'E"\ud800' }],
])('writes %s after bytesOut, as pino would', (_what, fields, extra) => {
  const text = accessLineText(...fields);
  const line = JSON.parse(text) as Record<string, unknown>;
  expect(line).toMatchObject(extra);
  expect(Object.keys(line).slice(-3 - Object.keys(extra).length)).toEqual([
    'bytesIn',
    'bytesOut',
    ...Object.keys(extra),
    'msg',
  ]);
});
