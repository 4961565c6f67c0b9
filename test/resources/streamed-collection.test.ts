/**
 * A finder answered with `withDemand` is written as it is produced (src/server/streamed-collection.ts:
 * batches sized to ~64 KB of JSON, each encoded by one JsonCodec.mapsToString, the next fetched while the
 * previous one is written), and its bytes are exactly those of the same page answered buffered: elements
 * with longs beyond ±2^53 and NaN (the encoder's slow paths), escapes, rows of very different widths (so
 * that batch sizes change mid-stream), projections and pages.
 */
import { Observable } from 'rxjs';
import { DataMap, JsonCodec, LONG_KEY, collection, finder, withDemand } from '../../src';
import { Exif } from '../generated/fixtures/com/example/photos/Exif';
import { LatLong } from '../generated/fixtures/com/example/photos/LatLong';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';
import { type TestServer, startServer } from './support/http';

const TOTAL = 3000;

/** Photo `i`: ids beyond 2^53 now and then, NaN latitudes, escapes, and titles from 1 to ~2,000 chars. */
function photo(i: number): Photo {
  const p = new Photo()
    .setId(i % 997 === 0 ? 2n ** 60n + BigInt(i) : i)
    .setTitle(`"${i}" \\ \u2028 é 😀 ${'w'.repeat(i % 500 === 0 ? 2000 : i % 7)}`)
    .setFormat(i % 2 === 0 ? PhotoFormat.PNG : PhotoFormat.JPEG);
  if (i % 101 === 0) p.setExif(new Exif().setLocation(new LatLong().setLatitude(Number.NaN).setLongitude(i)));
  return p;
}

const PHOTOS = Array.from({ length: TOTAL }, (_, i) => photo(i + 1));

function page(paging: { readonly start: number; readonly count: number }): Photo[] {
  return PHOTOS.slice(paging.start, paging.start + paging.count);
}

/** The page as a demand source: emits only what is asked for, a turn of the event loop later. */
function demanded(items: readonly Photo[]): Observable<Photo> {
  return withDemand<Photo>(
    (demand$) =>
      new Observable<Photo>((subscriber) => {
        let next = 0;
        const sub = demand$.subscribe((n) => {
          setImmediate(() => {
            for (let k = 0; k < n && next < items.length && !subscriber.closed; k++)
              subscriber.next(items[next++]!);
            if (next === items.length) subscriber.complete();
          });
        });
        return () => sub.unsubscribe();
      }),
  );
}

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    resources: [
      collection({
        name: 'photos',
        key: LONG_KEY,
        value: Photo,
        methods: {
          finders: {
            streamed: finder({ params: {}, paging: true }, (_p, ctx) => demanded(page(ctx.paging))),
            buffered: finder({ params: {}, paging: true }, (_p, ctx) => page(ctx.paging)),
          },
        },
      }),
    ],
  });
});

afterAll(async () => {
  await server?.close();
});

describe('a streamed finder answer', () => {
  it.each([
    ['the default page', ''],
    ['every photo, in batches of changing size', `&count=${TOTAL}`],
    ['a page from the middle', '&start=1234&count=1500'],
    ['a projection', `&count=${TOTAL}&fields=id,exif`],
    ['the last few', `&start=${TOTAL - 3}&count=100`],
    ['an empty page', '&count=0'],
  ])('has the bytes of the buffered answer: %s', async (_name, query) => {
    const streamed = await server.request('GET', `/photos?q=streamed${query}`);
    const buffered = await server.request('GET', `/photos?q=buffered${query}`);
    expect(streamed.status).toBe(200);
    expect(buffered.status).toBe(200);
    // the first was written as it came (chunked), the second at once
    expect(streamed.headers.get('transfer-encoding')).toBe('chunked');
    expect(buffered.headers.get('content-length')).not.toBeNull();
    expect(streamed.headers.get('content-type')).toBe(buffered.headers.get('content-type'));
    // the paging links name each its own finder
    expect(streamed.text.replaceAll('q=streamed', 'q=buffered')).toBe(buffered.text);
  });
});

describe('JsonCodec.mapsToString', () => {
  const codec = new JsonCodec();
  const plain = (i: number): DataMap => new DataMap([['n', i]]);
  it.each([
    ['none', []],
    ['plain maps', [plain(1), plain(2), plain(3)]],
    ['a long beyond 2^53 among them', [plain(1), new DataMap([['n', 2n ** 60n]]), plain(3)]],
    ['NaN among them', [plain(1), new DataMap([['d', Number.NaN]]), plain(3)]],
    ['maps decoded with longs', [codec.stringToMap('{"n":9007199254740993}'), plain(2)]],
  ])('writes what mapToString writes for each, comma-joined: %s', (_name, maps: DataMap[]) => {
    expect(codec.mapsToString(maps)).toBe(maps.map((m) => codec.mapToString(m)).join(','));
  });
});
