/**
 * Registration-time checks of resource definitions and plugin options: every problem is a typed error
 * naming the resource, the method and the parameter, raised when the plugin loads (never per request).
 */
import fastify from 'fastify';
import {
  INT,
  LONG,
  LONG_KEY,
  STRING,
  STRING_KEY,
  action,
  arrayOf,
  assocKey,
  association,
  collection,
  entityAction,
  enumOf,
  finder,
  isSvcError,
  optional,
  registerResources,
  resolveSvcOptions,
  simple,
  svcPlugin,
  type ResourceDefinition,
  type SvcPluginOptions,
} from '../../src';
import { Album } from '../generated/fixtures/com/example/photos/Album';
import { AlbumEntry } from '../generated/fixtures/com/example/photos/AlbumEntry';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';

function registrationError(defs: readonly unknown[]): { name: string; code: string; message: string } {
  try {
    registerResources(defs);
  } catch (err) {
    if (!isSvcError(err)) throw err;
    return { name: err.name, code: err.code, message: err.message };
  }
  throw new Error('registration did not fail');
}

const photos = (methods: object, extra: object = {}): unknown => ({
  ...collection({ name: 'photos', key: LONG_KEY, value: Photo, methods: {} }),
  ...extra,
  methods,
});

describe('resource definitions', () => {
  it('accepts a full definition of each kind', () => {
    const models = registerResources([
      collection({
        name: 'photos',
        key: LONG_KEY,
        value: Photo,
        methods: {
          get: () => undefined,
          finders: { byTitle: finder({ params: { title: STRING, n: optional(INT, 1) } }, () => []) },
          actions: { purge: action({ returns: INT }, () => 0) },
          entityActions: { tag: entityAction({ key: LONG_KEY }, () => undefined) },
        },
        subresources: [simple({ name: 'settings', value: Album, methods: { get: () => undefined } })],
      }),
      association({
        name: 'albumEntries',
        assocKeys: { albumId: LONG, photoId: LONG },
        value: AlbumEntry,
        methods: { finders: { byAlbum: finder({ params: { albumId: assocKey(LONG) } }, () => []) } },
      }),
    ]);
    expect([...models.keys()]).toEqual(['photos', 'albumEntries']);
    const p = models.get('photos')!;
    expect([...p.methods.keys()]).toEqual(['get']);
    expect(
      p.finders.get('byTitle')!.params!.params.map((x) => [x.name, x.type.typeName, x.optional]),
    ).toEqual([
      ['title', 'string', false],
      ['n', 'int', true],
    ]);
    expect(p.subresources.get('settings')!.path).toBe('photos/settings');
    expect(p.valueSchema.getFullName()).toBe('com.example.photos.Photo');
  });

  it.each<[string, unknown[], string]>([
    [
      'a duplicate resource name',
      [photos({}), photos({})],
      "resource 'photos': a resource of this name is already registered",
    ],
    [
      'a bad resource name',
      [{ ...(photos({}) as object), name: 'my photos' }],
      "resource 'my photos': 'name' must be letters, digits, _ and -, starting with a letter or _ (got 'my photos')",
    ],
    [
      'a value that is not a generated class',
      [{ ...(photos({}) as object), value: {} }],
      "resource 'photos': 'value' must be a generated record class (e.g. Photo)",
    ],
    [
      'a key that is not a key type',
      [{ ...(photos({}) as object), key: LONG }],
      "resource 'photos', parameter 'key': 'key' must be a key type (LONG_KEY, STRING_KEY, simpleKey(T), complexKey(K, P))",
    ],
    [
      'a misspelt method',
      [photos({ btachGet: () => new Map() })],
      "resource 'photos', btachGet: unknown method 'btachGet' for a collection resource (known: get, batchGet, create, batchCreate, update, batchUpdate, partialUpdate, batchPartialUpdate, delete, batchDelete, getAll, finders, batchFinders, actions, entityActions)",
    ],
    [
      'a handler that is not a function',
      [photos({ get: 5 })],
      "resource 'photos', get: a method handler must be a function",
    ],
    [
      'the reserved parameter name q',
      [photos({ finders: { byTitle: finder({ params: { q: STRING } }, () => []) } })],
      "resource 'photos', finder 'byTitle', parameter 'q': the name 'q' is reserved for the framework's own query parameter",
    ],
    [
      'the reserved parameter name start',
      [photos({ finders: { byTitle: finder({ params: { start: INT } }, () => []) } })],
      "resource 'photos', finder 'byTitle', parameter 'start': the name 'start' is reserved for the framework's own query parameter",
    ],
    [
      'a parameter that is not a type',
      [photos({ finders: { byTitle: finder({ params: { title: 'string' as never } }, () => []) } })],
      "resource 'photos', finder 'byTitle', parameter 'title': not a parameter type: use STRING, BOOLEAN, INT, LONG, FLOAT, DOUBLE, BYTES, enumOf(E), recordOf(R), arrayOf(T), mapOf(T), dataOf(S), optional(T) or assocKey(T)",
    ],
    [
      'a default of the wrong type',
      [
        photos({
          finders: {
            byTitle: finder(
              { params: { format: optional(enumOf(PhotoFormat), 'TIFF' as PhotoFormat) } },
              () => [],
            ),
          },
        }),
      ],
      "resource 'photos', finder 'byTitle', parameter 'format': the default value is not a valid PhotoFormat: ERROR ::  :: \"TIFF\" is not an enum symbol",
    ],
    [
      'an array of arrays as a query parameter',
      [photos({ finders: { byTitle: finder({ params: { grid: arrayOf(arrayOf(INT)) } }, () => []) } })],
      "resource 'photos', finder 'byTitle', parameter 'grid': an array of arrays (int[][]) cannot be a query parameter",
    ],
    [
      'an assocKey outside an association',
      [photos({ finders: { byAlbum: finder({ params: { albumId: assocKey(LONG) } }, () => []) } })],
      "resource 'photos', finder 'byAlbum', parameter 'albumId': assocKey parameters are allowed only in finders of association resources",
    ],
    [
      'an assocKey naming an unknown part',
      [
        association({
          name: 'entries',
          assocKeys: { albumId: LONG, photoId: LONG },
          value: AlbumEntry,
          methods: { finders: { byX: finder({ params: { x: assocKey(LONG) } }, () => []) } },
        }),
      ],
      "resource 'entries', finder 'byX', parameter 'x': assocKey names the key part 'x', which the association does not declare (it has albumId, photoId)",
    ],
    [
      'an assocKey of another type than its part',
      [
        association({
          name: 'entries',
          assocKeys: { albumId: LONG, photoId: LONG },
          value: AlbumEntry,
          methods: { finders: { byAlbum: finder({ params: { albumId: assocKey(STRING) } }, () => []) } },
        }),
      ],
      "resource 'entries', finder 'byAlbum', parameter 'albumId': assocKey type string differs from the key part's type long",
    ],
    [
      'an association with one key part',
      [
        {
          ...association({
            name: 'entries',
            assocKeys: { albumId: LONG, photoId: LONG },
            value: AlbumEntry,
            methods: {},
          }),
          assocKeys: { a: LONG },
        },
      ],
      "resource 'entries': 'assocKeys' must name at least two key parts (part name → LONG, STRING, enumOf(E), ...)",
    ],
    [
      'a finder declared without finder()',
      [photos({ finders: { byTitle: () => [] } })],
      "resource 'photos', finder 'byTitle': must be declared with finder(...)",
    ],
    [
      'a bad finder name',
      [photos({ finders: { 'by-title': finder({}, () => []) } })],
      "resource 'photos', finder 'by-title': a method name must be letters, digits and _, not starting with a digit",
    ],
    [
      'an entity action with another key type',
      [photos({ entityActions: { tag: entityAction({ key: STRING_KEY }, () => undefined) } })],
      "resource 'photos', entity action 'tag': 'key' is not the resource's key type (long)",
    ],
    [
      'a bad action return type',
      [photos({ actions: { purge: { ...action({}, () => undefined), returns: 'int' } } })],
      "resource 'photos', action 'purge': 'returns' must be a value type (INT, recordOf(R), ...)",
    ],
    [
      'bad paging defaults',
      [photos({ finders: { all: finder({ paging: { count: -1 } }, () => []) } })],
      "resource 'photos', finder 'all': paging count must be a non-negative integer",
    ],
    [
      'a finder on a simple resource',
      [simple({ name: 'settings', value: Album, methods: { finders: {} } as never })],
      "resource 'settings', finders: a simple resource has no finders",
    ],
    [
      'a duplicate subresource',
      [
        photos(
          {},
          {
            subresources: [
              simple({ name: 's', value: Album, methods: {} }),
              simple({ name: 's', value: Album, methods: {} }),
            ],
          },
        ),
      ],
      "resource 'photos/s': a subresource of this name is already registered",
    ],
    [
      'a resource filter with a request stage',
      [photos({}, { filters: [{ name: 'tunnel', request: (r: unknown) => r }] })],
      "resource 'photos', filter 'tunnel': a resource filter cannot have a request stage (it runs before routing); give it to the server",
    ],
  ])('rejects %s', (_what, defs, message) => {
    expect(registrationError(defs)).toEqual({
      name: 'ResourceDefinitionError',
      code: 'SVC_ERR_ROUTE_BAD_DEFINITION',
      message,
    });
  });

  it('fails app.ready() when a resource is bad', async () => {
    const app = fastify();
    await expect(
      app
        .register(svcPlugin, {
          resources: [
            photos({ finders: { f: finder({ params: { q: STRING } }, () => []) } }) as ResourceDefinition,
          ],
        })
        .ready(),
    ).rejects.toMatchObject({
      name: 'ResourceDefinitionError',
      message: expect.stringContaining("parameter 'q'"),
    });
  });
});

describe('plugin options', () => {
  it('fills in every default in one place', () => {
    const o = resolveSvcOptions({ resources: [] });
    expect(o.headers.names.protocolVersion).toBe('X-Svc-Protocol-Version');
    // Rest.li clients' headers are read by default (issue 26)
    expect(o.headers.accepted.map((n) => n.prefix)).toEqual(['X-Svc', 'X-RestLi']);
    expect(
      resolveSvcOptions({ resources: [], acceptLegacyHeaderPrefix: false }).headers.accepted.map(
        (n) => n.prefix,
      ),
    ).toEqual(['X-Svc']);
    expect(o.mode).toBe('production');
    expect(o.maxBodyBytes).toBe(1024 * 1024);
    expect(o.internalErrorMessage).toBe('INTERNAL SERVER ERROR');
    expect(o.codecs.contentTypes()).toEqual(['application/json', 'application/x-pson']);
    expect(o.filters).toEqual([]);
    expect(
      resolveSvcOptions({ resources: [], acceptLegacyHeaderPrefix: true }).headers.accepted.map(
        (n) => n.prefix,
      ),
    ).toEqual(['X-Svc', 'X-RestLi']);
    expect(o.validation).toEqual({ outputs: false });
    expect(resolveSvcOptions({ resources: [], mode: 'development' }).validation).toEqual({ outputs: true });
    expect(resolveSvcOptions({ resources: [], validation: false }).validation).toBe(false);
    expect(
      resolveSvcOptions({ resources: [], mode: 'development', validation: { outputs: false, params: false } })
        .validation,
    ).toEqual({ outputs: false, params: false });
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'an unknown option',
      { resources: [], headerPrefx: 'X' },
      "svcPlugin option 'headerPrefx': unknown option",
    ],
    ['no resources', {}, "svcPlugin option 'resources': must be a list of resource definitions"],
    [
      'a bad mode',
      { resources: [], mode: 'debug' },
      "svcPlugin option 'mode': must be 'production' or 'development'",
    ],
    [
      'a bad body limit',
      { resources: [], maxBodyBytes: 0 },
      "svcPlugin option 'maxBodyBytes': must be a positive integer",
    ],
    [
      'a bad header prefix',
      { resources: [], headerPrefix: 'X Svc' },
      "svcPlugin option 'headerPrefix': headerPrefix must be an HTTP token, got 'X Svc'",
    ],
    [
      'a bad error format',
      { resources: [], errorResponseFormat: 'FULL' },
      "svcPlugin option 'errorResponseFormat': must be an ErrorResponseFormat",
    ],
  ])('rejects %s', (_what, options, message) => {
    expect(() => resolveSvcOptions(options as unknown as SvcPluginOptions)).toThrow(
      expect.objectContaining({ name: 'SvcPluginOptionsError', code: 'SVC_ERR_ROUTE_BAD_OPTIONS', message }),
    );
  });
});
