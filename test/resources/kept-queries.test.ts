/**
 * Queries the pipeline keeps parsed (pipeline.ts, `parsedQuery`): a query of strings and lists of strings is
 * parsed once per text and handed, read-only, to the next requests with the same text; a query holding a
 * record, a text over 1 KiB and the same text under protocol 1.0.0 are each parsed for their own request.
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
])('a query of $what is kept for the next request with its text: $kept', ({ query, kept }) => {
  expect([send(query), send('q=search&title=other'), send(query)]).toEqual([200, 200, 200]);
  const [first, other, again] = seen;
  expect(again!.query === first!.query).toBe(kept);
  expect(first!.query.isReadOnly()).toBe(kept);
  expect(other!.query).not.toBe(first!.query);
  // the parameters are each request's own, bound alike
  expect(again!.params).not.toBe(first!.params);
  expect(again!.params).toEqual(first!.params);
});

it('keeps the same text apart under protocol 1.0.0', () => {
  send('q=search&title=a');
  send('q=search&title=a', '1.0.0');
  send('q=search&title=a', '1.0.0');
  expect(seen[1]!.query).not.toBe(seen[0]!.query);
  expect(seen[2]!.query).toBe(seen[1]!.query);
});

it("refuses a change to a kept query's map", () => {
  send('q=search&title=a');
  expect(() => seen[0]!.query.put('title', 'b')).toThrow();
  send('q=search&title=a');
  expect(seen[1]!.params.title).toBe('a');
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
  for (let i = 0; i < 600; i++) expect(send(`q=search&title=t${i}`)).toBe(200);
  expect(seen.map((s) => s.params.title)).toEqual(Array.from({ length: 600 }, (_, i) => `t${i}`));
  // the first texts were let go, the last ones are kept
  send('q=search&title=t0');
  send('q=search&title=t599');
  expect(seen[600]!.query).not.toBe(seen[0]!.query);
  expect(seen[601]!.query).toBe(seen[599]!.query);
});

it("reads a kept query's paging and projection for each request, as each text has them", () => {
  const paged = 'q=search&title=a&start=2&count=5&fields=title';
  for (const query of [paged, 'q=search&title=a&start=7&count=1', paged, 'q=search&title=a'])
    expect(send(query)).toBe(200);
  expect(seen.map((s) => s.paging)).toEqual([
    { start: 2, count: 5 },
    { start: 7, count: 1 },
    { start: 2, count: 5 },
    { start: 0, count: 10 },
  ]);
  expect(seen[2]!.query).toBe(seen[0]!.query);
  expect(seen.map((s) => s.projection?.toString())).toEqual([
    '{"title":1}',
    undefined,
    '{"title":1}',
    undefined,
  ]);
  // the projection is parsed for each request: a handler changing its own changes no later request's
  expect(seen[2]!.projection).not.toBe(seen[0]!.projection);
});

it('refuses a kept batch over the limit on every request, and takes one within it', () => {
  expect([send('ids=List(1,2,3,4,5)'), send('ids=List(1,2,3,4)'), send('ids=List(1,2,3,4,5)')]).toEqual([
    400, 200, 400,
  ]);
});
