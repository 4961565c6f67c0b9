/**
 * The typed client's cold Observable forms (`api.items.rx.get(id)`) over real HTTP on loopback: nothing is
 * sent before subscribe, each subscription sends its own request, unsubscribing aborts the request (the
 * server sees its `ctx.signal` abort and unsubscribes its handler's Observable), and a proxy chain over two
 * real servers: a raw client hangs up on server A, whose handler returned the rx call to server B, and B's
 * handler Observable is unsubscribed in turn.
 */
import http from 'node:http';
import { Observable, firstValueFrom, lastValueFrom, of, toArray } from 'rxjs';
import {
  INT,
  STRING,
  STRING_KEY,
  RequestBuildError,
  ServiceResponseError,
  action,
  actionValue,
  collection,
  createResourceClient,
  elements,
  entity,
  finder,
  page,
} from '../../src';
import { Locale } from '../generated/fixtures/com/example/common/Locale';
import { startServer, type TestServer } from '../resources/support/http';
import { createExampleApp } from '../../examples/app';
import { exampleResources } from '../../examples/resources';
import { PhotoLibrary, seededLibrary } from '../../examples/store';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoCriteria } from '../../examples/src/main/generated/com/example/photos/PhotoCriteria';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';

/** What server B's handlers saw. */
interface Seen {
  requests: number;
  subscribed: number;
  unsubscribed: number;
  aborted: number;
}
const fresh = (): Seen => ({ requests: 0, subscribed: 0, unsubscribed: 0, aborted: 0 });

const locale = (language: string): Locale => new Locale().setLanguage(language);

/** An Observable that never answers, counting its subscriptions and unsubscriptions. */
function hanging<T>(seen: Seen): Observable<T> {
  return new Observable<T>(() => {
    seen.subscribed += 1;
    return () => {
      seen.unsubscribed += 1;
    };
  });
}

/** Server B (downstream): `hang` and the `hanging` finder never answer; every other key does. */
function downstream(seen: Seen) {
  return collection({
    name: 'items',
    key: STRING_KEY,
    value: Locale,
    methods: {
      get: (id, ctx) => {
        seen.requests += 1;
        ctx.signal.addEventListener('abort', () => (seen.aborted += 1));
        return id === 'hang' ? hanging<Locale>(seen) : of(locale(id));
      },
      finders: {
        hanging: finder({ params: {} }, (_p, ctx) => {
          seen.requests += 1;
          ctx.signal.addEventListener('abort', () => (seen.aborted += 1));
          return hanging<Locale>(seen);
        }),
        byLanguage: finder({ params: { language: STRING } }, ({ language }) => {
          seen.requests += 1;
          return [locale(language), locale(`${language}-2`)];
        }),
      },
      actions: {
        double: action({ params: { n: INT }, returns: INT }, ({ n }) => {
          seen.requests += 1;
          return n * 2;
        }),
      },
    },
  });
}
const itemsShape = downstream(fresh());

/** Polls until `condition` holds (bounded: a test fails rather than hangs; no timing threshold). */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}

let seenB: Seen;
let b: TestServer;
const servers: TestServer[] = [];

beforeEach(async () => {
  seenB = fresh();
  b = await startServer({ resources: [downstream(seenB)] });
  servers.push(b);
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const clientOfB = () => createResourceClient({ baseUrl: b.base }, { items: itemsShape });

describe('rx forms of the typed client', () => {
  it('sends nothing before subscribe, and one request per subscription', async () => {
    const get = clientOfB().items.rx.get('fr');
    await new Promise((r) => setImmediate(r));
    expect(seenB.requests).toBe(0);
    const first = await firstValueFrom(get);
    const second = await firstValueFrom(get);
    expect(seenB.requests).toBe(2);
    expect(first.status).toBe(200);
    expect(first.entity).toBeInstanceOf(Locale);
    expect(second.entity.getLanguage()).toBe('fr');
  });

  it('emits the same responses as the promise forms, through the operators too', async () => {
    const api = clientOfB();
    expect((await firstValueFrom(api.items.rx.get('de').pipe(entity()))).getLanguage()).toBe('de');
    const page = await firstValueFrom(api.items.rx.finders.byLanguage({ language: 'it' }));
    expect(page.elements.map((l) => l.getLanguage())).toEqual(['it', 'it-2']);
    const streamed = await lastValueFrom(
      api.items.rx.finders.byLanguage({ language: 'es' }).pipe(elements(), toArray()),
    );
    expect(streamed.map((l) => l.getLanguage())).toEqual(['es', 'es-2']);
    expect(await firstValueFrom(api.items.rx.actions.double({ n: 21 }).pipe(actionValue()))).toBe(42);
  });

  it('errors with the same typed errors as the promise forms', async () => {
    const err = await firstValueFrom(clientOfB().items.rx.get('fr', 'not options' as never)).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RequestBuildError);
    expect(seenB.requests).toBe(0);
    const missing = await firstValueFrom(clientOfB().items.rx.finders.byLanguage({} as never)).catch(
      (e: unknown) => e,
    );
    expect(missing).toBeInstanceOf(ServiceResponseError);
    expect((missing as ServiceResponseError).status).toBe(400);
  });

  it('aborts the HTTP request when unsubscribed before the answer', async () => {
    const subscription = clientOfB().items.rx.get('hang').subscribe();
    await eventually(() => seenB.subscribed === 1, 'B subscribed its handler');
    subscription.unsubscribe();
    await eventually(() => seenB.aborted === 1, "B's ctx.signal aborted");
    await eventually(() => seenB.unsubscribed === 1, "B's handler Observable unsubscribed");
  });

  it("still aborts on the caller's own signal", async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const answer = firstValueFrom(clientOfB().items.rx.finders.hanging({}, { signal: controller.signal }));
    await eventually(() => seenB.subscribed === 1, 'B subscribed its handler');
    controller.abort(reason);
    await expect(answer).rejects.toBe(reason);
    await eventually(() => seenB.unsubscribed === 1, "B's handler Observable unsubscribed");
  });
});

describe('a proxy chain over two real servers', () => {
  /** Server A (upstream): its handlers return server B's rx calls directly. */
  async function upstream(seenA: Seen): Promise<TestServer> {
    const api = clientOfB();
    const proxy = collection({
      name: 'proxy',
      key: STRING_KEY,
      value: Locale,
      methods: {
        get: (id, ctx) => {
          seenA.requests += 1;
          ctx.signal.addEventListener('abort', () => (seenA.aborted += 1));
          return api.items.rx.get(id).pipe(entity());
        },
        finders: {
          hanging: finder({ params: {} }, (_p, ctx) => {
            seenA.requests += 1;
            ctx.signal.addEventListener('abort', () => (seenA.aborted += 1));
            return api.items.rx.finders.hanging().pipe(page());
          }),
          byLanguage: finder({ params: { language: STRING } }, ({ language }) =>
            api.items.rx.finders.byLanguage({ language }).pipe(page()),
          ),
        },
      },
    });
    const a = await startServer({ resources: [proxy] });
    servers.push(a);
    return a;
  }

  /** Sends `GET path` to `server` and destroys the socket once `ready` holds. */
  async function hangUp(server: TestServer, path: string, ready: () => boolean): Promise<void> {
    const req = http.get(`${server.base}${path}`, { agent: false });
    req.on('error', () => undefined);
    await eventually(ready, 'the chain reached B');
    req.destroy();
  }

  it('answers through the chain', async () => {
    const a = await upstream(fresh());
    const got = await a.request('GET', '/proxy/nl');
    expect(got.status).toBe(200);
    expect(got.json).toEqual({ language: 'nl' });
    const found = await a.request('GET', '/proxy?q=byLanguage&language=pt');
    expect(found.status).toBe(200);
    expect(found.json.elements).toEqual([{ language: 'pt' }, { language: 'pt-2' }]);
  });

  it.each([
    ['a get piped through entity()', '/proxy/hang'],
    ['a finder piped through page()', '/proxy?q=hanging'],
  ])('cancels B when the client hangs up on A: %s', async (_what, path) => {
    const seenA = fresh();
    const a = await upstream(seenA);
    await hangUp(a, path, () => seenB.subscribed === 1);
    await eventually(() => seenA.aborted === 1, "A's ctx.signal aborted");
    await eventually(() => seenB.aborted === 1, "B's ctx.signal aborted");
    await eventually(() => seenB.unsubscribed === 1, "B's handler Observable unsubscribed");
    expect(seenB.requests).toBe(1);
  });
});

describe('rx forms of every call of the example service', () => {
  const [photos, albums, albumEntries] = exampleResources(new PhotoLibrary());
  type Api = ReturnType<typeof exampleApi>;
  const exampleApi = (baseUrl: string) => createResourceClient({ baseUrl }, { photos, albums, albumEntries });
  const sunrise = new PhotoCriteria().setTitle('Sunrise over the bay').setFormat(PhotoFormat.JPEG);
  const table: ReadonlyArray<
    readonly [string, (api: Api) => Observable<{ readonly status: number }>, number]
  > = [
    ['photos.get', (api) => api.photos.rx.get(1), 200],
    ['photos.batchGet', (api) => api.photos.rx.batchGet([1, 2]), 200],
    [
      'photos.create',
      (api) => api.photos.rx.create(new Photo().setTitle('t').setFormat(PhotoFormat.PNG)),
      201,
    ],
    [
      'photos.batchCreate',
      (api) => api.photos.rx.batchCreate([new Photo().setTitle('t').setFormat(PhotoFormat.PNG)]),
      200,
    ],
    [
      'photos.update',
      (api) => api.photos.rx.update(2, new Photo().setTitle('t').setFormat(PhotoFormat.PNG)),
      204,
    ],
    ['photos.partialUpdate', (api) => api.photos.rx.partialUpdate(2, { $set: { title: 'u' } }), 200],
    ['photos.delete', (api) => api.photos.rx.delete(3), 204],
    ['photos.batchDelete', (api) => api.photos.rx.batchDelete([3, 4]), 200],
    ['photos.getAll', (api) => api.photos.rx.getAll({ count: 2 }), 200],
    ['photos.finders.byTag', (api) => api.photos.rx.finders.byTag({ tag: 'bay' }), 200],
    ['photos.batchFinders.searchPhotos', (api) => api.photos.rx.batchFinders.searchPhotos([sunrise]), 200],
    ['photos.actions.purge', (api) => api.photos.rx.actions.purge({ takenBefore: 0 }), 200],
    ['photos.entityActions.addTag', (api) => api.photos.rx.entityActions.addTag(1, { tag: 'x' }), 200],
    ['albums.get', (api) => api.albums.rx.get(1), 200],
    ['albumEntries.finders.byAlbum', (api) => api.albumEntries.rx.finders.byAlbum({ albumId: 1 }), 200],
  ];

  it.each(table)(
    '%s sends nothing before subscribe and one request per subscription',
    async (_name, make, status) => {
      const requests: string[] = [];
      const app = await createExampleApp({ library: seededLibrary() });
      app.addHook('onRequest', (req, _reply, done) => {
        requests.push(req.url);
        done();
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const api = exampleApi(`http://127.0.0.1:${(app.server.address() as { port: number }).port}`);
        const call = make(api);
        await new Promise((r) => setImmediate(r));
        expect(requests).toHaveLength(0);
        const answers = await lastValueFrom(call.pipe(toArray()));
        expect(answers.map((a) => a.status)).toEqual([status]);
        expect(requests).toHaveLength(1);
        // a second delete of the same photo is a 404: what counts is that it was sent
        await lastValueFrom(call).catch((e: unknown) => expect(e).toBeInstanceOf(ServiceResponseError));
        expect(requests).toHaveLength(2);
      } finally {
        await app.close();
      }
    },
  );
});
