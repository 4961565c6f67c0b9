/**
 * batch_get answered by a list in the order of the keys the handler was given (definition.ts
 * `BatchGetReturn`, as a DataLoader batch function answers): entry i is key i's entity, nothing for a key
 * with none, or its own error. Read on the wire (both servers: the `node-server` jest project runs this file
 * again), beside the Map answer it must match byte for byte.
 */
import { LONG_KEY, ServiceError, collection } from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { makePhoto } from './support/photos';
import { type TestServer, startServer } from './support/http';

const photos = new Map<string, Photo>([
  ['1', makePhoto(1, 'Sunrise')],
  ['2', makePhoto(2, 'Harbour')],
  ['3', makePhoto(3, 'Dunes')],
  ['9007199254740993', makePhoto(9007199254740993n, 'Big')],
]);
const find = (id: number | bigint): Photo | undefined => photos.get(String(id));

/** What the handler answers for the keys it was given (each test case sets it). */
let answer: (ids: readonly (number | bigint)[]) => unknown = () => [];
const seen: Array<readonly (number | bigint)[]> = [];

const resource = collection({
  name: 'photos',
  key: LONG_KEY,
  value: Photo,
  methods: {
    batchGet: (ids) => {
      seen.push(ids);
      return answer(ids) as ReadonlyArray<Photo | undefined>;
    },
  },
});

let server: TestServer;
beforeAll(async () => {
  // development mode: a 500 says why (production answers INTERNAL SERVER ERROR alone)
  server = await startServer({ resources: [resource], mode: 'development' });
});
afterAll(() => server.close());
beforeEach(() => {
  seen.length = 0;
});

/** The same request answered by a Map of what was found: the form the list must match on the wire. */
async function asMap(path: string): Promise<string> {
  const before = answer;
  answer = (ids) => new Map(ids.flatMap((id) => (find(id) === undefined ? [] : [[id, find(id)!]])));
  try {
    return (await server.request('GET', path)).text;
  } finally {
    answer = before;
  }
}

describe('batch_get answered by a list in key order', () => {
  const cases: ReadonlyArray<{
    name: string;
    path: string;
    answer: (ids: readonly (number | bigint)[]) => unknown;
    keysSeen: ReadonlyArray<number | bigint>;
    results: readonly string[];
  }> = [
    {
      name: 'entities by position, undefined for a key with none',
      path: '/photos?ids=List(1,42,2)',
      answer: (ids) => ids.map(find),
      keysSeen: [1, 42, 2],
      results: ['1', '2'],
    },
    {
      name: 'null for a key with none (what a database driver gives)',
      path: '/photos?ids=List(3,42)',
      answer: (ids) => ids.map((id) => find(id) ?? null),
      keysSeen: [3, 42],
      results: ['3'],
    },
    {
      name: 'the keys as the handler got them: each once, in request order, normalized',
      path: '/photos?ids=List(2,1,01,+2,1)',
      answer: (ids) => ids.map(find),
      keysSeen: [2, 1],
      results: ['1', '2'],
    },
    {
      name: 'ids beyond 2^53 exact',
      path: '/photos?ids=List(9007199254740993,1)',
      answer: (ids) => ids.map(find),
      keysSeen: [9007199254740993n, 1],
      results: ['1', '9007199254740993'],
    },
    {
      name: 'a promise of the list',
      path: '/photos?ids=List(1,2,3)',
      answer: (ids) => Promise.resolve(ids.map(find)),
      keysSeen: [1, 2, 3],
      results: ['1', '2', '3'],
    },
    {
      name: 'every key without an entity',
      path: '/photos?ids=List(40,41)',
      answer: (ids) => ids.map(() => undefined),
      keysSeen: [40, 41],
      results: [],
    },
  ];

  it.each(cases)('answers $name as the same keys in a Map would be', async (c) => {
    answer = c.answer;
    const r = await server.request('GET', c.path);
    expect(r.status).toBe(200);
    expect(seen[0]).toEqual(c.keysSeen);
    expect(Object.keys(r.json.results).sort()).toEqual(c.results);
    expect(r.json.statuses).toEqual({});
    expect(r.json.errors).toEqual({});
    expect(r.text).toBe(await asMap(c.path));
  });

  it('answers a ServiceError entry as that key alone failing', async () => {
    answer = (ids) => ids.map((id) => (id === 2 ? new ServiceError(403, 'not yours') : find(id)));
    const r = await server.request('GET', '/photos?ids=List(1,2,3)');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json.results).sort()).toEqual(['1', '3']);
    expect(Object.keys(r.json.errors)).toEqual(['2']);
    expect(r.json.errors[2]).toMatchObject({ status: 403, message: 'not yours' });
  });

  it('projects every entity of the list', async () => {
    answer = (ids) => ids.map(find);
    const r = await server.request('GET', '/photos?fields=title&ids=List(1,2)');
    expect(r.json.results).toEqual({ 1: { title: 'Sunrise' }, 2: { title: 'Harbour' } });
  });

  it.each([
    { name: 'shorter', answer: (ids: readonly unknown[]) => ids.slice(1).map(() => undefined), has: 2 },
    { name: 'longer', answer: (ids: readonly unknown[]) => [...ids, 4].map(() => undefined), has: 4 },
  ])('answers a list $name than the keys with a 500 naming both lengths', async ({ answer: a, has }) => {
    answer = a;
    const r = await server.request('GET', '/photos?ids=List(1,2,3)');
    expect(r.status).toBe(500);
    expect(r.json.message).toBe(
      'Invalid result returned by the resource method photos batch_get: a list answers the 3 keys in ' +
        `their order, one entry each, but has ${has}`,
    );
  });

  it('answers an entry that is not an entity with a 500 naming its key', async () => {
    answer = (ids) => ids.map((id) => (id === 2 ? { title: 'plain object' } : find(id)));
    const r = await server.request('GET', '/photos?ids=List(1,2)');
    expect(r.status).toBe(500);
    expect(r.json.message).toBe(
      'Invalid result returned by the resource method photos batch_get: the entity of key 2 must be a Photo',
    );
  });

  it('still takes a list of [key, value] pairs, and an empty list as nothing found', async () => {
    answer = (ids) => ids.flatMap((id) => (find(id) === undefined ? [] : [[id, find(id)]]));
    const pairs = await server.request('GET', '/photos?ids=List(3,42,1)');
    expect(pairs.status).toBe(200);
    expect(pairs.text).toBe(await asMap('/photos?ids=List(3,42,1)'));
    answer = () => [];
    const empty = await server.request('GET', '/photos?ids=List(1,2)');
    expect(empty.status).toBe(200);
    expect(empty.json.results).toEqual({});
  });
});
