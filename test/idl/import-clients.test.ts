/**
 * Interfaces imported from IDL files (`svc generate --idl`; `npm run generate` writes them into
 * test/generated/idl-*), used as a user uses them: served with `implement` and called with
 * `createResourceClient` over real HTTP on loopback. The hand-written restspecs of
 * test/idl/fixtures/import/ cover every resource kind (collection with finders, a batch finder, actions,
 * an alternative key and a subresource; complex keys with and without params; an association with
 * association-key finders; a simple resource with a subresource; an actions set); Rest.li's own snapshots
 * and the example's export are imported too. This file is type-checked under the repository's strict
 * settings, so every call below is checked against the generated types.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fastify, { type FastifyInstance } from 'fastify';
import {
  ByteString,
  type DataMap,
  STRING,
  createResourceClient,
  exportResource,
  implement,
  type ResourceSchema,
  simple,
  action,
  svcPlugin,
} from '../../src';
import { compareSnapshots } from '../../src/idl/compat';
import { createExampleApp } from '../../examples/app';
import { adminInterface } from '../generated/idl-shop/com/example/shop/admin.interface';
import { productReviewsInterface } from '../generated/idl-shop/com/example/shop/productReviews.interface';
import {
  productsInterface,
  productsReviewsInterface,
} from '../generated/idl-shop/com/example/shop/products.interface';
import {
  settingsInterface,
  settingsProfilesInterface,
} from '../generated/idl-shop/com/example/shop/settings.interface';
import { storesInterface } from '../generated/idl-shop/com/example/shop/stores.interface';
import { warehousesInterface } from '../generated/idl-shop/com/example/shop/warehouses.interface';
import { Money } from '../generated/idl-shop/com/example/shop/Money';
import { PageInfo } from '../generated/idl-shop/com/example/shop/PageInfo';
import { Product } from '../generated/idl-shop/com/example/shop/Product';
import { ProductCriteria } from '../generated/idl-shop/com/example/shop/ProductCriteria';
import { ProductKind } from '../generated/idl-shop/com/example/shop/ProductKind';
import { Profile } from '../generated/idl-shop/com/example/shop/Profile';
import { Reaction } from '../generated/idl-shop/com/example/shop/Reaction';
import { Review } from '../generated/idl-shop/com/example/shop/Review';
import { Settings } from '../generated/idl-shop/com/example/shop/Settings';
import { Store } from '../generated/idl-shop/com/example/shop/Store';
import { StoreKey } from '../generated/idl-shop/com/example/shop/StoreKey';
import { StoreKeyParams } from '../generated/idl-shop/com/example/shop/StoreKeyParams';
import { photosInterface } from '../generated/idl-example/com/example/photos/photos.interface';
import { albumEntriesInterface } from '../generated/idl-example/com/example/photos/albumEntries.interface';
import { PhotoCriteria } from '../generated/idl-example/com/example/photos/PhotoCriteria';
import { PhotoFormat } from '../generated/idl-example/com/example/photos/PhotoFormat';
import { actionsInterface } from '../generated/idl-restli/com/linkedin/restli/examples/greetings/client/actions.interface';
import { complexKeysInterface } from '../generated/idl-restli/com/linkedin/restli/examples/greetings/client/complexKeys.interface';
import { photosInterface as restliPhotosInterface } from '../generated/idl-restli/com/linkedin/restli/example/photos/photos.interface';
import { albumEntryInterface } from '../generated/idl-restli/com/linkedin/restli/example/photos/albumEntry.interface';

function baseUrlOf(app: FastifyInstance): string {
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

/** The imported interfaces, by the name of the restspec each came from (and the client property). */
const SHOP_INTERFACES = {
  products: productsInterface,
  stores: storesInterface,
  warehouses: warehousesInterface,
  productReviews: productReviewsInterface,
  settings: settingsInterface,
  admin: adminInterface,
} as const;

const product = (name: string, kind: ProductKind, cents: number): Product =>
  new Product().setName(name).setKind(kind).setPrice(new Money().setCents(cents));

describe('hand-written Rest.li IDL, imported, served and called', () => {
  let app: FastifyInstance;
  const products = new Map<number, Product>([
    [1, product('Dune', ProductKind.BOOK, 1200)],
    [2, product('Yo-yo', ProductKind.TOY, 300)],
  ]);
  /** What each handler received, for the assertions on what the client sent. */
  const seen: Record<string, unknown> = {};

  beforeAll(async () => {
    const reviews = implement(productsReviewsInterface, {
      get: (id, ctx) =>
        new Review().setText(`${id} of ${String(ctx.pathKeys.get('productsId'))}`).setStars(4),
      create: () => ({ id: 'r1' }),
      getAll: () => [],
      finders: { byStars: ({ stars }) => [new Review().setText('x').setStars(stars)] },
    });
    const productsImpl = implement(productsInterface, {
      get: (id) => products.get(Number(id)),
      batchGet: (ids) =>
        new Map(ids.flatMap((id) => (products.has(Number(id)) ? [[id, products.get(Number(id))!]] : []))),
      create: (p) => {
        products.set(products.size + 1, p);
        return { id: products.size };
      },
      partialUpdate: () => undefined,
      batchPartialUpdate: (patches) => new Map([...patches.keys()].map((k) => [k, { status: 204 }] as const)),
      delete: () => undefined,
      getAll: ({ sort }) => {
        seen.sort = sort;
        return { elements: [...products.values()], metadata: new PageInfo().setNote(`by ${sort}`) };
      },
      finders: {
        byKind: (params) => {
          seen.byKind = params;
          return {
            elements: [...products.values()].filter((p) => p.getKind() === params.kind),
            metadata: new PageInfo().setNote('kind'),
          };
        },
        bySku: ({ sku }) => [product(sku, ProductKind.FOOD, 1)],
      },
      batchFinders: {
        search: {
          perCriterion: (c) => [...products.values()].filter((p) => p.getKind() === c.getKind()),
        },
      },
      actions: {
        restock: (params) => {
          seen.restock = params;
          return params.count + 10;
        },
        clear: () => undefined,
      },
      entityActions: {
        rate: (id, { stars }) => new Review().setText(`product ${String(id)}`).setStars(stars),
      },
      alternativeKeys: {
        sku: { toKey: (sku) => Number(sku.slice(4)), fromKey: (id) => `SKU-${String(id)}` },
      },
      subresources: [reviews],
    });
    const stores = implement(storesInterface, {
      get: (key) =>
        new Store().setName(
          `${key.key.getRegion()}-${key.key.getNumber()} v${String(key.params?.getVersion())}`,
        ),
      batchGet: () => new Map(),
      update: () => undefined,
    });
    const warehouses = implement(warehousesInterface, {
      get: (key) => new Store().setName(`warehouse ${key.key.getRegion()}`),
    });
    const productReviews = implement(productReviewsInterface, {
      get: (key) => new Review().setText(`${String(key.productId)} by ${key.reviewer}`).setStars(5),
      batchGet: () => new Map(),
      update: () => undefined,
      delete: () => undefined,
      getAll: () => [],
      finders: {
        byProduct: ({ productId, minStars }) => [
          new Review().setText(`of ${String(productId)}`).setStars(minStars ?? 0),
        ],
        byReviewer: ({ reviewer }) => [new Review().setText(`by ${reviewer}`).setStars(1)],
      },
      batchFinders: { byStars: { perCriterion: (c) => [c] } },
      entityActions: { flag: () => true },
    });
    const profiles = implement(settingsProfilesInterface, {
      get: (id) => new Profile().setDisplayName(`profile ${id}`),
      create: () => ({ id: 7 }),
    });
    let settings = new Settings().setTheme('dark');
    const settingsImpl = implement(settingsInterface, {
      get: () => settings,
      update: (s) => {
        settings = s;
      },
      partialUpdate: () => undefined,
      delete: () => undefined,
      actions: { reset: ({ theme }) => (settings = new Settings().setTheme(theme)) },
      subresources: [profiles],
    });
    // an actions set is served by a simple resource with only actions (the same URLs)
    const admin = simple({
      name: 'admin',
      value: Settings,
      methods: {
        actions: {
          ping: action({ returns: STRING }, () => 'pong'),
          prices: action({ params: adminInterface.methods.actions.prices.params }, () => undefined),
          reindex: action({}, () => undefined),
        },
      },
    });
    app = fastify();
    await app.register(svcPlugin, {
      resources: [productsImpl, stores, warehouses, productReviews, settingsImpl, admin],
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  const api = () => createResourceClient({ baseUrl: baseUrlOf(app) }, SHOP_INTERFACES);

  it('calls a collection: get, batch get, create, get_all with metadata, the alternative key', async () => {
    const c = api();
    expect((await c.products.get(1)).entity.getName()).toBe('Dune');
    expect([...(await c.products.batchGet([1, 2, 3])).results.keys()].sort()).toEqual([1, 2]);
    expect((await c.products.create(product('Tea', ProductKind.FOOD, 500))).status).toBe(201);
    const all = await c.products.getAll({});
    expect(all.metadata?.getNote()).toBe('by name');
    expect(seen.sort).toBe('name');
    expect((await c.products.alt('sku').get('SKU-2')).entity.getName()).toBe('Yo-yo');
  });

  it('sends finder parameters with the defaults the IDL declares', async () => {
    const c = api();
    const toys = await c.products.finders.byKind({
      kind: ProductKind.TOY,
      tags: ['a', 'b'],
      attributes: { colour: 'red' },
    });
    expect(toys.elements.map((p) => p.getName())).toEqual(['Yo-yo']);
    expect(toys.metadata?.getNote()).toBe('kind');
    expect(seen.byKind).toMatchObject({
      kind: 'TOY',
      maxCents: 10000,
      tags: ['a', 'b'],
      attributes: { colour: 'red' },
      preferredKind: 'BOOK',
      huge: 9007199254740993n,
    });
    expect((await c.products.finders.bySku({ sku: 'S1' })).elements[0]?.getName()).toBe('S1');
  });

  it('calls the batch finder, actions with fixed, union and map parameters, and entity actions', async () => {
    const c = api();
    const found = await c.products.batchFinders.search([new ProductCriteria().setKind(ProductKind.BOOK)]);
    expect(found.results[0]?.elements.map((p) => p.getName())).toEqual(['Dune']);
    const restocked = await c.products.actions.restock({
      count: 5,
      checksum: ByteString.copy(new Uint8Array([1, 2, 3, 4])),
      reaction: Reaction.createWithStars(5).data(),
      counts: { a: 1 },
    });
    expect(restocked.value).toBe(15);
    const sent = seen.restock as { checksum: ByteString; reaction: DataMap; counts: unknown };
    expect([...sent.checksum.copyBytes()]).toEqual([1, 2, 3, 4]);
    expect(sent.reaction.get('stars')).toBe(5);
    expect(sent.counts).toEqual({ a: 1 });
    const rated = await c.products.entityActions.rate(2, { stars: 3 });
    expect(rated.value.getStars()).toBe(3);
    expect((await c.products.actions.clear({})).status).toBe(200);
  });

  it('reaches the subresource under an entity', async () => {
    const c = api();
    const review = await c.products.sub(2, productsReviewsInterface).get('r9');
    expect(review.entity.getText()).toBe('r9 of 2');
  });

  it('addresses complex keys with and without params', async () => {
    const c = api();
    const key = {
      key: new StoreKey().setRegion('eu').setNumber(3),
      params: new StoreKeyParams().setVersion(2),
    };
    expect((await c.stores.get(key)).entity.getName()).toBe('eu-3 v2');
    const wh = await c.warehouses.get({
      key: new StoreKey().setRegion('us').setNumber(1),
      params: undefined,
    });
    expect(wh.entity.getName()).toBe('warehouse us');
  });

  it('calls an association by compound key and its association-key finders', async () => {
    const c = api();
    expect((await c.productReviews.get({ productId: 1, reviewer: 'ann' })).entity.getText()).toBe('1 by ann');
    const byProduct = await c.productReviews.finders.byProduct({ productId: 2, minStars: 3 });
    expect(byProduct.elements[0]?.getText()).toBe('of 2');
    const byReviewer = await c.productReviews.finders.byReviewer({ reviewer: 'bob' });
    expect(byReviewer.elements[0]?.getText()).toBe('by bob');
    expect((await c.productReviews.entityActions.flag({ productId: 1, reviewer: 'ann' }, {})).value).toBe(
      true,
    );
  });

  it('calls a simple resource, its actions and its subresource', async () => {
    const c = api();
    expect((await c.settings.get()).entity.getTheme()).toBe('dark');
    const reset = await c.settings.actions.reset({});
    expect(reset.value.getTheme()).toBe("it's light");
    expect((await c.settings.sub(settingsProfilesInterface).get(3)).entity.getDisplayName()).toBe(
      'profile 3',
    );
  });

  it('re-exports every imported interface as the IDL it came from, with no breaking change', () => {
    const dir = path.join(__dirname, 'fixtures/import');
    const breaking: string[] = [];
    for (const [name, iface] of Object.entries(SHOP_INTERFACES)) {
      const file = path.join(dir, 'idl', `com.example.shop.${name}.restspec.json`);
      const original = JSON.parse(fs.readFileSync(file, 'utf8')) as ResourceSchema;
      const { changes } = compareSnapshots(
        { schema: original },
        { schema: exportResource(iface).schema },
        { resolverPath: [path.join(dir, 'pegasus')] },
      );
      for (const c of changes) if (c.class === 'breaking') breaking.push(`${c.path}: ${c.message}`);
    }
    // the one difference: Rest.li names a Java class converting alternative keys, Svc the resource's own
    expect(breaking).toEqual([
      '/products/collection/alternativeKeys/sku/keyCoercer: Current value "svc:products.sku" does not match the previous value "com.example.shop.server.SkuCoercer"',
    ]);
  });

  it('exports an imported interface back to the IDL it came from', () => {
    const again = exportResource(adminInterface).schema;
    expect(again).toMatchObject({ name: 'admin', namespace: 'com.example.shop', path: '/admin' });
    expect(again.actionsSet?.actions.map((a) => [a.name, a.returns])).toEqual([
      ['ping', 'string'],
      ['prices', '{ "type" : "map", "values" : "com.example.shop.Money" }'],
      ['reindex', undefined],
    ]);
    const settings = exportResource(settingsInterface).schema;
    expect(settings.simple?.supports).toEqual(['delete', 'get', 'partial_update', 'update']);
    expect(settings.simple?.entity.subresources?.map((r) => r.path)).toEqual(['/settings/profiles']);
  });

  it('calls an actions set', async () => {
    const c = api();
    expect((await c.admin.actions.ping({})).value).toBe('pong');
    expect((await c.admin.actions.reindex({})).status).toBe(200);
  });
});

describe("Rest.li's own snapshots, imported", () => {
  it('give clients for an actions set, complex keys with a subresource, a collection and an association', () => {
    const c = createResourceClient(
      { baseUrl: 'http://127.0.0.1:1' },
      {
        actions: actionsInterface,
        complexKeys: complexKeysInterface,
        photos: restliPhotosInterface,
        albumEntry: albumEntryInterface,
      },
    );
    expect(typeof c.actions.actions.echo).toBe('function');
    expect(typeof c.complexKeys.get).toBe('function');
    expect(typeof c.photos.batchFinders.searchPhotos).toBe('function');
    expect(typeof c.albumEntry.finders.search).toBe('function');
  });

  it('call a service that speaks their protocol', async () => {
    const app = fastify();
    await app.register(svcPlugin, {
      resources: [
        simple({
          name: 'actions',
          value: Settings,
          methods: {
            actions: {
              echo: action(
                { params: actionsInterface.methods.actions.echo.params, returns: STRING },
                ({ input }) => `echo ${input}`,
              ),
            },
          },
        }),
      ],
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const c = createResourceClient({ baseUrl: baseUrlOf(app) }, { actions: actionsInterface });
      expect((await c.actions.actions.echo({ input: 'hi' })).value).toBe('echo hi');
    } finally {
      await app.close();
    }
  });
});

describe('the example service, through the client generated from its exported IDL', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createExampleApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('gets, finds, batch-finds, calls actions and association finders', async () => {
    const c = createResourceClient(
      { baseUrl: baseUrlOf(app) },
      { photos: photosInterface, albumEntries: albumEntriesInterface },
    );
    expect((await c.photos.get(1)).entity.getTitle()).toBe('Sunrise over the bay');
    const jpegs = await c.photos.finders.titleAndOrFormat({ format: PhotoFormat.JPEG });
    expect(jpegs.elements.every((p) => p.getFormat() === PhotoFormat.JPEG)).toBe(true);
    const found = await c.photos.batchFinders.searchPhotos([
      new PhotoCriteria().setTitle('Sunrise over the bay').setFormat(PhotoFormat.JPEG),
    ]);
    expect(found.results[0]?.elements.map((p) => p.getId())).toEqual([1]);
    expect((await c.photos.entityActions.addTag(1, { tag: 'x' })).value).toBeGreaterThan(0);
    expect((await c.photos.actions.purge({})).value.getPhotosRemoved()).toBe(0);
    expect((await c.albumEntries.finders.byAlbum({ albumId: 1 })).elements.length).toBeGreaterThan(0);
  });
});
