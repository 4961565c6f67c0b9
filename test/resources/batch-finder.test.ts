/**
 * BATCH_FINDER over real HTTP on loopback (brief, "BATCH_FINDER resource method" 1–11 and its error rows;
 * wire facts §7): registration errors, both handler forms, order and duplicates, partial errors, the 404
 * the framework makes up, null results, associations, paging per criterion, both header prefixes, criteria
 * matching, and the cancellation of per-criterion streams.
 */
import { Observable, defer, delay, of, timer, map as rxMap } from 'rxjs';
import {
  BatchFinderResult,
  DataMap,
  ErrorResponseFormat,
  INT,
  LONG,
  LONG_KEY,
  ResourceDefinitionError,
  STRING,
  ServiceError,
  arrayOf,
  assocKey,
  association,
  batchFinder,
  collection,
  criteriaOf,
  enumOf,
  optional,
  recordOf,
  registerResource,
  simple,
} from '../../src';
import { AlbumEntry } from '../generated/fixtures/com/example/photos/AlbumEntry';
import { LatLong } from '../generated/fixtures/com/example/photos/LatLong';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoCriteria } from '../generated/fixtures/com/example/photos/PhotoCriteria';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';
import { type TestServer, startServer } from './support/http';
import { makePhoto } from './support/photos';

const PHOTOS = [
  makePhoto(1, 'Sunrise', PhotoFormat.JPEG),
  makePhoto(2, 'Sunset', PhotoFormat.JPEG),
  makePhoto(3, 'Harbour', PhotoFormat.PNG),
  makePhoto(4, 'Sun dog', PhotoFormat.JPEG),
];

function matching(c: PhotoCriteria): Photo[] {
  const needle = c.getTitleContains(undefined);
  return PHOTOS.filter(
    (p) => p.getFormat() === c.getFormat() && (needle === undefined || p.getTitle().includes(needle)),
  );
}

const CRITERIA = { criteria: criteriaOf(PhotoCriteria) };

// ---------------------------------------------------------------------------------------------------------
// Registration

describe('batch finder registration', () => {
  const handler = (): BatchFinderResult<PhotoCriteria, Photo> => new BatchFinderResult();
  const photos = (batchFinders: Record<string, unknown>): unknown =>
    collection({ name: 'photos', key: LONG_KEY, value: Photo, methods: { batchFinders } as never });
  const entries = (batchFinders: Record<string, unknown>): unknown =>
    association({
      name: 'entries',
      assocKeys: { albumId: LONG, photoId: LONG },
      value: AlbumEntry,
      methods: { batchFinders } as never,
    });
  const bf = (spec: Record<string, unknown>): unknown => batchFinder(spec as never, handler as never);
  const rows: ReadonlyArray<readonly [string, () => unknown, RegExp]> = [
    [
      'rejects a batch finder without a batch parameter',
      () => photos({ s: bf({ batchParam: 'criteria', params: { title: STRING } }) }),
      /batch finder 's'.*no batch parameter/,
    ],
    [
      'rejects a batch finder without batchParam',
      () => photos({ s: bf({ params: CRITERIA }) }),
      /'batchParam' is required/,
    ],
    [
      'rejects two batch parameters',
      () =>
        photos({
          s: bf({
            batchParam: 'criteria',
            params: { criteria: criteriaOf(PhotoCriteria), more: criteriaOf(PhotoCriteria) },
          }),
        }),
      /parameter 'more'.*exactly one batch parameter/,
    ],
    [
      'rejects a batch parameter named other than batchParam',
      () => photos({ s: bf({ batchParam: 'criteria', params: { crit: criteriaOf(PhotoCriteria) } }) }),
      /parameter 'crit'.*must be the batchParam 'criteria'/,
    ],
    [
      'rejects a batchParam declared as a plain array',
      () =>
        photos({ s: bf({ batchParam: 'criteria', params: { criteria: arrayOf(recordOf(PhotoCriteria)) } }) }),
      /must be declared with criteriaOf/,
    ],
    [
      'rejects primitive criteria',
      () => photos({ s: bf({ batchParam: 'criteria', params: { criteria: criteriaOf(INT as never) } }) }),
      /criteria must be a generated record type, not the primitive int/,
    ],
    [
      'rejects enum criteria',
      () =>
        photos({
          s: bf({ batchParam: 'criteria', params: { criteria: criteriaOf(enumOf(PhotoFormat) as never) } }),
        }),
      /not the enum PhotoFormat/,
    ],
    [
      'rejects an enum object as criteria',
      () =>
        photos({ s: bf({ batchParam: 'criteria', params: { criteria: criteriaOf(PhotoFormat as never) } }) }),
      /criteria must be a generated record type/,
    ],
    [
      'rejects an optional batch parameter',
      () =>
        photos({
          s: bf({
            batchParam: 'criteria',
            params: { criteria: optional(criteriaOf(PhotoCriteria) as never) },
          }),
        }),
      /cannot be optional/,
    ],
    [
      'rejects a query parameter named q',
      () => photos({ s: bf({ batchParam: 'criteria', params: { ...CRITERIA, q: STRING } }) }),
      /parameter 'q'.*reserved/,
    ],
    [
      'rejects a query parameter named bq',
      () => photos({ s: bf({ batchParam: 'criteria', params: { ...CRITERIA, bq: STRING } }) }),
      /parameter 'bq'.*reserved/,
    ],
    [
      'rejects a query parameter named start',
      () => photos({ s: bf({ batchParam: 'criteria', params: { ...CRITERIA, start: INT } }) }),
      /parameter 'start'.*reserved/,
    ],
    [
      'rejects two parameters bound to one key part',
      () =>
        entries({
          s: bf({
            batchParam: 'criteria',
            params: { ...CRITERIA, a: assocKey(LONG, 'albumId'), b: assocKey(LONG, 'albumId') },
          }),
        }),
      /bound by two parameters/,
    ],
    [
      'rejects an unsupported parameter type',
      () => photos({ s: bf({ batchParam: 'criteria', params: { ...CRITERIA, when: Date } }) }),
      /parameter 'when'.*not a parameter type/,
    ],
    [
      'rejects an association key the resource does not declare',
      () => entries({ s: bf({ batchParam: 'criteria', params: { ...CRITERIA, userId: assocKey(LONG) } }) }),
      /key part 'userId', which the association does not declare/,
    ],
    [
      'rejects an assocKey on a collection',
      () => photos({ s: bf({ batchParam: 'criteria', params: { ...CRITERIA, albumId: assocKey(LONG) } }) }),
      /allowed only in finders of association/,
    ],
    [
      'rejects a context other than paging',
      () =>
        photos({
          s: {
            ...(bf({ batchParam: 'criteria', params: CRITERIA }) as object),
            context: { projection: true },
          },
        }),
      /unknown option 'context': a batch finder's only context is paging/,
    ],
    [
      'rejects a finder declared among batch finders',
      () => photos({ s: { kind: 'finder', params: {}, handler } }),
      /must be declared with batchFinder/,
    ],
    [
      'rejects a bad concurrency',
      () =>
        photos({
          s: batchFinder.perCriterion({ batchParam: 'criteria', params: CRITERIA, concurrency: 0 }, () => []),
        }),
      /'concurrency' must be a positive integer/,
    ],
    [
      'rejects a bad maxBatchSize',
      () => photos({ s: bf({ batchParam: 'criteria', params: CRITERIA, maxBatchSize: -1 }) }),
      /'maxBatchSize' must be a positive integer/,
    ],
    [
      'rejects batch finders on a simple resource',
      () => simple({ name: 'settings', value: Photo, methods: { batchFinders: {} } as never }),
      /a simple resource has no batch finders/,
    ],
  ];
  it.each(rows)('%s', (_name, make, message) => {
    let caught: unknown;
    try {
      registerResource(make());
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ResourceDefinitionError);
    expect((caught as Error).message).toMatch(message);
  });

  it('names the resource, the method and the parameter', () => {
    expect(() =>
      registerResource(
        photos({ search: bf({ batchParam: 'criteria', params: { crit: criteriaOf(PhotoCriteria) } }) }),
      ),
    ).toThrow(/photos.*batch finder 'search'.*crit/);
  });

  it('accepts both forms with paging, metadata and association keys', () => {
    const model = registerResource(
      entries({
        a: bf({
          batchParam: 'criteria',
          params: { ...CRITERIA, albumId: assocKey(LONG) },
          paging: true,
          metadata: LatLong,
        }),
        b: batchFinder.perCriterion({ batchParam: 'criteria', params: CRITERIA, concurrency: 4 }, () => []),
      }),
    );
    expect([...model.batchFinders.keys()]).toEqual(['a', 'b']);
    expect(model.batchFinders.get('b')!.batch).toMatchObject({
      form: 'perCriterion',
      concurrency: 4,
      param: 'criteria',
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Wire

interface Probe {
  subscribed: number;
  unsubscribed: number;
  aborted: unknown[];
}

function photosResource(probe: Probe) {
  return collection({
    name: 'photos',
    key: LONG_KEY,
    value: Photo,
    timeout: undefined,
    methods: {
      get: (id) => {
        if (id === 2) return of(PHOTOS[0]!, PHOTOS[1]!); // two values for a one-value method
        return PHOTOS.find((p) => p.getId() === id);
      },
      batchFinders: {
        // whole batch: answers what matches, errors for GIF, leaves criteria without matches out
        search: batchFinder(
          { batchParam: 'criteria', params: { ...CRITERIA, tag: optional(STRING) } },
          (criteria, { tag }, ctx) => {
            const out = new BatchFinderResult<PhotoCriteria, Photo>();
            for (const c of criteria) {
              if (c.getFormat() === PhotoFormat.GIF)
                out.putError(c, new ServiceError(422, `no GIFs${tag === undefined ? '' : ` for ${tag}`}`));
              else if (c.getFormat() === PhotoFormat.BMP)
                out.putError(c, new Error('the BMP index is down at db-7'));
              else if (matching(c).length > 0) out.putResult(c, matching(c));
            }
            ctx.setResponseHeader('x-criteria', String(criteria.length));
            return out;
          },
        ),
        // results keyed by criteria the handler builds anew: field order, bigint for a long, unknown fields
        rebuilt: batchFinder({ batchParam: 'criteria', params: CRITERIA }, (criteria) => {
          const out = new BatchFinderResult<PhotoCriteria, Photo>();
          for (const c of criteria) {
            const fresh = new DataMap();
            const after = c.getTakenAfter(undefined);
            if (after !== undefined) fresh.put('takenAfter', BigInt(after));
            fresh.put('scratch', 'not in the schema');
            fresh.put('format', c.getFormat());
            const needle = c.getTitleContains(undefined);
            if (needle !== undefined) fresh.put('titleContains', needle);
            out.putResult(new PhotoCriteria(fresh), matching(c));
          }
          return out;
        }),
        nothing: batchFinder({ batchParam: 'criteria', params: CRITERIA }, () => null as never),
        promised: batchFinder({ batchParam: 'criteria', params: CRITERIA }, (criteria) =>
          Promise.resolve(
            new BatchFinderResult<PhotoCriteria, Photo>().putResult(criteria[0]!, {
              elements: matching(criteria[0]!),
              total: 99,
              metadata: new LatLong().setLatitude(1).setLongitude(2),
            }),
          ),
        ),
        limited: batchFinder(
          { batchParam: 'criteria', params: CRITERIA, maxBatchSize: 2 },
          () => new BatchFinderResult(),
        ),
        // per criterion, with a random delay each: results must come back in request order
        each: batchFinder.perCriterion(
          { batchParam: 'criteria', params: { ...CRITERIA, delays: optional(arrayOf(INT)) } },
          (c, { delays }, ctx) => {
            const i = ctx.query.get('criteria') instanceof Object ? 0 : 0;
            void i;
            if (c.getFormat() === PhotoFormat.GIF) throw new ServiceError(403, 'GIFs are private');
            const found = matching(c);
            if (found.length === 0) return undefined;
            const wait = delays?.[Number(c.getTakenAfter(undefined) ?? 0)] ?? Math.floor(Math.random() * 20);
            // a stream of entities, not a list: every value is an element
            return defer(() => of(...found)).pipe(delay(wait));
          },
        ),
        // per criterion, never answering: counts subscriptions, for cancellation
        hanging: batchFinder.perCriterion({ batchParam: 'criteria', params: CRITERIA }, (_c, _p, ctx) => {
          ctx.signal.addEventListener('abort', () => probe.aborted.push(ctx.signal.reason));
          return new Observable<Photo>(() => {
            probe.subscribed++;
            return () => {
              probe.unsubscribed++;
            };
          });
        }),
        slow: batchFinder.perCriterion({ batchParam: 'criteria', params: CRITERIA }, (c) =>
          timer(1).pipe(rxMap(() => matching(c))),
        ),
      },
      finders: {},
    },
  });
}

function entriesResource() {
  return association({
    name: 'entries',
    assocKeys: { albumId: LONG, photoId: LONG },
    value: AlbumEntry,
    methods: {
      batchFinders: {
        inAlbum: batchFinder.perCriterion(
          { batchParam: 'criteria', params: { ...CRITERIA, albumId: assocKey(LONG) }, paging: true },
          (c, { albumId }, ctx) => ({
            elements: [
              new AlbumEntry()
                .setAlbumId(albumId)
                .setPhotoId(Number(c.getTakenAfter(undefined as never) ?? 0))
                .setPosition(ctx.paging.start),
            ],
            total: 5,
          }),
        ),
      },
    },
  });
}

const enc = (c: string): string => encodeURIComponent(c).replace(/%2C/g, ',').replace(/%3A/g, ':');

describe('batch finder over HTTP', () => {
  let server: TestServer;
  const probe: Probe = { subscribed: 0, unsubscribed: 0, aborted: [] };
  beforeAll(async () => {
    server = await startServer({
      resources: [photosResource(probe), entriesResource()],
      acceptLegacyHeaderPrefix: true,
    });
  });
  afterAll(() => server.close());

  const get = (query: string, headers?: Record<string, string>) =>
    server.request('GET', `/photos?${query}`, headers === undefined ? {} : { headers });

  it('answers one entry per criterion in the order sent, duplicates included', async () => {
    const r = await get('bq=search&criteria=List((format:PNG),(format:JPEG,titleContains:Sun),(format:PNG))');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-protocol-version')).toBe('2.0.0');
    expect(r.headers.get('x-criteria')).toBe('3');
    const e = r.json.elements;
    expect(e).toHaveLength(3);
    expect(e.map((x: { elements: Array<{ title: string }> }) => x.elements.map((p) => p.title))).toEqual([
      ['Harbour'],
      ['Sunrise', 'Sunset', 'Sun dog'],
      ['Harbour'],
    ]);
    expect(e[0]).not.toHaveProperty('isError');
    expect(e[0].paging).toEqual({ start: 0, count: 10, total: 1, links: [] });
  });

  it('answers errors per criterion with status 200 overall, and a 404 for criteria left out', async () => {
    const r = await get(
      'bq=search&criteria=List((format:GIF),(format:JPEG,titleContains:zzz),(format:BMP),(format:PNG))&tag=x',
    );
    expect(r.status).toBe(200);
    const [gif, none, bmp, png] = r.json.elements;
    expect(gif).toEqual({ elements: [], isError: true, error: { status: 422, message: 'no GIFs for x' } });
    expect(none).toEqual({
      elements: [],
      isError: true,
      error: { status: 404, message: "The server didn't find a representation for this criteria" },
    });
    // an unexpected error is a 500 entry without the handler's text or a stack trace in production
    expect(bmp.isError).toBe(true);
    expect(bmp.error.status).toBe(500);
    expect(JSON.stringify(bmp)).not.toMatch(/db-7|stackTrace/);
    expect(png.elements).toHaveLength(1);
  });

  it('answers 200 when every criterion failed', async () => {
    const r = await get('bq=search&criteria=List((format:GIF),(format:GIF))');
    expect(r.status).toBe(200);
    expect(r.json.elements.every((x: { isError: boolean }) => x.isError)).toBe(true);
  });

  it('answers a null result with the unexpected-null 500', async () => {
    const r = await get('bq=nothing&criteria=List((format:PNG))');
    expect(r.status).toBe(500);
    expect(r.json.message).toMatch(
      /^Unexpected null encountered\. Null returned by the resource method: photos batch finder 'nothing'/,
    );
  });

  it('matches criteria whatever their field order, long representation and unknown fields', async () => {
    const r = await get(
      'bq=rebuilt&criteria=List((titleContains:Sun,takenAfter:7,format:JPEG,extra:1),(format:PNG))',
    );
    expect(
      r.json.elements.map((x: { isError?: boolean; elements: unknown[] }) => [
        x.isError ?? false,
        x.elements.length,
      ]),
    ).toEqual([
      [false, 3],
      [false, 1],
    ]);
  });

  it('pages each criterion with links built on that criterion alone', async () => {
    const r = await get('bq=search&criteria=List((format:JPEG),(format:PNG))&count=2');
    const [jpeg, png] = r.json.elements;
    expect(jpeg.elements).toHaveLength(2);
    expect(jpeg.paging).toMatchObject({ start: 0, count: 2, total: 3 });
    expect(jpeg.paging.links).toEqual([
      {
        rel: 'next',
        type: 'application/json',
        href: '/photos?bq=search&criteria=List((format:JPEG))&start=2&count=2',
      },
    ]);
    expect(png.paging).toEqual({ start: 0, count: 2, total: 1, links: [] });
    const second = await get('bq=search&criteria=List((format:JPEG))&count=2&start=2');
    expect(second.json.elements[0].elements.map((p: { title: string }) => p.title)).toEqual(['Sun dog']);
  });

  it('carries total and metadata given by the handler, and projects fields', async () => {
    const r = await get('bq=promised&criteria=List((format:PNG))&fields=title');
    expect(r.json.elements[0]).toEqual({
      elements: [{ title: 'Harbour' }],
      paging: {
        start: 0,
        count: 10,
        total: 99,
        links: [
          {
            rel: 'next',
            type: 'application/json',
            href: '/photos?bq=promised&criteria=List((format:PNG))&fields=title&start=1&count=10',
          },
        ],
      },
      metadata: { latitude: 1, longitude: 2 },
    });
  });

  it('runs the per-criterion form in parallel and merges it back into request order', async () => {
    // criterion i waits delays[takenAfter]: the first waits longest
    const r = await get(
      'bq=each&criteria=List((format:PNG,takenAfter:0),(format:JPEG,takenAfter:1),(format:GIF),(format:JPEG,titleContains:zz),(format:JPEG,titleContains:dog,takenAfter:2))&delays=List(60,0,10)',
    );
    expect(r.status).toBe(200);
    const e = r.json.elements;
    expect(e.map((x: { elements: Array<{ title: string }> }) => x.elements.map((p) => p.title))).toEqual([
      ['Harbour'],
      ['Sunrise', 'Sunset', 'Sun dog'],
      [],
      [],
      ['Sun dog'],
    ]);
    expect(e[2].error).toEqual({ status: 403, message: 'GIFs are private' });
    expect(e[3].error.status).toBe(404);
  });

  it('keeps request order under random delays, duplicates included', async () => {
    const list = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? '(format:PNG)'
        : i % 3 === 1
          ? '(format:JPEG,titleContains:Sunr)'
          : '(format:JPEG,titleContains:Sunset)',
    );
    const r = await get(`bq=each&criteria=List(${list.join(',')})`);
    const titles = r.json.elements.map((x: { elements: Array<{ title: string }> }) => x.elements[0]!.title);
    expect(titles).toEqual(Array.from({ length: 30 }, (_, i) => ['Harbour', 'Sunrise', 'Sunset'][i % 3]));
  });

  it('refuses an invalid criterion naming its index and field', async () => {
    const r = await get('bq=search&criteria=List((format:PNG),(format:NOPE))');
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/criteria.*1/);
    expect(r.json.message).toMatch(/\/format/);
  });

  it.each([
    ['criteria that are not a list', 'bq=search&criteria=(format:PNG)', /expected a list of criteria/],
    ['a criterion that is not a record', 'bq=search&criteria=List(PNG)', /criterion 0 .*expected a record/],
    [
      'a criterion missing a required field',
      'bq=search&criteria=List((titleContains:x))',
      /criterion 0.*\/format/,
    ],
    ['no criteria parameter', 'bq=search', /Parameter 'criteria' is required/],
    ['an unknown batch finder', 'bq=nope&criteria=List((format:PNG))', /nope/],
  ])('refuses %s with a 400', async (_name, query, message) => {
    const r = await get(query);
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(message);
  });

  it('refuses more criteria than maxBatchSize', async () => {
    const r = await get('bq=limited&criteria=List((format:PNG),(format:PNG),(format:PNG))');
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(
      'The request batch size: 3 is larger than the allowed max batch size: 2 for method: limited',
    );
  });

  it('serves association batch finders with association key parameters from the path', async () => {
    const r = await server.request(
      'GET',
      '/entries/(albumId:7)?bq=inAlbum&criteria=List((format:PNG,takenAfter:3),(format:JPEG,takenAfter:4))&start=1&count=1',
    );
    expect(r.status).toBe(200);
    expect(
      r.json.elements.map(
        (x: { elements: Array<{ albumId: number; photoId: number; position: number }> }) => x.elements[0],
      ),
    ).toEqual([
      { albumId: 7, photoId: 3, position: 1 },
      { albumId: 7, photoId: 4, position: 1 },
    ]);
    expect(r.json.elements[0].paging.total).toBe(5);
  });

  it('reads the X-RestLi-* headers as well', async () => {
    const r = await get('bq=search&criteria=List((format:PNG))', {
      'x-svc-protocol-version': '',
      'X-RestLi-Protocol-Version': '2.0.0',
      'X-RestLi-Method': 'batch_finder',
    });
    expect(r.status).toBe(200);
    expect(r.json.elements[0].elements).toHaveLength(1);
  });

  it('answers PSON when asked', async () => {
    const r = await get('bq=search&criteria=List((format:PNG))', { accept: 'application/x-pson' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/x-pson');
  });

  it('answers a one-value method whose Observable emits twice with a 500 naming the method', async () => {
    const r = await server.request('GET', '/photos/2');
    expect(r.status).toBe(500);
  });

  it('unsubscribes every criterion when the client hangs up', async () => {
    const before = { ...probe, aborted: probe.aborted.length };
    // over HTTP/1.1 the socket is destroyed, over HTTP/2 the stream is reset (CANCEL)
    const call = await server.open(
      'GET',
      '/photos?bq=hanging&criteria=List((format:PNG),(format:JPEG),(format:GIF))',
    );
    await until(() => probe.subscribed - before.subscribed === 3);
    call.abort();
    await until(() => probe.unsubscribed - before.unsubscribed === 3);
    await until(() => probe.aborted.length - before.aborted === 3);
    expect((probe.aborted.at(-1) as Error).name).toBe('ClientClosedError');
    // the server keeps serving
    expect((await get('bq=search&criteria=List((format:PNG))')).status).toBe(200);
  });
});

describe('batch finder timeouts', () => {
  it('answers 504 and unsubscribes every criterion when the timeout expires', async () => {
    const probe: Probe = { subscribed: 0, unsubscribed: 0, aborted: [] };
    const server = await startServer({ resources: [photosResource(probe)], timeout: 50 });
    try {
      const r = await server.request('GET', '/photos?bq=hanging&criteria=List((format:PNG),(format:JPEG))');
      expect(r.status).toBe(504);
      expect(r.json).toMatchObject({ status: 504 });
      expect(r.headers.get('x-svc-error-response')).toBe('true');
      await until(() => probe.unsubscribed === 2);
      expect(probe.subscribed).toBe(2);
      expect((probe.aborted[0] as Error).name).toBe('HandlerTimeoutError');
      // fast enough answers are unaffected
      expect((await server.request('GET', '/photos?bq=slow&criteria=List((format:PNG))')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('shows stack traces of criterion errors only when configured', async () => {
    const server = await startServer({
      resources: [photosResource({ subscribed: 0, unsubscribed: 0, aborted: [] })],
      mode: 'development',
      errorResponseFormat: ErrorResponseFormat.FULL,
    });
    try {
      const r = await server.request('GET', '/photos?bq=search&criteria=List((format:BMP))');
      expect(r.json.elements[0].error.message).toMatch(/the BMP index is down at db-7/);
      expect(r.json.elements[0].error.stackTrace).toMatch(/Error: the BMP index is down/);
    } finally {
      await server.close();
    }
  });
});

/** Polls `condition` until true (at most ~5 s; no timing is asserted). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

void LONG_KEY;
void enc;

describe('batch finder outputs', () => {
  it('checks what handlers return in development mode, naming criterion and index', async () => {
    const broken = collection({
      name: 'photos',
      key: LONG_KEY,
      value: Photo,
      methods: {
        batchFinders: {
          search: batchFinder.perCriterion({ batchParam: 'criteria', params: CRITERIA }, () => [
            new Photo().setTitle('no format'),
          ]),
        },
      },
    });
    const server = await startServer({ resources: [broken], mode: 'development' });
    try {
      const r = await server.request('GET', '/photos?bq=search&criteria=List((format:PNG))');
      expect(r.status).toBe(500);
      expect(r.json.message).toMatch(
        /^Invalid output of photos search: Criteria: 0, Index: 0, [^]*\/format :: field is required/,
      );
    } finally {
      await server.close();
    }
  });
});
