/**
 * Compound (association), complex and string keys over real HTTP: reserved characters, unicode and empty
 * strings in paths, `ids=List(...)`, batch body maps, the id header and Location (wire facts §2.4, §2.5).
 */
import {
  LONG,
  STRING,
  STRING_KEY,
  ServiceError,
  assocKey,
  association,
  collection,
  complexKey,
  encodeKeyForPath,
  finder,
  optional,
  CompoundKey,
  ComplexKey,
  type ComplexResourceKey,
} from '../../src';
import { Locale } from '../generated/fixtures/com/example/common/Locale';
import { Money } from '../generated/fixtures/com/example/common/Money';
import { AlbumEntry } from '../generated/fixtures/com/example/photos/AlbumEntry';
import { startServer, type TestServer } from './support/http';

const entryKey = (albumId: number, photoId: number): string => `${albumId}/${photoId}`;

function entries() {
  const store = new Map<string, AlbumEntry>();
  for (const [a, p] of [
    [1, 10],
    [1, 11],
    [2, 10],
  ] as const) {
    store.set(
      entryKey(a, p),
      new AlbumEntry()
        .setAlbumId(a)
        .setPhotoId(p)
        .setPosition(p - 10),
    );
  }
  const seen: unknown[] = [];
  const resource = association({
    name: 'albumEntries',
    assocKeys: { albumId: LONG, photoId: LONG },
    value: AlbumEntry,
    methods: {
      get: (key, ctx) => {
        seen.push(key, Object.fromEntries(ctx.pathKeys));
        return store.get(entryKey(Number(key.albumId), Number(key.photoId)));
      },
      batchGet: (keys) =>
        new Map(
          keys.flatMap((k) => {
            const e = store.get(entryKey(Number(k.albumId), Number(k.photoId)));
            return e === undefined ? [] : [[k, e] as const];
          }),
        ),
      update: (key, entry) => {
        store.set(entryKey(Number(key.albumId), Number(key.photoId)), entry);
      },
      batchUpdate: (map) => new Map([...map.keys()].map((k) => [k, {}] as const)),
      delete: (key) => {
        if (!store.delete(entryKey(Number(key.albumId), Number(key.photoId))))
          throw new ServiceError(404, 'no entry');
      },
      finders: {
        byAlbum: finder(
          { params: { albumId: assocKey(LONG), minPosition: optional(LONG, 0) } },
          ({ albumId, minPosition }) =>
            [...store.values()].filter(
              (e) => e.getAlbumId() === albumId && Number(e.getPosition()) >= Number(minPosition),
            ),
        ),
      },
    },
  });
  return { store, seen, resource };
}

/** A complex-key collection: the key is a Locale, the params a Money; the entity echoes both. */
function locales() {
  const store = new Map<string, Locale>();
  const text = (l: Locale): string => `${l.getLanguage()}|${l.getCountry() ?? '-'}`;
  const keyText = (k: ComplexResourceKey<Locale, Money>): string => text(k.key);
  const resource = collection({
    name: 'locales',
    key: complexKey(Locale, Money),
    value: Locale,
    methods: {
      get: (k) => {
        const found = store.get(keyText(k));
        if (found === undefined) return undefined;
        const out = found.copy();
        if (k.params !== undefined) out.setVariant(`amount=${k.params.getAmount()}`);
        return out;
      },
      batchGet: (keys) =>
        new Map(
          keys.flatMap((k) => {
            const v = store.get(keyText(k));
            return v === undefined ? [] : [[k, v] as const];
          }),
        ),
      create: (locale) => {
        store.set(text(locale), locale);
        return { id: { key: locale, params: undefined } };
      },
      batchUpdate: (map) =>
        new Map(
          [...map].map(([k, v]) => {
            store.set(keyText(k), v);
            return [k, { status: 204 }] as const;
          }),
        ),
    },
  });
  return { store, resource };
}

/** A string-keyed collection: the key is echoed as the entity's language. */
function tags() {
  return collection({
    name: 'tags',
    key: STRING_KEY,
    value: Locale,
    methods: {
      get: (name) => new Locale().setLanguage(name),
      batchGet: (names) => new Map(names.map((n) => [n, new Locale().setLanguage(n)] as const)),
      create: (locale) => ({ id: locale.getLanguage() }),
      finders: { echo: finder({ params: { text: STRING } }, ({ text }) => [new Locale().setLanguage(text)]) },
    },
  });
}

let server: TestServer;
let assoc: ReturnType<typeof entries>;
let complex: ReturnType<typeof locales>;

beforeEach(async () => {
  assoc = entries();
  complex = locales();
  // key handling, with entities that leave the fixtures' required fields out
  server = await startServer({ resources: [assoc.resource, complex.resource, tags()], validation: false });
});

afterEach(async () => {
  await server.close();
});

describe('association (compound) keys', () => {
  it('gets an entity by its compound key, parts in any order', async () => {
    for (const path of ['/albumEntries/(albumId:1,photoId:11)', '/albumEntries/(photoId:11,albumId:1)']) {
      const r = await server.request('GET', path);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ albumId: 1, photoId: 11, position: 1 });
    }
    expect(assoc.seen[0]).toEqual({ albumId: 1, photoId: 11 });
    expect(assoc.seen[1]).toEqual({ albumId: 1, photoId: 11 });
  });

  it('answers 400 for an unknown key part or a malformed compound key', async () => {
    const unknown = await server.request('GET', '/albumEntries/(albumId:1,x:2)');
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toBe("Unknown key part named 'x'");
    const deep = await server.request('GET', `/albumEntries/${'(a:'.repeat(2000)}1${')'.repeat(2000)}`);
    expect(deep.status).toBe(400);
    expect(deep.json.message).toBe('Compound key nesting deeper than 1000 levels');
    const malformed = await server.request('GET', '/albumEntries/(albumId:1');
    expect(malformed.status).toBe(400);
    const wrongType = await server.request('GET', '/albumEntries/(albumId:one,photoId:2)');
    expect(wrongType.status).toBe(400);
  });

  it('batch gets with ids=List((...),(...)), keyed by the body form; a bad item is a per-key 400', async () => {
    const r = await server.request(
      'GET',
      '/albumEntries?ids=List((albumId:1,photoId:10),(photoId:10,albumId:2),(albumId:x,photoId:1))',
    );
    expect(r.status).toBe(200);
    expect(Object.keys(r.json.results).sort()).toEqual(['(albumId:1,photoId:10)', '(albumId:2,photoId:10)']);
    expect(r.json.errors['(albumId:x,photoId:1)']).toMatchObject({ status: 400 });
  });

  it('runs an association finder with the partial key from the path', async () => {
    const r = await server.request('GET', '/albumEntries/(albumId:1)?q=byAlbum&minPosition=1');
    expect(r.status).toBe(200);
    expect(r.json.elements).toEqual([{ albumId: 1, photoId: 11, position: 1 }]);
    const all = await server.request('GET', '/albumEntries/(albumId:1)?q=byAlbum');
    expect(all.json.elements).toHaveLength(2);
  });

  it('answers 400 when the finder’s key part is not in the path', async () => {
    const r = await server.request('GET', '/albumEntries?q=byAlbum');
    expect(r.status).toBe(400);
    expect(r.json.message).toBe("Association key 'albumId' is required");
  });

  it('updates and batch updates with compound keys in the body', async () => {
    expect(
      (await server.request('PUT', '/albumEntries/(albumId:3,photoId:4)', { json: { position: 9 } })).status,
    ).toBe(204);
    expect(assoc.store.get('3/4')!.getPosition()).toBe(9);
    const r = await server.request('PUT', '/albumEntries?ids=List((albumId:1,photoId:10))', {
      json: { entities: { '(photoId:10,albumId:1)': { position: 5 } } },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ results: { '(albumId:1,photoId:10)': { status: 204 } }, errors: {} });
  });

  it('routes DELETE on the entity', async () => {
    expect((await server.request('DELETE', '/albumEntries/(albumId:2,photoId:10)')).status).toBe(204);
    expect((await server.request('DELETE', '/albumEntries/(albumId:2,photoId:10)')).status).toBe(404);
  });
});

describe('complex keys', () => {
  const tricky = new Locale().setLanguage("a,b (c:d)'e%f é☺").setCountry('');

  beforeEach(() => {
    complex.store.set("a,b (c:d)'e%f é☺|", tricky);
    complex.store.set('en|-', new Locale().setLanguage('en'));
  });

  it('decodes reserved characters, unicode and empty strings in a path key, $params included', async () => {
    const path = `/locales/($params:(amount:1%2C5),country:'',language:a%2Cb%20%28c%3Ad%29%27e%25f%20%C3%A9%E2%98%BA)`;
    const r = await server.request('GET', path);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ language: "a,b (c:d)'e%f é☺", country: '', variant: 'amount=1,5' });
  });

  it('finds the same key written by the protocol encoder', async () => {
    const key = new ComplexKey(tricky.data(), new Money().setAmount('2').data());
    const r = await server.request('GET', `/locales/${encodeKeyForPath(key)}`);
    expect(r.status).toBe(200);
    expect(r.json.variant).toBe('amount=2');
  });

  it('batch gets complex keys; response keys have no $params', async () => {
    const r = await server.request(
      'GET',
      '/locales?ids=List(($params:(amount:1),language:en),(language:fr))',
    );
    expect(r.status).toBe(200);
    expect(r.json.results).toEqual({ '(language:en)': { language: 'en' } });
  });

  it('sends the id header and Location of a created complex key', async () => {
    const r = await server.request('POST', '/locales', { json: { language: 'de', country: 'AT' } });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-svc-id')).toBe('(country:AT,language:de)');
    expect(r.headers.get('location')).toBe('/locales/(country:AT,language:de)');
  });

  it('batch updates with complex keys in the body ($params included there)', async () => {
    const r = await server.request('PUT', '/locales?ids=List(($params:(amount:1),language:en))', {
      json: { entities: { '($params:(amount:1),language:en)': { language: 'en', country: 'GB' } } },
    });
    expect(r.status).toBe(200);
    expect(r.json.results).toEqual({ '(language:en)': { status: 204 } });
  });

  it('answers 400 for a malformed complex key', async () => {
    const r = await server.request('GET', '/locales/(language:en');
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('Complex key query parameters parsing error');
  });
});

describe('string keys', () => {
  it('percent-decodes a path key only: reserved characters, unicode, and the literal two-character key', async () => {
    expect((await server.request('GET', '/tags/a%2Cb%20c%3A%28%29')).json.language).toBe('a,b c:()');
    expect((await server.request('GET', '/tags/%C3%A9t%C3%A9%20%E2%98%80')).json.language).toBe('été ☀');
    // wire facts surprise 8: a simple path key '' is the two-character string, not the empty string
    expect((await server.request('GET', "/tags/''")).json.language).toBe("''");
  });

  it("reads the empty string in ids=List('') and keys the result map by the raw key", async () => {
    const r = await server.request('GET', "/tags?ids=List('',a%2Cb,%C3%A9)");
    expect(r.status).toBe(200);
    expect(r.json.results).toEqual({
      '': { language: '' },
      'a,b': { language: 'a,b' },
      é: { language: 'é' },
    });
  });

  it('writes the id header raw and the Location path-encoded', async () => {
    const r = await server.request('POST', '/tags', { json: { language: 'a,b c/é' } });
    expect(r.headers.get('x-svc-id')).toBe('a,b c/é');
    expect(r.headers.get('location')).toBe('/tags/a%2Cb%20c%2F%C3%A9');
  });

  it('writes a key beyond Latin-1 into the id header as its UTF-8 bytes, and escapes control characters', async () => {
    const r = await server.request('POST', '/tags', { json: { language: '東京 ☀' } });
    expect(r.status).toBe(201);
    expect(Buffer.from(r.headers.get('x-svc-id')!, 'latin1').toString('utf8')).toBe('東京 ☀');
    const ctl = await server.request('POST', '/tags', { json: { language: 'a\r\nSet-Cookie: x=1' } });
    expect(ctl.status).toBe(201);
    expect(ctl.headers.get('x-svc-id')).toBe('a%0D%0ASet-Cookie: x=1');
    expect(ctl.headers.get('set-cookie')).toBeNull();
  });

  it('keeps + in a query value and decodes the two escaping layers', async () => {
    const r = await server.request('GET', '/tags?q=echo&text=1+1%3D2%20%28ok%29');
    expect(r.json.elements[0].language).toBe('1+1=2 (ok)');
    const empty = await server.request('GET', "/tags?q=echo&text=''");
    expect(empty.json.elements[0].language).toBe('');
  });
});

describe('compound keys from the protocol encoder', () => {
  it('round-trips a CompoundKey written by encodeKeyForPath', async () => {
    const key = new CompoundKey({ photoId: 10, albumId: 2 });
    const r = await server.request('GET', `/albumEntries/${encodeKeyForPath(key)}`);
    expect(r.json).toEqual({ albumId: 2, photoId: 10, position: 0 });
  });
});

describe('protocol 1.0.0 batch ids (wire facts §3.2)', () => {
  const v1 = { headers: { 'x-svc-protocol-version': '' } };

  it('batch gets simple keys given as repeated ids, as a Rest.li 1.0.0 client sends them', async () => {
    const r = await server.request('GET', '/tags?ids=a&ids=b%20c&ids=a', v1);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-protocol-version')).toBe('1.0.0');
    expect(r.json.results).toEqual({ a: { language: 'a' }, 'b c': { language: 'b c' } });
  });

  it('still refuses repeated ids from a 2.0.0 client', async () => {
    const r = await server.request('GET', '/tags?ids=a&ids=b');
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('Invalid query parameters syntax: /tags?ids=a&ids=b');
  });

  it('reads a 1.0.0 request that uses the 2.0.0 List form (curl without a version header)', async () => {
    const r = await server.request('GET', '/tags?ids=List(a,b)', v1);
    expect(Object.keys(r.json.results)).toEqual(['a', 'b']);
  });

  it('batch gets compound keys in their 1.0.0 form, URL-encoded once more inside ids', async () => {
    const r = await server.request(
      'GET',
      '/albumEntries?ids=albumId%3D1%26photoId%3D10&ids=photoId%3D10%26albumId%3D2&ids=albumId%3Dx%26photoId%3D1',
      v1,
    );
    expect(r.status).toBe(200);
    expect(Object.keys(r.json.results).sort()).toEqual(['(albumId:1,photoId:10)', '(albumId:2,photoId:10)']);
    expect(r.json.errors['albumId=x&photoId=1']).toMatchObject({ status: 400 });
    const one = await server.request('GET', '/albumEntries?ids=albumId%3D1%26photoId%3D11', v1);
    expect(Object.keys(one.json.results)).toEqual(['(albumId:1,photoId:11)']);
  });

  it('batch gets complex keys flattened as ids[i].field, $params included', async () => {
    complex.store.set('en|-', new Locale().setLanguage('en'));
    complex.store.set('a&b=c|-', new Locale().setLanguage('a&b=c'));
    const r = await server.request(
      'GET',
      '/locales?ids%5B0%5D.$params.amount=1&ids%5B0%5D.language=en&ids%5B1%5D.language=a%26b%3Dc&ids%5B2%5D.language=fr',
      v1,
    );
    expect(r.status).toBe(200);
    expect(r.json.results).toEqual({
      '(language:en)': { language: 'en' },
      '(language:a&b=c)': { language: 'a&b=c' },
    });
  });

  it.each([
    ['ids both ways', '/locales?ids=x&ids%5B0%5D.language=en'],
    ['an index beyond the fields given', '/locales?ids%5B999999999%5D.language=en'],
    ['a repeated flattened field', '/locales?ids%5B0%5D.language=en&ids%5B0%5D.language=fr'],
    ['a bad escape in a repeated id', '/tags?ids=a&ids=%zz'],
  ])('answers 400 for %s', async (_name, target) => {
    const r = await server.request('GET', target, v1);
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/^Invalid query parameters syntax/);
  });
});

describe('keys that Svc data cannot hold', () => {
  it('refuses U+0000 in a string key, in the path and in ids, before any reply could fail', async () => {
    expect((await server.request('GET', '/tags/a%00b')).status).toBe(400);
    const batch = await server.request('GET', '/tags?ids=List(a,b%00c)', {
      headers: { accept: 'application/x-pson' },
    });
    expect(batch.status).toBe(400);
  });
});
