/**
 * Issue 22: a large per-criterion batch finder is served from the text of its criteria
 * (src/server/lazy-criteria.ts), never parsed as a whole list. Over real HTTP on loopback, each request is
 * sent twice: as is (the lazy path) and with an `Accept` that allows response attachments, which keeps the
 * usual path (the whole list parsed up front); both answers must be the same bytes, errors included.
 */
import { of } from 'rxjs';
import {
  type DataList,
  LONG_KEY,
  ServiceError,
  batchFinder,
  collection,
  criteriaOf,
  finder,
  STRING,
} from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoCriteria } from '../generated/fixtures/com/example/photos/PhotoCriteria';
import { type TestServer, type WireResponse, startServer } from './support/http';
import { makePhoto } from './support/photos';

const TUNNEL = { 'x-http-method-override': 'GET', 'content-type': 'application/x-www-form-urlencoded' };
/** The same request kept on the usual path: response attachments need the answers as data. */
const USUAL = { ...TUNNEL, accept: 'application/json, multipart/related' };
const MANY = Array.from({ length: 5 }, (_, i) => makePhoto(i + 100, `many ${i}`));

/** Criteria items seen in `ctx.query` by the handler, per request; handler calls. */
let seenItems: number[] = [];
let calls = 0;

const items = collection({
  name: 'items',
  key: LONG_KEY,
  value: Photo,
  methods: {
    finders: { x: finder({ params: { t: STRING } }, () => []) },
    batchFinders: {
      search: batchFinder.perCriterion(
        { batchParam: 'criteria', params: { criteria: criteriaOf(PhotoCriteria) }, concurrency: 4 },
        (c: PhotoCriteria, _params, ctx) => {
          if (calls++ === 0) seenItems.push((ctx.query.get('criteria') as DataList).size);
          const title = c.getTitleContains() ?? '';
          const i = Number(title.split(' ')[0]);
          const photo = [makePhoto(i + 1, title)];
          switch (i % 6) {
            case 0:
              // an element whose JSON is short and not ASCII (the entry writer copies short ASCII text itself)
              return i % 7 === 0 ? [new Photo().setTitle('é ☺')] : photo;
            case 1:
              // settles after criteria started later: entries are still written in request order
              return new Promise<Photo[]>((resolve) => setTimeout(() => resolve(photo), (i * 7) % 5));
            case 2:
              throw new ServiceError(403, `no ${i}`);
            case 3:
              return undefined;
            case 4:
              return MANY;
            default:
              return of(...photo);
          }
        },
      ),
    },
  },
});

/** `n` criteria (about 24 KB: a form of 16 KB or more is served in slices), item `bad` replaced. */
function form(n: number, bad?: { at: number; item: string }, extra = ''): string {
  const list = Array.from({ length: n }, (_, i) => {
    if (i === bad?.at) return bad.item;
    // percent-encoded text, commas and parentheses included, is data to the scan for item bounds; a flat
    // criterion of ASCII text is read by the parser's flat path, one with UTF-8 escapes by its tokenizer
    const title =
      [`${i}%20caf%C3%A9%2C%28x%29%20''`, `${i}%20a%20b%2C%28x%29%3A`, `${i}%20%27%27`][i % 7] ?? `${i}`;
    switch (i % 5) {
      case 3:
        // another key order, a key given twice (the last wins)
        return `(titleContains:${title},format:PNG,format:JPEG)`;
      case 4:
        return `(format:JPEG,titleContains:${title},takenAfter:1700000000000)`;
      default:
        return `(format:JPEG,titleContains:${title})`;
    }
  });
  return `bq=search&criteria=List(${list.join(',')})${extra}`;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ resources: [items] });
});
afterAll(async () => {
  await server.close();
});

async function both(raw: string): Promise<{ lazy: WireResponse; usual: WireResponse; calls: number[] }> {
  seenItems = [];
  calls = 0;
  const lazy = await server.request('POST', '/items', { headers: TUNNEL, raw });
  const lazyCalls = calls;
  calls = 0;
  const usual = await server.request('POST', '/items', { headers: USUAL, raw });
  return { lazy, usual, calls: [lazyCalls, calls] };
}

describe('a large per-criterion batch finder served from the text of its criteria', () => {
  it.each([
    ['results, promises, observables, errors and 404s', ''],
    ['paged, with links', '&start=1&count=2'],
  ])('answers byte for byte as with the list parsed up front: %s', async (_what, extra) => {
    const { lazy, usual, calls: n } = await both(form(700, undefined, extra));
    expect([lazy.status, usual.status]).toEqual([200, 200]);
    expect(n).toEqual([700, 700]);
    // the lazy path never held the list: the handler's ctx.query has it empty
    expect(seenItems).toEqual([0, 700]);
    expect(lazy.text).toBe(usual.text);
    const entries = lazy.json.elements as Array<{
      elements?: Array<{ title: string }>;
      paging?: { links: unknown[] };
    }>;
    expect(entries).toHaveLength(700);
    if (extra === '') expect(entries[7]!.elements![0]!.title).toBe("7 café,(x) ''");
    // a criterion's paging links name that criterion alone (made from its text)
    else expect(JSON.stringify(entries[28]!.paging!.links)).toContain('titleContains:28');
  });

  it.each([
    ['a criterion outside the grammar', '(format:JPEG,titleContains:a:b)'],
    ['a criterion of the wrong shape', 'List(1)'],
    ['a criterion that does not bind', '(format:NOPE)'],
    ['a criterion with an empty value', '(format:JPEG,titleContains:)'],
    ['a criterion with a nested value', '(format:JPEG,titleContains:(a:b))'],
    ['a criterion with a bad escape', '(format:JPEG,titleContains:a%zz)'],
    ['an empty item', ''],
  ])('answers %s at index 650 as the usual path does, before any handler runs', async (_what, item) => {
    const { lazy, usual, calls: n } = await both(form(700, { at: 650, item }));
    expect(lazy.status).toBe(400);
    expect(n).toEqual([0, 0]);
    expect([lazy.status, lazy.text]).toEqual([usual.status, usual.text]);
  });

  it('answers an ambiguous q and bq, and a list over the limit, as the usual path does', async () => {
    for (const raw of [`q=x&t=a&${form(700)}`, form(1001)]) {
      const { lazy, usual, calls: n } = await both(raw);
      expect(lazy.status).toBe(400);
      expect(n).toEqual([0, 0]);
      expect(lazy.text).toBe(usual.text);
    }
  });
});
