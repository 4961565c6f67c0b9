/**
 * Reactive handlers over real HTTP: what an Observable means per method (finders and get_all: a stream of
 * entities; every other method: one value), and cancellation: a client that hangs up or a `timeout` that
 * expires aborts `ctx.signal` and unsubscribes the handler's Observable.
 */
import net from 'node:net';
import { EMPTY, Observable, concat, from, of, timer, map as rxMap } from 'rxjs';
import {
  INT,
  LONG_KEY,
  ResourceDefinitionError,
  SvcPluginOptionsError,
  action,
  collection,
  finder,
  recordOf,
  registerResource,
  resolveSvcOptions,
} from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';
import { type TestServer, startServer } from './support/http';
import { makePhoto } from './support/photos';

const PHOTOS = [1, 2, 3, 4, 5].map((i) => makePhoto(i, `p${i}`, PhotoFormat.JPEG));

interface Probe {
  subscribed: number;
  unsubscribed: number;
  reasons: string[];
}

/** An Observable that never answers, counting subscriptions and teardowns, noting why ctx.signal aborted. */
function hanging(probe: Probe, signal: AbortSignal): Observable<never> {
  signal.addEventListener('abort', () => probe.reasons.push((signal.reason as Error).name));
  return new Observable<never>(() => {
    probe.subscribed++;
    return () => {
      probe.unsubscribed++;
    };
  });
}

/** Values a source emitted, and its teardowns. */
interface Ticks {
  emitted: number;
  unsubscribed: number;
}

/** An asynchronous source of photos, one per timer tick, that never completes on its own. */
function ticking(ticks: Ticks): Observable<Photo> {
  return new Observable<Photo>((subscriber) => {
    const timer = setInterval(() => {
      ticks.emitted++;
      subscriber.next(PHOTOS[ticks.emitted % PHOTOS.length]!);
    }, 1);
    return () => {
      clearInterval(timer);
      ticks.unsubscribed++;
    };
  });
}

function resource(probe: Probe, timeout?: number, ticks: Ticks = { emitted: 0, unsubscribed: 0 }) {
  return collection({
    name: 'photos',
    key: LONG_KEY,
    value: Photo,
    ...(timeout === undefined ? {} : { timeout }),
    methods: {
      get: (id, ctx) => {
        if (id === 1) return timer(5).pipe(rxMap(() => PHOTOS[0]!));
        if (id === 2) return concat(of(PHOTOS[0]!), timer(5).pipe(rxMap(() => PHOTOS[1]!)));
        if (id === 3) return EMPTY;
        if (id === 6) return ticking(ticks);
        if (id === 4)
          return new Promise<Photo>((_resolve, reject) =>
            ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error)),
          );
        return hanging(probe, ctx.signal);
      },
      getAll: (ctx) => (ctx.query.has('hang') ? hanging(probe, ctx.signal) : from(PHOTOS)),
      finders: {
        // a stream of entities, emitted over time
        stream: finder({ params: {} }, () =>
          concat(of(PHOTOS[0]!), timer(2).pipe(rxMap(() => PHOTOS[1]!)), of(PHOTOS[2]!)),
        ),
        chunks: finder({ params: {} }, () => from([[PHOTOS[0]!, PHOTOS[1]!], [PHOTOS[2]!]])),
        page: finder({ params: {} }, () => of({ elements: [PHOTOS[4]!], total: 42 })),
        none: finder({ params: {} }, () => EMPTY),
        hang: finder({ params: {} }, (_p, ctx) => hanging(probe, ctx.signal)),
      },
      actions: {
        count: action({ returns: INT }, () => timer(1).pipe(rxMap(() => 5))),
        twice: action({ returns: INT }, () => of(1, 2)),
        ticking: action({ returns: recordOf(Photo) }, () => ticking(ticks)),
      },
    },
  });
}

describe('what a handler Observable means', () => {
  let server: TestServer;
  const probe: Probe = { subscribed: 0, unsubscribed: 0, reasons: [] };
  const ticks: Ticks = { emitted: 0, unsubscribed: 0 };
  beforeAll(async () => {
    server = await startServer({ resources: [resource(probe, undefined, ticks)], mode: 'development' });
  });
  afterAll(() => server.close());

  const titles = (json: { elements: Array<{ title: string }> }): string[] =>
    json.elements.map((e) => e.title);

  it.each([
    ['collects every value of a finder stream, in order', 'q=stream', ['p1', 'p2', 'p3'], 3],
    ['adds the items of list values', 'q=chunks', ['p1', 'p2', 'p3'], 3],
    ['takes a single page value as the whole answer', 'q=page', ['p5'], 42],
    ['answers an empty stream with an empty collection', 'q=none', [], 0],
  ])('%s', async (_name, query, expected, total) => {
    const r = await server.request('GET', `/photos?${query}`);
    expect(r.status).toBe(200);
    expect(titles(r.json)).toEqual(expected);
    expect(r.json.paging.total).toBe(total);
  });

  it('collects a get_all stream and pages it', async () => {
    const r = await server.request('GET', '/photos?start=1&count=2');
    expect(titles(r.json)).toEqual(['p2', 'p3']);
    expect(r.json.paging.total).toBe(5);
  });

  it('takes the one value of a get Observable', async () => {
    const r = await server.request('GET', '/photos/1');
    expect(r.status).toBe(200);
    expect(r.json.title).toBe('p1');
  });

  it('answers a get whose Observable completes empty with a 404', async () => {
    expect((await server.request('GET', '/photos/3')).status).toBe(404);
  });

  it('answers a one-value method whose Observable emits twice with a 500 naming the method', async () => {
    for (const [method, path] of [
      ['GET', '/photos/2'],
      ['POST', '/photos?action=twice'],
    ] as const) {
      const r = await server.request(method, path);
      expect(r.status).toBe(500);
      expect(r.json.message).toMatch(/photos (get|action 'twice').*emitted more than one value/);
    }
  });

  it.each([
    ['get', 'GET', '/photos/6', 'get'],
    ['an action', 'POST', '/photos?action=ticking', "action 'ticking'"],
  ] as const)(
    'unsubscribes an asynchronous one-value Observable of %s at its second value, and answers 500',
    async (_what, method, path, label) => {
      const before = { ...ticks };
      const r = await server.request(method, path);
      expect(r.status).toBe(500);
      expect(r.json.message).toContain(`photos ${label}`);
      expect(r.json.message).toContain('emitted more than one value');
      await until(() => ticks.unsubscribed === before.unsubscribed + 1);
      // the teardown ran at the second value: the source's timer never fired again
      expect(ticks.emitted).toBe(before.emitted + 2);
    },
  );

  it('takes the value of an action Observable', async () => {
    const r = await server.request('POST', '/photos?action=count');
    expect(r.json).toEqual({ value: 5 });
  });
});

describe('cancellation', () => {
  let server: TestServer;
  const probe: Probe = { subscribed: 0, unsubscribed: 0, reasons: [] };
  beforeAll(async () => {
    server = await startServer({ resources: [resource(probe)] });
  });
  afterAll(() => server.close());

  it.each([
    ['get', '/photos/9'],
    ['a finder', '/photos?q=hang'],
    ['get_all', '/photos?hang=1'],
  ])('unsubscribes %s when the client hangs up', async (_name, path) => {
    const before = { ...probe, reasons: probe.reasons.length };
    const socket = net.connect(Number(new URL(server.base).port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-Svc-Protocol-Version: 2.0.0\r\n\r\n`);
    await until(() => probe.subscribed === before.subscribed + 1);
    socket.destroy();
    await until(() => probe.unsubscribed === before.unsubscribed + 1);
    await until(() => probe.reasons.length === before.reasons + 1);
    expect(probe.reasons.at(-1)).toBe('ClientClosedError');
    expect((await server.request('GET', '/photos/1')).status).toBe(200);
  });
});

describe('timeouts', () => {
  it.each([
    ['the server timeout', { timeout: 40 }, undefined],
    ["the resource's timeout", {}, 40],
    ["the resource's timeout over the server's", { timeout: 60_000 }, 40],
  ])('answers 504 after %s and unsubscribes', async (_name, serverOptions, resourceTimeout) => {
    const probe: Probe = { subscribed: 0, unsubscribed: 0, reasons: [] };
    const server = await startServer({ resources: [resource(probe, resourceTimeout)], ...serverOptions });
    try {
      const r = await server.request('GET', '/photos/9');
      expect(r.status).toBe(504);
      expect(r.json).toMatchObject({ status: 504, code: 'SVC_ERR_INVOKE_TIMEOUT' });
      expect(probe).toEqual({ subscribed: 1, unsubscribed: 1, reasons: ['HandlerTimeoutError'] });
      // a promise handler sees ctx.signal abort
      expect((await server.request('GET', '/photos/4')).status).toBe(504);
      // answers within the timeout are untouched
      expect((await server.request('GET', '/photos/1')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it.each([0, -1, Infinity, 'soon'])('refuses a timeout of %p', (timeout) => {
    expect(() =>
      registerResource({ ...resource({ subscribed: 0, unsubscribed: 0, reasons: [] }), timeout }),
    ).toThrow(ResourceDefinitionError);
    expect(() => resolveSvcOptions({ resources: [], timeout: timeout as number })).toThrow(
      SvcPluginOptionsError,
    );
  });
});

/** Polls `condition` until true (at most ~5 s; no timing is asserted). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}
