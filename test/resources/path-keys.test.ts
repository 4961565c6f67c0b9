/** `ctx.pathKeys` of a one-key path (src/server/path-keys.ts) answers every read as the one-entry Map it stands for. */
import { OneKey } from '../../src/server/path-keys';

const map = new Map<string, unknown>([['photosId', 3]]);
const one = new OneKey<unknown>('photosId', 3);

it.each([
  ['size', (m: ReadonlyMap<string, unknown>) => m.size],
  ['get of its name', (m: ReadonlyMap<string, unknown>) => m.get('photosId')],
  ['get of another name', (m: ReadonlyMap<string, unknown>) => m.get('albumsId')],
  ['has', (m: ReadonlyMap<string, unknown>) => [m.has('photosId'), m.has('x')]],
  ['spread', (m: ReadonlyMap<string, unknown>) => [...m]],
  [
    'entries, keys, values',
    (m: ReadonlyMap<string, unknown>) => [[...m.entries()], [...m.keys()], [...m.values()]],
  ],
  ['Object.fromEntries', (m: ReadonlyMap<string, unknown>) => Object.fromEntries(m)],
  ['new Map of it', (m: ReadonlyMap<string, unknown>) => new Map(m)],
  [
    'forEach',
    (m: ReadonlyMap<string, unknown>) => {
      const seen: unknown[] = [];
      m.forEach((v, k, self) => seen.push(k, v, self === m));
      return seen;
    },
  ],
])('reads %s as a Map does', (_what, read) => {
  expect(read(one)).toEqual(read(map));
});
