/**
 * The typed resource client over the resource shapes the example service does not have, against a real
 * server on loopback: complex keys (with `$params`), string keys with reserved characters, unicode and
 * empty strings, longs beyond 2^53, simple resources and subresources, a get_all with parameters, finder
 * metadata, void actions, entity actions on associations, and the client options (header prefix,
 * protocol version announcement, timeouts).
 */
import {
  INT,
  LONG,
  LONG_KEY,
  ProtocolVersionOption,
  RequestTimeoutError,
  STRING,
  STRING_KEY,
  action,
  assocKey,
  association,
  collection,
  complexKey,
  createResourceClient,
  entityAction,
  finder,
  optional,
  recordOf,
  simple,
} from '../../src';
import { Locale } from '../generated/fixtures/com/example/common/Locale';
import { Money } from '../generated/fixtures/com/example/common/Money';
import { startServer, type TestServer } from '../resources/support/http';

const locales = new Map<string, Locale>();
const localeText = (l: Locale): string => `${l.getLanguage()}|${l.getCountry() ?? ''}`;

/** Complex keys: a Locale keyed by a Locale, the params a Money that the entity echoes. */
const byLocale = collection({
  name: 'byLocale',
  key: complexKey(Locale, Money),
  value: Locale,
  methods: {
    get: (k) => {
      const found = locales.get(localeText(k.key));
      if (found === undefined) return undefined;
      const out = found.copy();
      if (k.params !== undefined) out.setVariant(`${k.params.getAmount()} ${k.params.getCurrencyCode()}`);
      return out;
    },
    batchGet: (keys) =>
      new Map(
        keys.flatMap((k) => {
          const v = locales.get(localeText(k.key));
          return v === undefined ? [] : [[k, v] as const];
        }),
      ),
    create: (l) => {
      locales.set(localeText(l), l);
      return {
        id: {
          key: new Locale().setLanguage(l.getLanguage()).setCountry(l.getCountry() ?? ''),
          params: undefined,
        },
      };
    },
    batchUpdate: (map) =>
      new Map(
        [...map].map(([k, v]) => {
          locales.set(localeText(k.key), v);
          return [k, { status: 204 }] as const;
        }),
      ),
  },
});

/** String keys echoed back: the entity's language is the key. */
const words = collection({
  name: 'words',
  key: STRING_KEY,
  value: Locale,
  methods: {
    get: (w) => new Locale().setLanguage(w),
    batchGet: (ws) => new Map(ws.map((w) => [w, new Locale().setLanguage(w)] as const)),
    create: (l) => ({ id: l.getLanguage() }),
    // get_all with parameters and handler paging; a metadata record
    getAll: finder(
      { params: { prefix: optional(STRING) }, paging: true, metadata: Money },
      ({ prefix }, ctx) => ({
        elements: [new Locale().setLanguage(`${prefix ?? ''}${ctx.paging.start}`)],
        total: 100,
        metadata: new Money().setAmount(String(ctx.paging.count)),
      }),
    ),
    actions: {
      // void: 200 without a body
      touch: action({ params: { times: optional(INT, 1) } }, () => undefined),
      echo: action({ params: { text: STRING }, returns: STRING }, ({ text }) => text),
    },
  },
});

/** Long keys beyond 2^53 stay exact both ways. */
const big = collection({
  name: 'big',
  key: LONG_KEY,
  value: Locale,
  methods: {
    get: (id) => new Locale().setLanguage(typeof id === 'bigint' ? `bigint ${id}` : `number ${id}`),
    batchGet: (ids) => new Map(ids.map((id) => [id, new Locale().setLanguage(String(id))] as const)),
    create: () => ({ id: 2n ** 60n + 1n }),
    entityActions: {
      double: entityAction({ key: LONG_KEY, returns: LONG }, (id) => BigInt(id) * 2n),
    },
  },
});

/** A simple resource under a collection entity, and a collection under it. */
const notes = collection({
  name: 'notes',
  key: STRING_KEY,
  value: Locale,
  methods: {
    get: (id, ctx) => new Locale().setLanguage(`${String(ctx.pathKeys.get('shelvesId'))}/${id}`),
  },
});
const settings = simple({
  name: 'settings',
  value: Locale,
  methods: {
    get: (ctx) => new Locale().setLanguage(`settings of ${String(ctx.pathKeys.get('shelvesId'))}`),
    update: () => undefined,
    partialUpdate: (patch) => ({ entity: patch.applyTo(new Locale().setLanguage('base')) }),
    delete: () => ({ status: 202 }),
    actions: { reset: action({ returns: STRING }, () => 'reset') },
  },
});
const shelves = collection({
  name: 'shelves',
  key: LONG_KEY,
  value: Locale,
  methods: { get: (id) => new Locale().setLanguage(`shelf ${id}`) },
  subresources: [notes, settings],
});

/** An association with an entity action and a finder over one key part. */
const pairs = association({
  name: 'pairs',
  assocKeys: { left: STRING, right: LONG },
  value: Locale,
  methods: {
    get: (k) => new Locale().setLanguage(`${k.left}+${k.right}`),
    finders: {
      byLeft: finder({ params: { left: assocKey(STRING) } }, ({ left }) => [
        new Locale().setLanguage(`left=${left}`),
      ]),
    },
    entityActions: {
      swap: entityAction(
        { returns: STRING },
        (k: { readonly left: string; readonly right: number | bigint }) => `${k.right}+${k.left}`,
      ),
    },
  },
});

/** Money has a defaulted field (currencyCode: USD) that handlers leave out. */
const prices = collection({
  name: 'prices',
  key: LONG_KEY,
  value: Money,
  methods: {
    get: (id) => new Money().setAmount(String(id)),
    batchGet: (ids) => new Map(ids.map((id) => [id, new Money().setAmount(String(id))] as const)),
    create: (m) => ({ id: 1, entity: m }),
    finders: {
      all: finder({}, () => [new Money().setAmount('1'), new Money().setAmount('2').setCurrencyCode('EUR')]),
    },
    actions: { cheapest: action({ returns: recordOf(Money) }, () => new Money().setAmount('0.01')) },
  },
});

const resources = { byLocale, words, big, shelves, pairs, prices };
let server: TestServer;
let slow: TestServer;

beforeAll(async () => {
  server = await startServer({ resources: Object.values(resources), headerPrefix: 'X-RestLi' });
  slow = await startServer({
    resources: [
      collection({
        name: 'slow',
        key: LONG_KEY,
        value: Locale,
        methods: {
          get: () => new Promise<Locale>((resolve) => setTimeout(() => resolve(new Locale()), 2000).unref()),
        },
      }),
    ],
  });
});

afterAll(async () => {
  await server.close();
  await slow.close();
});

const api = () => createResourceClient({ baseUrl: server.base, headerPrefix: 'X-RestLi' }, resources);

describe('complex keys', () => {
  it('creates, gets with $params, batch-gets and batch-updates', async () => {
    const c = api().byLocale;
    const made = await c.create(new Locale().setLanguage('fr').setCountry('CA'));
    expect(made.id?.key).toBeInstanceOf(Locale);
    expect(made.id?.key.getLanguage()).toBe('fr');
    const key = {
      key: new Locale().setLanguage('fr').setCountry('CA'),
      params: new Money().setAmount('1.50'),
    };
    const got = await c.get(key);
    expect(got.entity.getVariant()).toBe('1.50 USD');
    await c.create(new Locale().setLanguage('a:b,(c)').setCountry("'q'"));
    const odd = { key: new Locale().setLanguage('a:b,(c)').setCountry("'q'"), params: undefined };
    const batch = await c.batchGet([key, odd, { key: new Locale().setLanguage('xx'), params: undefined }]);
    expect(batch.results.size).toBe(2);
    expect(batch.results.get(odd)?.getLanguage()).toBe('a:b,(c)');
    // complex keys match without their params
    expect(batch.results.get({ key: key.key, params: undefined })?.getCountry()).toBe('CA');
    const updated = await c.batchUpdate([
      [odd, new Locale().setLanguage('a:b,(c)').setCountry("'q'").setVariant('v')],
    ]);
    expect(updated.results.get(odd)?.status).toBe(204);
  });
});

describe('string keys', () => {
  it.each([
    ['reserved characters', "a/b?c#d&e=f,g(h):i'j k%l+m"],
    ['List( and parentheses', 'List(1,2)'],
  ])('round-trips %s through the path, ids and the id header', async (_what, word) => {
    const c = api().words;
    expect((await c.get(word)).entity.getLanguage()).toBe(word);
    const batch = await c.batchGet([word, 'plain']);
    expect(batch.results.get(word)?.getLanguage()).toBe(word);
    expect((await c.create(new Locale().setLanguage(word))).id).toBe(word);
  });

  it('round-trips unicode through the path and ids', async () => {
    const c = api().words;
    const word = 'Été ☀ 東京 🎉';
    expect((await c.get(word)).entity.getLanguage()).toBe(word);
    expect((await c.batchGet([word])).results.get(word)?.getLanguage()).toBe(word);
    // the id header carries the key raw, as its UTF-8 bytes
    expect((await c.create(new Locale().setLanguage(word))).id).toBe(word);
  });

  it('creates with keys holding control characters: the id header escapes them, the server stays up', async () => {
    const c = api().words;
    const made = await c.create(new Locale().setLanguage('a\nb\r\tc'));
    expect(made.idText).toBe('a%0Ab%0D\tc');
    expect(made.location).toContain('/words/a%0Ab%0D%09c');
    expect((await c.get('x')).status).toBe(200);
  });

  it('sends the empty string in ids, and refuses it in a path (the reference reads it literally)', async () => {
    const c = api().words;
    const batch = await c.batchGet(['', 'x']);
    expect(batch.results.get('')?.getLanguage()).toBe('');
    await expect(c.get('')).rejects.toThrow(/An empty string key cannot be sent in a path/);
    expect((await c.create(new Locale().setLanguage(''))).id).toBe('');
  });

  it('a get_all with parameters, handler paging and a metadata record', async () => {
    const page = await api().words.getAll({ prefix: 'p' }, { start: 20, count: 5 });
    expect(page.elements.map((l) => l.getLanguage())).toEqual(['p20']);
    expect(page.paging).toMatchObject({ start: 20, count: 5, total: 100 });
    expect(page.metadata).toBeInstanceOf(Money);
    expect(page.metadata?.getAmount()).toBe('5');
    const none = await api().words.getAll();
    expect(none.elements[0]?.getLanguage()).toBe('0');
  });

  it('void and valued actions', async () => {
    const touched = await api().words.actions.touch({ times: 3 });
    expect(touched.status).toBe(200);
    expect(touched.value).toBeUndefined();
    expect((await api().words.actions.echo({ text: 'hé' })).value).toBe('hé');
  });
});

describe('longs', () => {
  it('keys beyond 2^53 go out and come back as exact bigints', async () => {
    const c = api().big;
    const k = 2n ** 61n + 3n;
    expect((await c.get(k)).entity.getLanguage()).toBe(`bigint ${k}`);
    expect((await c.get(7)).entity.getLanguage()).toBe('number 7');
    const batch = await c.batchGet([k, 1]);
    expect(batch.results.get(k)?.getLanguage()).toBe(String(k));
    expect((await c.create(new Locale().setLanguage('big'))).id).toBe(2n ** 60n + 1n);
    expect((await c.entityActions.double(k)).value).toBe(k * 2n);
  });
});

describe('subresources and simple resources', () => {
  it('reaches children under a parent entity', async () => {
    const shelf = api().shelves;
    expect((await shelf.get(4)).entity.getLanguage()).toBe('shelf 4');
    const notes4 = shelf.sub(4, notes);
    expect(notes4.path).toBe('shelves/{$0}/notes');
    expect((await notes4.get('n/1')).entity.getLanguage()).toBe('4/n/1');
    const s = shelf.sub(5, settings);
    expect((await s.get()).entity.getLanguage()).toBe('settings of 5');
    expect((await s.update(new Locale().setLanguage('x'))).status).toBe(204);
    expect((await s.partialUpdate({ $set: { country: 'NZ' } })).entity?.getCountry()).toBe('NZ');
    expect((await s.delete()).status).toBe(202);
    expect((await s.actions.reset()).value).toBe('reset');
  });

  it('refuses a child that is not the parent’s', () => {
    expect(() => api().shelves.sub(1, words)).toThrow("'words' is not a subresource of 'shelves'");
  });
});

describe('associations', () => {
  it('entity actions and finders on a partial key with reserved characters', async () => {
    const p = api().pairs;
    expect((await p.get({ left: 'a,b', right: 2 })).entity.getLanguage()).toBe('a,b+2');
    expect((await p.entityActions.swap({ left: 'x:y', right: 9 })).value).toBe('9+x:y');
    expect((await p.finders.byLeft({ left: '(l)' })).elements[0]?.getLanguage()).toBe('left=(l)');
  });
});

describe('$fillInDefaults', () => {
  const raw = (m: Money | undefined): string | undefined => m?.data().toString();

  it('leaves defaulted fields out unless asked, then fills them into every returned entity', async () => {
    const p = api().prices;
    expect(raw((await p.get(5)).entity)).toBe('{"amount":"5"}');
    expect(raw((await p.get(5, { fillInDefaults: true })).entity)).toBe(
      '{"amount":"5","currencyCode":"USD"}',
    );
    const batch = await p.batchGet([1, 2], { fillInDefaults: true });
    expect(raw(batch.results.get(2))).toBe('{"amount":"2","currencyCode":"USD"}');
    const page = await p.finders.all({}, { fillInDefaults: true });
    expect(page.elements.map(raw)).toEqual([
      '{"amount":"1","currencyCode":"USD"}',
      '{"amount":"2","currencyCode":"EUR"}',
    ]);
    const made = await p.create(new Money().setAmount('3'), { fillInDefaults: true });
    expect(raw(made.entity)).toBe('{"amount":"3","currencyCode":"USD"}');
    expect(raw((await p.actions.cheapest({}, { fillInDefaults: true })).value)).toBe(
      '{"amount":"0.01","currencyCode":"USD"}',
    );
    expect(raw((await p.actions.cheapest()).value)).toBe('{"amount":"0.01"}');
  });

  it.each([
    ['$fillInDefaults=true', 200, { amount: '7', currencyCode: 'USD' }],
    ['$fillInDefaults=TRUE', 200, { amount: '7', currencyCode: 'USD' }],
    ['$fillInDefaults=false', 200, { amount: '7' }],
    ['%24fillInDefaults=true', 200, { amount: '7', currencyCode: 'USD' }],
  ])('reads %s from a raw request', async (query, status, body) => {
    const r = await server.request('GET', `/prices/7?${query}`, {
      headers: { 'x-restli-protocol-version': '2.0.0' },
    });
    expect(r.status).toBe(status);
    expect(r.json).toEqual(body);
  });

  it('answers 400 with an ErrorResponse for a value that is not a boolean', async () => {
    const r = await server.request('GET', '/prices/7?$fillInDefaults=maybe', {
      headers: { 'x-restli-protocol-version': '2.0.0' },
    });
    expect(r.status).toBe(400);
    expect(r.headers.get('x-restli-error-response')).toBe('true');
    expect(r.json.message).toBe('Invalid "$fillInDefaults" parameter: maybe');
  });

  it('fills before projecting: a projection can ask for a defaulted field alone', async () => {
    const r = await api().prices.get(5, { fillInDefaults: true, fields: 'currencyCode' });
    expect(raw(r.entity)).toBe('{"currencyCode":"USD"}');
  });
});

describe('client options', () => {
  it('speaks the configured header prefix (the server would refuse an unknown method header otherwise)', async () => {
    const seen: Array<Readonly<Record<string, string>>> = [];
    const c = createResourceClient(
      {
        baseUrl: server.base,
        headerPrefix: 'X-RestLi',
        filters: [
          (req, next) => {
            seen.push(req.headers);
            return next(req);
          },
        ],
      },
      { words },
    );
    const r = await c.words.create(new Locale().setLanguage('h'));
    expect(r.headers['x-restli-id']).toBe('h');
    expect(seen[0]?.['X-RestLi-Protocol-Version']).toBe('2.0.0');
    expect(seen[0]?.['X-RestLi-Method']).toBe('create');
  });

  it('USE_LATEST_IF_AVAILABLE asks the announcement once per resource', async () => {
    const asked: string[] = [];
    const c = createResourceClient(
      {
        baseUrl: server.base,
        headerPrefix: 'X-RestLi',
        protocolVersion: ProtocolVersionOption.USE_LATEST_IF_AVAILABLE,
        announcedProtocolVersion: (name) => {
          asked.push(name);
          return '2.0.0';
        },
      },
      { words },
    );
    await c.words.get('a');
    await c.words.get('b');
    expect(asked).toEqual(['words']);
  });

  it('times out a call that takes too long', async () => {
    const c = createResourceClient(
      { baseUrl: slow.base, timeoutMs: 200 },
      {
        slow: collection({ name: 'slow', key: LONG_KEY, value: Locale, methods: { get: () => undefined } }),
      },
    );
    await expect(c.slow.get(1)).rejects.toBeInstanceOf(RequestTimeoutError);
    await expect(c.slow.get(1, { timeoutMs: 100 })).rejects.toBeInstanceOf(RequestTimeoutError);
  });
});
