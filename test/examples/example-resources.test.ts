/**
 * The example service's resources over HTTP (in process): the photo library's methods beyond the printed
 * curl lines, on both stores: in memory (the default) and on PostgreSQL (pg-store.ts; the file's own
 * server, test/support/postgres-server.ts), each test on a freshly seeded library.
 */
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { createExampleApp } from '../../examples/app';
import { postgresForTests } from '../support/postgres-server';
import { rawRequest } from '../resources/support/http';

const postgres = postgresForTests();
let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = await postgres().createDatabase('example_resources');
});

let app: FastifyInstance;
let port: number;

afterEach(async () => {
  await app.close();
});

/** Empties the example's tables (if there are any yet), so that the app seeds the library again. */
async function emptyDatabase(): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      "DO $$ BEGIN IF to_regclass('photos') IS NOT NULL THEN TRUNCATE photos, albums, album_entries RESTART IDENTITY CASCADE; END IF; END $$",
    );
  } finally {
    await client.end();
  }
}

type Store = 'in memory' | 'on PostgreSQL';

describe.each(['in memory', 'on PostgreSQL'] as const)('the example %s', (store) => {
  beforeEach(async () => {
    if (store === 'on PostgreSQL') await emptyDatabase();
    app = await createExampleApp(store === 'on PostgreSQL' ? { databaseUrl } : { databaseUrl: '' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  exampleTests(store);
});

const req = (method: string, target: string, json?: unknown, headers: Record<string, string> = {}) =>
  rawRequest(port, method, target, { headers, ...(json === undefined ? {} : { json }) });

function exampleTests(store: Store): void {
  describe('photos', () => {
    it('lists, finds by tag and pages', async () => {
      const all = await req('GET', '/photos?count=4');
      expect(all.json.paging).toMatchObject({ start: 0, count: 4, total: 6 });
      expect(all.json.elements).toHaveLength(4);
      const night = await req('GET', '/photos?q=byTag&tag=night');
      expect(night.json.elements.map((p: { title: string }) => p.title)).toEqual([
        'Harbour lights',
        'Fireworks',
      ]);
      const unicode = await req('GET', '/photos?q=titleAndOrFormat&title=%C3%A9t%C3%A9');
      expect(unicode.json.elements.map((p: { title: string }) => p.title)).toEqual(['Été à Paris ☀']);
    });

    it('searches criteria in parallel, answering in request order, each failure its own entry', async () => {
      // the middle criterion's title holds a NUL character: PostgreSQL refuses it in text, so on that
      // store its query fails (an error entry of its own); in memory it simply matches nothing (404)
      const r = await req(
        'GET',
        '/photos?bq=searchPhotos&criteria=List((title:Fireworks,format:GIF),(title:a%00b,format:PNG),(title:Nowhere,format:PNG),(title:Sunrise%20over%20the%20bay,format:JPEG))&fields=id',
        undefined,
        { 'x-restli-protocol-version': '2.0.0' },
      );
      expect(r.status).toBe(200);
      const entries = r.json.elements as Array<{ elements: unknown[]; error?: { status: number } }>;
      expect(entries.map((e) => e.elements)).toEqual([[{ id: 6 }], [], [], [{ id: 1 }]]);
      expect(entries.map((e) => e.error?.status)).toEqual([
        undefined,
        store === 'on PostgreSQL' ? 500 : 404,
        404,
        undefined,
      ]);
    });

    it('creates in batches, updates, deletes in batches', async () => {
      const created = await req(
        'POST',
        '/photos',
        {
          elements: [
            { title: 'a', format: 'PNG' },
            { title: '', format: 'PNG' },
          ],
        },
        { 'x-svc-method': 'batch_create' },
      );
      expect(created.json.elements.map((e: { status: number }) => e.status)).toEqual([201, 400]);
      expect((await req('PUT', '/photos/7', { title: 'b', format: 'GIF' })).status).toBe(204);
      expect((await req('PUT', '/photos/70', { title: 'b', format: 'GIF' })).status).toBe(404);
      const deleted = await req('DELETE', '/photos?ids=List(6,7,70)');
      expect(deleted.json).toEqual({
        results: { 6: { status: 204 }, 7: { status: 204 } },
        errors: { 70: { status: 404, message: 'photo 70 not found' } },
      });
    });

    it('lists and streams in id order past id 9 (numbers, not their text: 10 after 9)', async () => {
      const created = await req(
        'POST',
        '/photos',
        { elements: ['g', 'h', 'i', 'j', 'k'].map((title) => ({ title, format: 'PNG' })) },
        { 'x-svc-method': 'batch_create' },
      );
      expect(created.json.elements.map((e: { status: number }) => e.status)).toEqual([
        201, 201, 201, 201, 201,
      ]);
      const ids = Array.from({ length: 11 }, (_, i) => i + 1);
      const idsOf = (r: { json: { elements: Array<{ id: number }> } }): number[] =>
        r.json.elements.map((p) => p.id);
      expect(idsOf(await req('GET', '/photos?q=export&count=20&fields=id'))).toEqual(ids);
      expect(idsOf(await req('GET', '/photos?q=export&start=8&count=2&fields=id'))).toEqual([9, 10]);
      expect(idsOf(await req('GET', '/photos?count=20&fields=id'))).toEqual(ids);
    });

    it('purges old photos with their album entries (an action returning a record from an Observable)', async () => {
      const r = await req('POST', '/photos?action=purge', { takenBefore: 1_710_000_000_000 });
      expect(r.json).toEqual({ value: { photosRemoved: 2, entriesRemoved: 1 } });
      expect((await req('GET', '/photos/3')).status).toBe(404);
      expect((await req('GET', '/albumEntries/(albumId:1,photoId:3)')).status).toBe(404);
    });
  });

  describe('albums and album entries', () => {
    it('creates an album and puts photos into it', async () => {
      const album = await req('POST', '/albums', { name: 'Night' });
      expect(album.status).toBe(201);
      const id = album.headers.get('x-svc-id');
      expect(
        (await req('PUT', `/albumEntries/(albumId:${id},photoId:2)`, { caption: 'lights' })).status,
      ).toBe(201);
      expect((await req('PUT', `/albumEntries/(albumId:${id},photoId:99)`, {})).status).toBe(404);
      const entries = await req('GET', `/albumEntries/(albumId:${id})?q=byAlbum`);
      expect(entries.json.elements).toEqual([
        expect.objectContaining({ albumId: Number(id), photoId: 2, caption: 'lights' }),
      ]);
      const byPhoto = await req('GET', '/albumEntries/(photoId:1)?q=byPhoto&fields=albumId');
      expect(byPhoto.json.elements).toEqual([{ albumId: 1 }, { albumId: 2 }]);
    });

    it('patches and deletes albums, dropping their entries', async () => {
      expect(
        (await req('POST', '/albums/1', { patch: { $set: { description: 'Road trips' } } })).status,
      ).toBe(204);
      expect((await req('GET', '/albums/1')).json.description).toBe('Road trips');
      expect((await req('DELETE', '/albums/1')).status).toBe(204);
      expect((await req('GET', '/albumEntries/(albumId:1)?q=byAlbum')).json.elements).toEqual([]);
      const batch = await req('GET', '/albumEntries?ids=List((albumId:2,photoId:1),(albumId:2,photoId:5))');
      expect(Object.keys(batch.json.results)).toEqual(['(albumId:2,photoId:1)']);
    });
  });

  describe('malformed paths', () => {
    it('answers a malformed percent-escape (refused by fastify before routing) with an ErrorResponse', async () => {
      const r = await req('GET', '/photos/%zz');
      expect(r.status).toBe(400);
      expect(r.headers.get('x-svc-error-response')).toBe('true');
      expect(r.headers.get('x-svc-protocol-version')).toBe('2.0.0');
      expect(r.json).toEqual({ status: 400, message: "'/photos/%zz' is not a valid url component" });
      expect((await req('GET', '/photos/1')).status).toBe(200);
    });
  });
}
