/**
 * Read-only and create-only fields (the reference's `@ReadOnly` / `@CreateOnly` resource annotations, honoured
 * by its validation filter) over HTTP: a required read-only field may be left out of a create or update and
 * may not be sent by a create or a patch, a create-only field may be created but not patched, with the
 * reference's 422 messages; the paths reach nested fields; the declaration travels in the exported IDL as
 * Rest.li writes it and comes back from an imported one; the typed client creates without the id.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  LONG_KEY,
  ResourceDefinitionError,
  collection,
  collectionInterface,
  createResourceClient,
  exportIdl,
  generateFromIdl,
  implement,
} from '../../src';
import { AuditStamp } from '../generated/fixtures/com/example/common/AuditStamp';
import { ChangeTimeStamps } from '../generated/fixtures/com/example/common/ChangeTimeStamps';
import { Album } from '../generated/fixtures/com/example/photos/Album';
import { startServer, type TestServer } from './support/http';
import { tempDirs } from '../support/temp-dirs';

const albumsApi = collectionInterface({
  name: 'albums',
  namespace: 'com.example.photos',
  key: LONG_KEY,
  value: Album,
  readOnly: ['id', 'stamps/created'],
  createOnly: ['owner', 'coverPhotoId'],
  methods: ['get', 'create', 'batchCreate', 'update', 'partialUpdate', 'batchPartialUpdate'],
});

let next = 1;
const stored = new Map<string, Album>();
const albums = implement(albumsApi, {
  get: (id) => stored.get(String(id)),
  create: (album) => {
    const id = next++;
    stored.set(String(id), album.copy().setId(id));
    return { id };
  },
  batchCreate: (all) => all.map(() => ({ id: next++ })),
  update: () => undefined,
  partialUpdate: () => undefined,
  batchPartialUpdate: (patches) => new Map([...patches.keys()].map((k) => [k, {}] as const)),
});
// the same resource without the declaration: the id is as required as the schema says
const plainAlbums = collection({
  name: 'plainAlbums',
  key: LONG_KEY,
  value: Album,
  methods: { create: () => ({ id: 1 }) },
});

const stamp = { time: 1, actor: 'urn:li:member:1' };
const album = { name: 'Dusk', owner: 'urn:li:member:7', stamps: { lastModified: stamp } };

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ resources: [albums, plainAlbums] });
});
afterAll(() => server.close());

const BATCH_CREATE = { 'x-svc-method': 'batch_create' };

describe.each([
  ['a create without the required read-only id', 'POST', '/albums', album, 201, undefined],
  [
    'a create without the required read-only nested stamps/created',
    'POST',
    '/albums',
    { ...album, stamps: { lastModified: stamp } },
    201,
    undefined,
  ],
  [
    'a create that sets the read-only id',
    'POST',
    '/albums',
    { ...album, id: 9 },
    422,
    'ERROR :: /id :: ReadOnly field present in a create request',
  ],
  [
    'a create that sets a nested read-only field',
    'POST',
    '/albums',
    { ...album, stamps: { created: stamp, lastModified: stamp } },
    422,
    'ERROR :: /stamps/created :: ReadOnly field present in a create request',
  ],
  [
    'a create that sets a create-only field',
    'POST',
    '/albums',
    { ...album, coverPhotoId: 3 },
    201,
    undefined,
  ],
  [
    'an update that repeats the read-only and create-only values (the resource checks them, as in the reference)',
    'PUT',
    '/albums/1',
    { ...album, id: 1, coverPhotoId: 3 },
    204,
    undefined,
  ],
  ['an update without the read-only id', 'PUT', '/albums/1', album, 204, undefined],
  [
    'a patch that sets the read-only id',
    'POST',
    '/albums/1',
    { patch: { $set: { id: 2 } } },
    422,
    'ERROR :: /id :: ReadOnly field present in a partial_update request',
  ],
  [
    'a patch that sets a create-only field',
    'POST',
    '/albums/1',
    { patch: { $set: { owner: 'urn:li:member:8' } } },
    422,
    'ERROR :: /owner :: CreateOnly field present in a partial_update request',
  ],
  [
    'a nested patch that sets a read-only field',
    'POST',
    '/albums/1',
    { patch: { stamps: { $set: { created: stamp } } } },
    422,
    'ERROR :: /stamps/created :: ReadOnly field present in a partial_update request',
  ],
  [
    'a patch that deletes a create-only field',
    'POST',
    '/albums/1',
    { patch: { $delete: ['coverPhotoId'] } },
    422,
    'ERROR :: /coverPhotoId :: cannot delete a CreateOnly field or its descendants',
  ],
  [
    'a patch that sets a whole record without its read-only field',
    'POST',
    '/albums/1',
    { patch: { $set: { stamps: { lastModified: stamp } } } },
    204,
    undefined,
  ],
  ['a patch of other fields', 'POST', '/albums/1', { patch: { $set: { name: 'Dawn' } } }, 204, undefined],
  [
    'a batch create whose second entity sets the id',
    'POST',
    '/albums',
    { elements: [album, { ...album, id: 4 }] },
    422,
    'Index: 1, ERROR :: /id :: ReadOnly field present in a batch_create request',
  ],
  [
    'a batch patch that sets a create-only field',
    'POST',
    '/albums?ids=List(1)',
    { entities: { 1: { patch: { $set: { coverPhotoId: 5 } } } } },
    422,
    'Key: 1, ERROR :: /coverPhotoId :: CreateOnly field present in a batch_partial_update request',
  ],
] as const)('%s', (_name, method, url, body, status, message) => {
  it(`is answered ${status}${message === undefined ? '' : ' with the reference message'}`, async () => {
    const headers: Record<string, string> =
      'elements' in body
        ? BATCH_CREATE
        : 'entities' in body
          ? { 'x-svc-method': 'batch_partial_update' }
          : {};
    const r = await server.request(method, url, { json: body, headers });
    expect({ status: r.status, message: r.json?.message }).toEqual({ status, message });
  });
});

describe('read-only and create-only fields', () => {
  it('leave a resource without them as strict as its schema', async () => {
    const r = await server.request('POST', '/plainAlbums', { json: album });
    expect(r.status).toBe(422);
    expect(r.json.message.split('\n').sort()).toEqual([
      'ERROR :: /id :: field is required but not found and has no default value',
      'ERROR :: /stamps/created :: field is required but not found and has no default value',
    ]);
  });

  it('let the typed client create an entity without its server-assigned id', async () => {
    const client = createResourceClient({ baseUrl: server.base }, { albums });
    const created = await client.albums.create(
      new Album()
        .setName('Noon')
        .setOwner('urn:li:member:7')
        // without `created`, which is read-only
        .setStamps(
          new ChangeTimeStamps().setLastModified(new AuditStamp().setTime(1).setActor('urn:li:member:1')),
        ),
    );
    expect(typeof created.id).toBe('number');
  });

  it('are refused at registration when a path names no field of the value', async () => {
    const bad = collection({ ...plainAlbums, readOnly: ['stamps/nowhere'] });
    await expect(startServer({ resources: [bad] })).rejects.toThrow(ResourceDefinitionError);
    await expect(startServer({ resources: [bad] })).rejects.toThrow(
      "'readOnly' path 'stamps/nowhere' names no field of com.example.photos.Album",
    );
  });
});

describe('read-only and create-only fields in the IDL', () => {
  const tmp = tempDirs('svc-readonly-');

  it('are written as Rest.li writes @ReadOnly / @CreateOnly and read back by the import', () => {
    const { restspecs, snapshots } = exportIdl([albumsApi]);
    const spec = restspecs.get('com.example.photos.albums.restspec.json')!;
    expect(spec.annotations).toEqual({
      createOnly: { value: ['owner', 'coverPhotoId'] },
      readOnly: { value: ['id', 'stamps/created'] },
    });
    expect(Object.keys(spec)[0]).toBe('annotations');
    const dir = tmp();
    const file = path.join(dir, 'com.example.photos.albums.snapshot.json');
    fs.writeFileSync(file, JSON.stringify(snapshots.get('com.example.photos.albums.snapshot.json')));
    const { files } = generateFromIdl({ sources: [file] });
    const module = files.find((f) => f.path.endsWith('albums.interface.ts'))!;
    expect(module.text).toContain(`readOnly: ['id', 'stamps/created']`);
    expect(module.text).toContain(`createOnly: ['owner', 'coverPhotoId']`);
  });
});
