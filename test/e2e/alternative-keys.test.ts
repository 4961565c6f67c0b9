/**
 * Alternative keys (`?altkey=<name>`) over real HTTP: the server reads the alternative in the path, in
 * `ids` and in batch bodies, gives handlers the resource's own key, and names response keys (batch maps,
 * the id header, `Location`) by the alternative; the typed client's `alt(name)` speaks it.
 */
import {
  INT,
  LONG_KEY,
  STRING,
  STRING_KEY,
  ServiceError,
  ServiceResponseError,
  alternativeKey,
  collection,
  createResourceClient,
  entityAction,
  finder,
} from '../../src';
import { Locale } from '../generated/fixtures/com/example/common/Locale';
import { startServer, type TestServer } from '../resources/support/http';

const store = new Map<number, Locale>();
const seen: unknown[] = [];
const URN = /^urn:doc:(\d+)$/;

const docs = collection({
  name: 'docs',
  key: LONG_KEY,
  value: Locale,
  alternativeKeys: {
    urn: alternativeKey({
      key: STRING_KEY,
      toKey: (urn: string): number => {
        const m = URN.exec(urn);
        if (m === null) throw new Error(`not a doc URN`);
        const id = Number(m[1]);
        if (id === 404) throw new ServiceError(404, 'no such document');
        return id;
      },
      fromKey: (id: number | bigint): string => `urn:doc:${id}`,
    }),
  },
  methods: {
    get: (id, ctx) => {
      seen.push(id, ctx.pathKeys.get('docsId'));
      return store.get(Number(id));
    },
    batchGet: (ids) =>
      new Map(ids.flatMap((id) => (store.has(Number(id)) ? [[id, store.get(Number(id))!] as const] : []))),
    create: (l) => {
      const id = store.size + 1;
      store.set(id, l);
      return { id };
    },
    batchCreate: (ls) =>
      ls.map((l) => {
        const id = store.size + 1;
        store.set(id, l);
        return { id };
      }),
    update: (id, l) => {
      store.set(Number(id), l);
    },
    batchUpdate: (m) =>
      new Map(
        [...m].map(([id, l]) => {
          store.set(Number(id), l);
          return [id, {}] as const;
        }),
      ),
    delete: (id) => {
      if (!store.delete(Number(id))) throw new ServiceError(404, 'gone');
    },
    batchDelete: (ids) =>
      new Map(ids.map((id) => [id, store.delete(Number(id)) ? {} : new ServiceError(404, 'gone')] as const)),
    finders: {
      byLanguage: finder({ params: { language: STRING } }, ({ language }) =>
        [...store.values()].filter((l) => l.getLanguage() === language),
      ),
    },
    entityActions: {
      length: entityAction(
        { key: LONG_KEY, returns: INT },
        (id) => store.get(Number(id))?.getLanguage().length ?? 0,
      ),
    },
  },
});

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ resources: [docs] });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  store.clear();
  seen.length = 0;
  store.set(1, new Locale().setLanguage('en'));
  store.set(2, new Locale().setLanguage('fr'));
});

const api = () => createResourceClient({ baseUrl: server.base }, { docs });
const V2 = { headers: { 'x-svc-protocol-version': '2.0.0' } };

describe('alternative keys on the wire', () => {
  it('reads the alternative in the path and gives the handler the resource key', async () => {
    const r = await server.request('GET', '/docs/urn%3Adoc%3A2?altkey=urn', V2);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ language: 'fr' });
    expect(seen).toEqual([2, 2]);
  });

  it('reads ids as alternatives and keys the batch response by them', async () => {
    const r = await server.request('GET', '/docs?altkey=urn&ids=List(urn%3Adoc%3A1,urn%3Adoc%3A9)', V2);
    expect(r.json).toEqual({ results: { 'urn:doc:1': { language: 'en' } }, statuses: {}, errors: {} });
  });

  it('names a created entity by the alternative in the id header and Location', async () => {
    const r = await server.request('POST', '/docs?altkey=urn', { ...V2, json: { language: 'de' } });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-svc-id')).toBe('urn:doc:3');
    expect(r.headers.get('location')).toBe('/docs/urn%3Adoc%3A3?altkey=urn');
  });

  it.each([
    [
      'an alternative key the resource does not have',
      '/docs/1?altkey=nope',
      400,
      "Resource 'docs' does not have an alternative key named 'nope'",
    ],
    [
      'a value the conversion refuses',
      '/docs/doc-1?altkey=urn',
      400,
      "Invalid alternative key 'urn' value 'doc-1': not a doc URN",
    ],
    ['a ServiceError from the conversion', '/docs/urn%3Adoc%3A404?altkey=urn', 404, 'no such document'],
  ])('answers %s with an ErrorResponse', async (_what, target, status, message) => {
    const r = await server.request('GET', target, V2);
    expect(r.status).toBe(status);
    expect(r.json.message).toBe(message);
    expect((await server.request('GET', '/docs/1', V2)).status).toBe(200);
  });

  it('keeps the resource key for finders, and without altkey', async () => {
    expect((await server.request('GET', '/docs/1', V2)).json).toEqual({ language: 'en' });
    const r = await server.request('GET', '/docs?q=byLanguage&language=en&altkey=urn', V2);
    expect(r.json.elements).toEqual([{ language: 'en' }]);
  });
});

describe('the typed client’s alt(name)', () => {
  it('gets, batch-gets, creates and runs entity actions by the alternative key', async () => {
    const byUrn = api().docs.alt('urn');
    expect(byUrn.altKey).toBe('urn');
    expect((await byUrn.get('urn:doc:1')).entity.getLanguage()).toBe('en');
    const batch = await byUrn.batchGet(['urn:doc:1', 'urn:doc:2', 'urn:doc:7']);
    expect([...batch.results.keys()]).toEqual(['urn:doc:1', 'urn:doc:2']);
    expect(batch.results.get('urn:doc:2')?.getLanguage()).toBe('fr');
    const made = await byUrn.create(new Locale().setLanguage('es'));
    expect(made.id).toBe('urn:doc:3');
    expect(made.location).toBe('/docs/urn%3Adoc%3A3?altkey=urn');
    const many = await byUrn.batchCreate([new Locale().setLanguage('it')]);
    expect(many.elements[0]?.id).toBe('urn:doc:4');
    expect((await byUrn.entityActions.length('urn:doc:3')).value).toBe(2);
  });

  it('updates and deletes, one and in batches', async () => {
    const byUrn = api().docs.alt('urn');
    expect((await byUrn.update('urn:doc:1', new Locale().setLanguage('EN'))).status).toBe(204);
    expect(store.get(1)?.getLanguage()).toBe('EN');
    const updated = await byUrn.batchUpdate([['urn:doc:2', new Locale().setLanguage('FR')]]);
    expect(updated.results.get('urn:doc:2')?.status).toBe(204);
    expect(store.get(2)?.getLanguage()).toBe('FR');
    const deleted = await byUrn.batchDelete(['urn:doc:1', 'urn:doc:9']);
    expect(deleted.results.get('urn:doc:1')?.status).toBe(204);
    expect(deleted.errors.get('urn:doc:9')?.status).toBe(404);
    expect((await byUrn.delete('urn:doc:2')).status).toBe(204);
  });

  it('surfaces the server’s refusal of a bad alternative as a ServiceResponseError', async () => {
    await expect(api().docs.alt('urn').get('doc-1')).rejects.toBeInstanceOf(ServiceResponseError);
  });

  it('refuses an alternative key the definition does not have', () => {
    expect(() => (api().docs as unknown as { alt(n: string): unknown }).alt('nope')).toThrow(
      "'docs' has no alternative key named 'nope'",
    );
  });
});

// compile-time: alt keys are typed by their wire type, and the alt client has only keyed methods
export function misuse(): void {
  const c = api().docs;
  // @ts-expect-error the urn is a string
  void c.alt('urn').get(1);
  // @ts-expect-error there is no such alternative key
  void c.alt('nope');
  // @ts-expect-error finders take no alternative key
  void c.alt('urn').finders;
  void c.get(1);
}
