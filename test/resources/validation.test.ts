/**
 * The validation filter over HTTP: on by default (bodies, patched results, parameters and keys; outputs in
 * development mode), off per server or per resource; bodies fail with 422 and the validation messages,
 * parameters and keys with 400 (wire facts §9.3).
 */
import {
  INT,
  LONG_KEY,
  collection,
  complexKey,
  finder,
  optional,
  recordOf,
  validationFilter,
  type ResourceDefinition,
} from '../../src';
import { Locale } from '../generated/fixtures/com/example/common/Locale';
import { Money } from '../generated/fixtures/com/example/common/Money';
import { LatLong } from '../generated/fixtures/com/example/photos/LatLong';
import { photoService } from './support/photos';
import { startServer, type TestServer } from './support/http';

function places(validation = false) {
  let next = 1;
  return collection({
    name: validation ? 'checkedPlaces' : 'places',
    key: LONG_KEY,
    value: LatLong,
    // true asks for the filter on a server without it; otherwise the server's choice
    ...(validation ? { validation: true } : {}),
    methods: {
      create: () => ({ id: next++ }),
      batchCreate: (all) => all.map(() => ({ id: next++ })),
      batchUpdate: (map) => new Map([...map.keys()].map((k) => [k, {}] as const)),
      update: () => undefined,
      finders: {
        near: finder({ params: { point: recordOf(LatLong), radius: optional(recordOf(Money)) } }, () => []),
      },
    },
  });
}

function locales() {
  return collection({
    name: 'locales',
    key: complexKey(Locale, Money),
    value: Locale,
    methods: { get: (k) => k.key },
  });
}

async function withServer(
  resources: readonly ResourceDefinition[],
  validation: boolean,
  run: (s: TestServer) => Promise<void>,
): Promise<void> {
  const s = await startServer({ resources, validation });
  try {
    await run(s);
  } finally {
    await s.close();
  }
}

describe('without the validation filter', () => {
  it('hands invalid bodies, parameters and keys to the handler as they are', async () => {
    await withServer([places(), locales()], false, async (s) => {
      expect((await s.request('POST', '/places', { json: { latitude: 'north' } })).status).toBe(201);
      expect((await s.request('GET', '/places?q=near&point=(latitude:1)')).status).toBe(200);
      expect((await s.request('GET', '/locales/(country:FR)')).status).toBe(200);
    });
  });
});

describe('with the validation filter on the server', () => {
  it('answers 422 with the messages for an invalid entity', async () => {
    await withServer([places()], true, async (s) => {
      const r = await s.request('POST', '/places', { json: { latitude: 'north' } });
      expect(r.status).toBe(422);
      expect(r.json.code).toBe('SVC_ERR_BIND_INPUT_VALIDATION');
      expect(r.json.message.split('\n').sort()).toEqual([
        'ERROR :: /latitude :: north cannot be coerced to Float',
        'ERROR :: /longitude :: field is required but not found and has no default value',
      ]);
      expect((await s.request('PUT', '/places/1', { json: { latitude: 1, longitude: 2 } })).status).toBe(204);
    });
  });

  it('prefixes batch_create messages with the index and batch_update messages with the key', async () => {
    await withServer([places()], true, async (s) => {
      const created = await s.request('POST', '/places', {
        json: { elements: [{ latitude: 1, longitude: 2 }, { latitude: 1 }] },
        headers: { 'x-svc-method': 'batch_create' },
      });
      expect(created.status).toBe(422);
      expect(created.json.message).toBe(
        'Index: 1, ERROR :: /longitude :: field is required but not found and has no default value',
      );
      const updated = await s.request('PUT', '/places?ids=List(1,2)', {
        json: { entities: { 1: { latitude: 1, longitude: 2 }, 2: { longitude: 'x', latitude: 0 } } },
      });
      expect(updated.status).toBe(422);
      expect(updated.json.message).toBe('Key: 2, ERROR :: /longitude :: x cannot be coerced to Float');
    });
  });

  it('answers 400 for a record parameter missing a required field', async () => {
    await withServer([places()], true, async (s) => {
      const r = await s.request('GET', '/places?q=near&point=(latitude:1)');
      expect(r.status).toBe(400);
      expect(r.json.message).toBe(
        'Input field validation failure, reason: ERROR :: /point/longitude :: field is required but not found and has no default value',
      );
      expect((await s.request('GET', '/places?q=near&point=(latitude:1,longitude:2)')).status).toBe(200);
    });
  });

  it.each([
    ['as the binder made them: checked as they were read', false, 200],
    ['put in their place by a filter: checked again', true, 400],
  ])('validates primitive parameters %s', async (_what, swap, status) => {
    const counted = collection({
      name: 'counted',
      key: LONG_KEY,
      value: LatLong,
      // a filter before the validation filter may replace what the binder made
      filters: swap
        ? [
            {
              name: 'swap',
              invocation: (inv) => ({ ...inv, input: { ...inv.input, params: { n: 2 ** 40 } } }),
            },
          ]
        : [],
      methods: { finders: { upTo: finder({ params: { n: INT } }, () => []) } },
    });
    await withServer([counted], true, async (s) => {
      const r = await s.request('GET', '/counted?q=upTo&n=3');
      expect(r.status).toBe(status);
      if (status === 400)
        expect(r.json.message).toMatch(/^Input field validation failure, reason: ERROR :: \/n :: /);
      // a value the binder cannot read is refused by the binder, with or without the filter
      expect((await s.request('GET', '/counted?q=upTo&n=1099511627776')).status).toBe(400);
    });
  });

  it('answers 400 for a complex key missing a required field', async () => {
    await withServer([locales()], true, async (s) => {
      const r = await s.request('GET', '/locales/($params:(currencyCode:EUR),country:FR)');
      expect(r.status).toBe(400);
      expect(r.json.message).toBe(
        'Input field validation failure, reason: ERROR :: /language :: field is required but not found and has no default value\n' +
          'ERROR :: /$params/amount :: field is required but not found and has no default value',
      );
    });
  });

  it('validates patches: set values, nested patches and deletes of required fields', async () => {
    await withServer([photoService().resource], true, async (s) => {
      const r = await s.request('POST', '/photos/1', {
        json: { patch: { $set: { title: 5 }, $delete: ['urn', 'caption'], exif: { $set: { iso: 'high' } } } },
      });
      expect(r.status).toBe(422);
      expect(r.json.message).toBe(
        'ERROR :: /title :: 5 cannot be coerced to String\n' +
          'ERROR :: /urn :: cannot delete a required field\n' +
          'ERROR :: /exif/iso :: high cannot be coerced to Integer',
      );
      const ok = await s.request('POST', '/photos/1', {
        json: { patch: { $set: { title: 'fine' }, exif: { $set: { iso: 100 } } } },
      });
      expect(ok.status).toBe(200);
      const batch = await s.request('POST', '/photos?ids=List(1,2)', {
        json: { entities: { 1: { patch: {} }, 2: { patch: { $set: { format: 'TIFF' } } } } },
      });
      expect(batch.status).toBe(422);
      expect(batch.json.message).toBe('Key: 2, ERROR :: /format :: "TIFF" is not an enum symbol');
    });
  });
});

describe('with the validation filter on one resource', () => {
  it('validates that resource only', async () => {
    await withServer([places(), places(true)], false, async (s) => {
      expect((await s.request('POST', '/places', { json: {} })).status).toBe(201);
      expect((await s.request('POST', '/checkedPlaces', { json: {} })).status).toBe(422);
    });
  });

  it('can be given as a filter with options', async () => {
    const s = await startServer({ resources: [places()], filters: [validationFilter({ params: false })] });
    try {
      expect((await s.request('GET', '/places?q=near&point=(latitude:1)')).status).toBe(200);
      expect((await s.request('POST', '/places', { json: {} })).status).toBe(422);
    } finally {
      await s.close();
    }
  });
});

describe('validation by default', () => {
  it('is on when the server says nothing: an invalid body is a 422 and nothing is stored', async () => {
    const s = await startServer({ resources: [places()] });
    try {
      const r = await s.request('POST', '/places', { json: { latitude: 'north' } });
      expect(r.status).toBe(422);
      expect(r.json.message).toMatch(/\/longitude :: field is required/);
    } finally {
      await s.close();
    }
  });

  it('is off for a resource that says validation: false', async () => {
    const unchecked = collection({
      name: 'unchecked',
      key: LONG_KEY,
      value: LatLong,
      validation: false,
      methods: { create: () => ({ id: 1 }) },
    });
    const s = await startServer({ resources: [unchecked, places()] });
    try {
      expect((await s.request('POST', '/unchecked', { json: {} })).status).toBe(201);
      expect((await s.request('POST', '/places', { json: {} })).status).toBe(422);
    } finally {
      await s.close();
    }
  });

  it('refuses a resource whose validation choice is not a boolean', () => {
    const bad = { ...places(), validation: 'yes' } as unknown as ResourceDefinition;
    return expect(startServer({ resources: [bad] })).rejects.toThrow("'validation' must be true or false");
  });

  it('validates the patched result: a nested patch that leaves a required field absent is a 422', async () => {
    await withServer([photoService().resource], true, async (s) => {
      const r = await s.request('POST', '/photos/1', {
        json: { patch: { location: { $set: { latitude: 1 } } } },
      });
      expect(r.status).toBe(422);
      expect(r.json.message).toBe(
        'ERROR :: /location/longitude :: field is required but not found and has no default value',
      );
      // nothing was stored: the photo reads back whole
      const after = await s.request('GET', '/photos/1');
      expect(after.status).toBe(200);
      expect(after.json.location).toBeUndefined();
      const ok = await s.request('POST', '/photos/1', {
        json: { patch: { location: { $set: { latitude: 1, longitude: 2 } } } },
      });
      expect(ok.status).toBe(200);
    });
  });
});

describe('output validation', () => {
  function broken() {
    return collection({
      name: 'broken',
      key: LONG_KEY,
      value: LatLong,
      methods: {
        get: (id) => (id === 1 ? new LatLong().setLatitude(1) : new LatLong().setLatitude(1).setLongitude(2)),
        getAll: () => [new LatLong().setLatitude(1).setLongitude(2), new LatLong().setLongitude(3)],
      },
    });
  }

  it('is on in development mode: an entity a handler returns without a required field is a 500 naming the path', async () => {
    const s = await startServer({ resources: [broken()], mode: 'development' });
    try {
      const r = await s.request('GET', '/broken/1');
      expect(r.status).toBe(500);
      expect(r.json.message).toBe(
        'Invalid output of broken get: ERROR :: /longitude :: field is required but not found and has no default value',
      );
      const all = await s.request('GET', '/broken');
      expect(all.status).toBe(500);
      expect(all.json.message).toMatch(/^Invalid output of broken get_all: Index: 1, ERROR :: \/latitude ::/);
      expect((await s.request('GET', '/broken/2')).status).toBe(200);
      // a projection may leave required fields out
      expect((await s.request('GET', '/broken/1?fields=latitude')).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('is off in production mode unless asked for, and then hides the message', async () => {
    const plain = await startServer({ resources: [broken()] });
    try {
      expect((await plain.request('GET', '/broken/1')).status).toBe(200);
    } finally {
      await plain.close();
    }
    const asked = await startServer({ resources: [broken()], validation: { outputs: true } });
    try {
      const r = await asked.request('GET', '/broken/1');
      expect(r.status).toBe(500);
      expect(r.json.message).toBe('INTERNAL SERVER ERROR');
    } finally {
      await asked.close();
    }
  });

  it('refuses validation options of the wrong type', () => {
    return expect(
      startServer({ resources: [places()], validation: { outputs: 'yes' } as unknown as boolean }),
    ).rejects.toThrow("validation option 'outputs' must be a boolean");
  });
});
