/**
 * The per-method calls (`get(client, photosInterface, 1)`, modular.ts) send byte for byte what the facade's
 * calls send (`api.photos.get(1)`), and decode the same answers, for every method kind of the example's
 * interfaces: each case runs both against one recording `fetch` that answers with the same canned bytes.
 * Their types mirror the facade's (checked by `tsc --noEmit` over this file).
 */
import {
  INT,
  STRING_KEY,
  actionSpec,
  collectionInterface,
  simpleInterface,
  type DataMap,
  type FetchInit,
  type FetchResponseLike,
  RequestBuildError,
  batchCreate,
  batchDelete,
  batchFind,
  batchGet,
  batchPartialUpdate,
  batchUpdate,
  callAction,
  callEntityAction,
  create,
  createCoreClient,
  createResourceClient,
  find,
  get,
  getAll,
  partialUpdate,
  remove,
  update,
} from '../../src';
import { albumEntriesInterface, exampleInterfaces, photosInterface } from '../../examples/interfaces';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { PhotoCriteria } from '../../examples/src/main/generated/com/example/photos/PhotoCriteria';
import { PurgeResult } from '../../examples/src/main/generated/com/example/photos/PurgeResult';

interface Seen {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

interface Canned {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

const seen: Seen[] = [];
let answer: Canned = { status: 200 };

function recordingFetch(url: string, init: FetchInit): Promise<FetchResponseLike> {
  const body = init.body === undefined ? undefined : Buffer.from(init.body as Uint8Array).toString('utf8');
  seen.push({ url, method: init.method, headers: init.headers, body });
  const bytes = new TextEncoder().encode(answer.body ?? '');
  const headers = new Headers({
    ...(answer.body === undefined ? {} : { 'content-type': 'application/json' }),
    ...answer.headers,
  });
  return Promise.resolve({
    status: answer.status,
    headers,
    arrayBuffer: () =>
      Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)),
  });
}

// the batch updates the example does not declare, and a simple resource (calls without a key)
const notesInterface = collectionInterface({
  name: 'notes',
  namespace: 'com.example.photos',
  key: STRING_KEY,
  value: Photo,
  methods: ['batchUpdate', 'batchPartialUpdate'],
});
const settingsInterface = simpleInterface({
  name: 'settings',
  value: Photo,
  methods: ['get', 'update', 'partialUpdate', 'delete'],
  actions: { reset: actionSpec({ params: {}, returns: INT }) },
});

const options = { baseUrl: 'http://127.0.0.1:1', fetch: recordingFetch };
const api = createResourceClient(options, {
  ...exampleInterfaces,
  notes: notesInterface,
  settings: settingsInterface,
});
const client = createCoreClient(options);

const photo = (): Photo => new Photo().setTitle('Sea').setFormat(PhotoFormat.JPEG);
const PAGING = '"paging":{"start":0,"count":10,"links":[]}';

type Call = () => Promise<unknown>;
const cases: ReadonlyArray<readonly [name: string, facade: Call, modular: Call, answer: Canned]> = [
  [
    'get',
    () => api.photos.get(1, { fields: 'title' }),
    () => get(client, photosInterface, 1, { fields: 'title' }),
    { status: 200, body: '{"id":1,"title":"Sea"}' },
  ],
  [
    'batch_get',
    () => api.photos.batchGet([1, 2]),
    () => batchGet(client, photosInterface, [1, 2]),
    { status: 200, body: '{"results":{"1":{"id":1}},"errors":{"2":{"status":404}}}' },
  ],
  [
    'create',
    () => api.photos.create(photo(), { returnEntity: false }),
    () => create(client, photosInterface, photo(), { returnEntity: false }),
    { status: 201, headers: { 'x-svc-id': '7' } },
  ],
  [
    'batch_create',
    () => api.photos.batchCreate([photo(), photo()]),
    () => batchCreate(client, photosInterface, [photo(), photo()]),
    { status: 200, body: '{"elements":[{"status":201,"id":"8"},{"status":201,"id":"9"}]}' },
  ],
  [
    'update',
    () => api.photos.update(1, photo()),
    () => update(client, photosInterface, 1, photo()),
    { status: 204 },
  ],
  [
    'partial_update',
    () => api.photos.partialUpdate(1, { $set: { title: 'Sky' } }),
    () => partialUpdate(client, photosInterface, 1, { $set: { title: 'Sky' } }),
    { status: 204 },
  ],
  [
    'delete',
    () => api.photos.delete(1, { headers: { 'x-trace': 'a' } }),
    () => remove(client, photosInterface, 1, { headers: { 'x-trace': 'a' } }),
    { status: 204 },
  ],
  [
    'batch_delete',
    () => api.photos.batchDelete([1, 2]),
    () => batchDelete(client, photosInterface, [1, 2]),
    { status: 200, body: '{"results":{"1":{"status":204},"2":{"status":204}},"errors":{}}' },
  ],
  [
    'get_all',
    () => api.photos.getAll({ start: 5, count: 2 }),
    () => getAll(client, photosInterface, { start: 5, count: 2 }),
    { status: 200, body: `{"elements":[{"id":1}],${PAGING}}` },
  ],
  [
    'finder',
    () => api.photos.finders.byTag({ tag: 'sea' }, { count: 5 }),
    () => find(client, photosInterface, 'byTag', { tag: 'sea' }, { count: 5 }),
    { status: 200, body: `{"elements":[{"id":1}],${PAGING}}` },
  ],
  [
    'finder on an association (key part in the path)',
    () => api.albumEntries.finders.byAlbum({ albumId: 1 }),
    () => find(client, albumEntriesInterface, 'byAlbum', { albumId: 1 }),
    { status: 200, body: `{"elements":[],${PAGING}}` },
  ],
  [
    'batch_finder',
    () => api.photos.batchFinders.searchPhotos([new PhotoCriteria().setTitle('a')], {}, { count: 3 }),
    () =>
      batchFind(
        client,
        photosInterface,
        'searchPhotos',
        [new PhotoCriteria().setTitle('a')],
        {},
        { count: 3 },
      ),
    { status: 200, body: `{"elements":[{"elements":[{"id":1}],${PAGING}}]}` },
  ],
  [
    'action',
    () => api.photos.actions.purge({ takenBefore: 5 }),
    () => callAction(client, photosInterface, 'purge', { takenBefore: 5 }),
    { status: 200, body: '{"value":{"removedPhotos":1,"removedEntries":0}}' },
  ],
  [
    'entity action',
    () => api.photos.entityActions.addTag(1, { tag: 'sea' }),
    () => callEntityAction(client, photosInterface, 'addTag', 1, { tag: 'sea' }),
    { status: 200, body: '{"value":3}' },
  ],
  [
    'batch_delete on an association (compound keys)',
    () => api.albumEntries.batchDelete([{ albumId: 1, photoId: 2 }]),
    () => batchDelete(client, albumEntriesInterface, [{ albumId: 1, photoId: 2 }]),
    { status: 200, body: '{"results":{"(albumId:1,photoId:2)":{"status":204}},"errors":{}}' },
  ],
  [
    'batch_update',
    () => api.notes.batchUpdate([['n 1', photo()]]),
    () => batchUpdate(client, notesInterface, [['n 1', photo()]]),
    { status: 200, body: '{"results":{"n 1":{"status":204}},"errors":{}}' },
  ],
  [
    'batch_partial_update',
    () => api.notes.batchPartialUpdate([['n1', { $set: { title: 'Sky' } }]]),
    () => batchPartialUpdate(client, notesInterface, [['n1', { $set: { title: 'Sky' } }]]),
    { status: 200, body: '{"results":{"n1":{"status":204}},"errors":{}}' },
  ],
  [
    'get of a simple resource',
    () => api.settings.get({ fields: 'title' }),
    () => get(client, settingsInterface, { fields: 'title' }),
    { status: 200, body: '{"title":"Sea"}' },
  ],
  [
    'update of a simple resource',
    () => api.settings.update(photo()),
    () => update(client, settingsInterface, photo()),
    { status: 204 },
  ],
  [
    'partial_update of a simple resource',
    () => api.settings.partialUpdate({ $set: { title: 'Sky' } }, { returnEntity: true }),
    () => partialUpdate(client, settingsInterface, { $set: { title: 'Sky' } }, { returnEntity: true }),
    { status: 200, body: '{"title":"Sky"}' },
  ],
  [
    'delete of a simple resource',
    () => api.settings.delete(),
    () => remove(client, settingsInterface),
    { status: 204 },
  ],
  [
    'action of a simple resource',
    () => api.settings.actions.reset(),
    () => callAction(client, settingsInterface, 'reset'),
    { status: 200, body: '{"value":1}' },
  ],
];

/** A response as plain data: KeyMaps as entry lists, records as their data. */
function plain(v: unknown): unknown {
  return JSON.parse(
    JSON.stringify(v, (_k, x: unknown): unknown =>
      x instanceof Map
        ? [...x]
        : typeof x === 'object' && x !== null && typeof (x as { data?: unknown }).data === 'function'
          ? (x as { data(): DataMap }).data().toString()
          : typeof x === 'bigint'
            ? `${x}n`
            : x,
    ),
  ) as unknown;
}

describe('the per-method calls', () => {
  it.each(cases)(
    '%s: sends the facade call’s request and decodes its answer alike',
    async (_name, f, m, a) => {
      answer = a;
      seen.length = 0;
      const fromFacade = await f();
      const fromModular = await m();
      expect(seen).toHaveLength(2);
      expect(seen[1]).toEqual(seen[0]);
      expect(plain(fromModular)).toEqual(plain(fromFacade));
    },
  );

  it('types every call from the interface as the facade does', async () => {
    answer = { status: 200, body: '{"id":1,"title":"Sea"}' };
    const r = await get(client, photosInterface, 1);
    const title: string | undefined = r.entity.getTitle();
    expect(title).toBe('Sea');
    answer = { status: 200, body: '{"value":{"removedPhotos":1,"removedEntries":0}}' };
    const purged = await callAction(client, photosInterface, 'purge', {});
    expect(purged.value).toBeInstanceOf(PurgeResult);
    const typeChecks = (): void => {
      // @ts-expect-error a photo key is a number or bigint
      void get(client, photosInterface, 'one');
      // @ts-expect-error photos declare no finder named byColour
      void find(client, photosInterface, 'byColour', {});
      // @ts-expect-error albums declare no finder
      void find(client, exampleInterfaces.albums, 'byTag', { tag: 'x' });
      // @ts-expect-error byTag requires its tag
      void find(client, photosInterface, 'byTag', {});
      // @ts-expect-error albumEntries declare no create
      void create(client, albumEntriesInterface, photo());
    };
    expect(typeof typeChecks).toBe('function');
  });

  it('refuses a method the interface does not declare, naming it', async () => {
    const untyped = create as unknown as (...a: unknown[]) => Promise<unknown>;
    await expect(untyped(client, albumEntriesInterface, photo())).rejects.toThrow(RequestBuildError);
    await expect(untyped(client, albumEntriesInterface, photo())).rejects.toThrow(
      "'albumEntries' has no create method",
    );
  });
});
