/**
 * Queries the pipeline keeps parsed (pipeline.ts, `parsedQuery`): a query of strings and lists of strings is
 * kept from the second request with its text on (the first is only remembered, up to 1 024 texts) and handed,
 * read-only, to the next requests with the same text; a query holding a record and a text over 1 KiB are
 * parsed for each request, and the same text under protocol 1.0.0 is kept apart.
 * Read through what a handler sees: `ctx.query`, and the parameters and ids bound from it.
 */
import {
  type DataMap,
  INT,
  LONG_KEY,
  type ResourceRequest,
  STRING,
  arrayOf,
  collection,
  finder,
  optional,
  recordOf,
} from '../../src';
import { createResourcePipeline, resolveSvcOptions } from '../../src/server/fastify-plugin';
import { LatLong } from '../generated/fixtures/com/example/photos/LatLong';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';

interface Seen {
  readonly query: DataMap;
  readonly params: Record<string, unknown>;
  readonly paging: { readonly start: number; readonly count: number };
  readonly projection: DataMap | undefined;
}

const seen: Seen[] = [];
const idsSeen: unknown[][] = [];

const photos = collection({
  name: 'photos',
  key: LONG_KEY,
  value: Photo,
  methods: {
    batchGet: (ids) => {
      idsSeen.push(ids as unknown[]);
      return new Map();
    },
    finders: {
      search: finder(
        {
          params: {
            title: optional(STRING),
            limit: optional(INT, 10),
            tags: optional(arrayOf(STRING)),
            near: optional(recordOf(LatLong)),
          },
        },
        (params, ctx) => {
          seen.push({ query: ctx.query, params, paging: ctx.paging, projection: ctx.projection });
          return [];
        },
      ),
    },
  },
});

const pipeline = createResourcePipeline(resolveSvcOptions({ resources: [photos], maxBatchSize: 4 }));
const log = { error() {}, warn() {}, info() {}, debug() {} };

function send(query: string, version = '2.0.0'): number {
  const request: ResourceRequest = {
    method: 'GET',
    url: `/photos?${query}`,
    path: '/photos',
    query,
    headers: { host: 'x', 'x-svc-protocol-version': version },
    body: undefined,
    attributes: new Map(),
  };
  const out = pipeline.handle(request, log, true);
  if (out instanceof Promise) throw new Error('expected a synchronous answer');
  return out.status;
}

beforeEach(() => {
  seen.length = 0;
  idsSeen.length = 0;
});

const LONG_TITLE = 'x'.repeat(1100);

it.each([
  { what: 'strings only', query: 'q=search&title=a&limit=3', kept: true },
  { what: 'strings and a list of strings', query: 'q=search&title=a&tags=List(a,b)', kept: true },
  { what: 'a record', query: 'q=search&near=(latitude:1,longitude:2)', kept: false },
  { what: 'a text over 1 KiB', query: `q=search&title=${LONG_TITLE}`, kept: false },
])('a query of $what is kept from its second request on: $kept', ({ query, kept }) => {
  const other = 'q=search&title=other';
  expect([send(query), send(other), send(query), send(query)]).toEqual([200, 200, 200, 200]);
  const [first, , second, third] = seen;
  // the first time, a text is only remembered: most texts never come again
  expect(first!.query.isReadOnly()).toBe(false);
  expect(second!.query).not.toBe(first!.query);
  expect(third!.query === second!.query).toBe(kept);
  expect(second!.query.isReadOnly()).toBe(kept);
  expect(seen[1]!.query).not.toBe(second!.query);
  // the parameters are each request's own, bound alike
  expect(third!.params).not.toBe(second!.params);
  expect(third!.params).toEqual(first!.params);
});

it('keeps the same text apart under protocol 1.0.0', () => {
  const text = 'q=search&title=versions';
  send(text);
  send(text);
  send(text, '1.0.0');
  send(text, '1.0.0');
  send(text, '1.0.0');
  expect(seen[1]!.query.isReadOnly()).toBe(true);
  expect(seen[2]!.query.isReadOnly()).toBe(false);
  expect(seen[3]!.query).not.toBe(seen[1]!.query);
  expect(seen[4]!.query).toBe(seen[3]!.query);
});

it("refuses a change to a kept query's map", () => {
  const text = 'q=search&title=unchanged';
  send(text);
  send(text);
  expect(() => seen[1]!.query.put('title', 'b')).toThrow();
  send(text);
  expect(seen[2]!.params.title).toBe('unchanged');
});

it('hands each batch_get of a kept query ids of its own', () => {
  for (let i = 0; i < 3; i++) expect(send('ids=List(3,1,2)')).toBe(200);
  expect(idsSeen).toEqual([
    [3, 1, 2],
    [3, 1, 2],
    [3, 1, 2],
  ]);
  expect(new Set(idsSeen).size).toBe(3);
  // a handler changing its ids changes no later request's
  idsSeen[2]!.push(99);
  send('ids=List(3,1,2)');
  expect(idsSeen[3]).toEqual([3, 1, 2]);
});

it('keeps at most 256 texts (then starts over), answering every request right', () => {
  for (let i = 0; i < 600; i++) {
    expect(send(`q=search&title=t${i}`)).toBe(200);
    expect(send(`q=search&title=t${i}`)).toBe(200);
  }
  expect(seen.map((s) => s.params.title)).toEqual(Array.from({ length: 1200 }, (_, i) => `t${i >> 1}`));
  // the first texts were let go, the last ones are kept
  send('q=search&title=t0');
  send('q=search&title=t599');
  expect(seen[1200]!.query).not.toBe(seen[1]!.query);
  expect(seen[1200]!.query.isReadOnly()).toBe(false);
  expect(seen[1201]!.query).toBe(seen[1199]!.query);
});

it('remembers at most 1 024 texts seen once: a text seen before them all is new again', () => {
  send('q=search&title=long-ago');
  for (let i = 0; i < 1100; i++) send(`q=search&title=once${i}`);
  expect(seen.every((s) => !s.query.isReadOnly())).toBe(true);
  // forgotten: its next request is its first as far as keeping goes, and the one after is kept
  send('q=search&title=long-ago');
  send('q=search&title=long-ago');
  expect(seen[1101]!.query.isReadOnly()).toBe(false);
  expect(seen[1102]!.query.isReadOnly()).toBe(true);
  // remembered: a text seen once among the last ones is kept on its next request
  send('q=search&title=once1099');
  expect(seen[1103]!.query.isReadOnly()).toBe(true);
});

it("reads a kept query's paging and projection for each request, as each text has them", () => {
  const paged = 'q=search&title=a&start=2&count=5&fields=title';
  const other = 'q=search&title=a&start=7&count=1';
  for (const query of [paged, other, paged, other, paged, 'q=search&title=a']) expect(send(query)).toBe(200);
  expect(seen.map((s) => s.paging)).toEqual([
    { start: 2, count: 5 },
    { start: 7, count: 1 },
    { start: 2, count: 5 },
    { start: 7, count: 1 },
    { start: 2, count: 5 },
    { start: 0, count: 10 },
  ]);
  expect(seen[4]!.query).toBe(seen[2]!.query);
  expect(seen.map((s) => s.projection?.toString())).toEqual([
    '{"title":1}',
    undefined,
    '{"title":1}',
    undefined,
    '{"title":1}',
    undefined,
  ]);
  // the projection is parsed for each request: a handler changing its own changes no later request's
  expect(seen[4]!.projection).not.toBe(seen[2]!.projection);
});

it('refuses a kept batch over the limit on every request, and takes one within it', () => {
  const over = 'ids=List(1,2,3,4,5)';
  const within = 'ids=List(1,2,3,4)';
  expect([over, within, over, within, over, within].map((q) => send(q))).toEqual([
    400, 200, 400, 200, 400, 200,
  ]);
});
