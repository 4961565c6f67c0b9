/**
 * A photo collection over the fixture schemas, implementing every collection method, for the wire tests.
 * Handlers record what they were called with in `calls`, so tests can check binding too.
 */
import { Observable, of } from 'rxjs';
import {
  BOOLEAN,
  DOUBLE,
  GetMode,
  INT,
  LONG,
  LONG_KEY,
  STRING,
  ServiceError,
  action,
  arrayOf,
  collection,
  entityAction,
  enumOf,
  finder,
  optional,
  recordOf,
} from '../../../src';
import { EmptyRecord } from '../../generated/fixtures/com/example/common/EmptyRecord';
import { LatLong } from '../../generated/fixtures/com/example/photos/LatLong';
import { Photo } from '../../generated/fixtures/com/example/photos/Photo';
import { PhotoFormat } from '../../generated/fixtures/com/example/photos/PhotoFormat';

export type Id = number | bigint;

/** A valid photo (the fixture's required fields set). */
export function makePhoto(id: Id, title: string, format: PhotoFormat = PhotoFormat.JPEG): Photo {
  return new Photo()
    .setId(id)
    .setTitle(title)
    .setFormat(format)
    .setTime(1_700_000_000_000)
    .setActor('urn:li:member:1')
    .setUrn(`urn:li:photo:${id}`);
}

export interface PhotoService {
  readonly store: Map<string, Photo>;
  readonly calls: Array<{ method: string; args: unknown[] }>;
  readonly resource: ReturnType<typeof photosResource>;
}

function photosResource(store: Map<string, Photo>, calls: Array<{ method: string; args: unknown[] }>) {
  const record = (method: string, ...args: unknown[]): void => {
    calls.push({ method, args });
  };
  let nextId = 100;
  return collection({
    name: 'photos',
    key: LONG_KEY,
    value: Photo,
    methods: {
      get: (id, ctx) => {
        record('get', id, ctx.projection);
        if (id === 500) throw new Error('secret database password is hunter2');
        if (id === 418)
          throw new ServiceError(418, "I'm a teapot", { code: 'TEAPOT', details: new EmptyRecord().data() });
        if (id === 201) return of(store.get('1')!); // an Observable: its first value
        if (id === 202) return Promise.resolve(store.get('2'));
        if (id === 203) return new Observable<Photo>((s) => s.complete()); // empty: a null
        return store.get(String(id));
      },
      batchGet: (ids) => {
        record('batchGet', ids);
        const results = new Map<Id, Photo>();
        const errors = new Map<Id, ServiceError>();
        const statuses = new Map<Id, number>();
        for (const id of ids) {
          if (id === 13) errors.set(id, new ServiceError(403, 'unlucky'));
          const p = store.get(String(id));
          if (p !== undefined) results.set(id, p);
          if (id === 2) statuses.set(id, 200);
        }
        return { results, errors, statuses };
      },
      create: (photo, ctx) => {
        record('create', photo.data().toString(), ctx.query.get('$returnEntity'));
        if (photo.getTitle(GetMode.NULL) === 'null') return null as never;
        const id = photo.hasId() ? photo.getId() : nextId++;
        store.set(String(id), photo.setId(id));
        return { id, entity: photo };
      },
      batchCreate: (photos) => {
        record('batchCreate', photos.length);
        return photos.map((p) => {
          if ((p.getTitle(GetMode.NULL) ?? '') === '') return new ServiceError(400, 'empty title');
          const id = nextId++;
          store.set(String(id), p.setId(id));
          return { id, entity: p };
        });
      },
      update: (id, photo) => {
        record('update', id, photo.getTitle(GetMode.NULL));
        if (!store.has(String(id))) throw new ServiceError(404, `no photo ${id}`);
        store.set(String(id), photo.setId(id));
        return id === 2 ? { status: 200 } : undefined;
      },
      batchUpdate: (entities) => {
        record('batchUpdate', [...entities.keys()]);
        const out = new Map<Id, { status?: number } | ServiceError>();
        for (const [id, p] of entities) {
          if (!store.has(String(id))) out.set(id, new ServiceError(404, `no photo ${id}`));
          else {
            store.set(String(id), p.setId(id));
            out.set(id, {});
          }
        }
        return out;
      },
      partialUpdate: (id, patch) => {
        record('partialUpdate', id, patch.patch.toString());
        const current = store.get(String(id));
        if (current === undefined) throw new ServiceError(404, `no photo ${id}`);
        const patched = patch.applyTo(current);
        store.set(String(id), patched);
        return id === 3 ? undefined : { entity: patched };
      },
      batchPartialUpdate: (patches) => {
        record('batchPartialUpdate', [...patches.keys()]);
        const results = new Map<Id, { entity: Photo }>();
        const errors = new Map<Id, ServiceError>();
        for (const [id, patch] of patches) {
          const current = store.get(String(id));
          if (current === undefined) errors.set(id, new ServiceError(404, `no photo ${id}`));
          else {
            const patched = patch.applyTo(current);
            store.set(String(id), patched);
            results.set(id, { entity: patched });
          }
        }
        return { results, errors };
      },
      delete: (id) => {
        record('delete', id);
        if (!store.delete(String(id))) throw new ServiceError(404, `no photo ${id}`);
      },
      batchDelete: (ids) => {
        record('batchDelete', ids);
        return new Map(
          ids.map(
            (id) => [id, store.delete(String(id)) ? {} : new ServiceError(404, `no photo ${id}`)] as const,
          ),
        );
      },
      getAll: (ctx) => {
        record('getAll', ctx.paging);
        return [...store.values()].sort((a, b) => Number(a.getId()) - Number(b.getId()));
      },
      finders: {
        search: finder(
          {
            params: {
              title: optional(STRING),
              format: optional(enumOf(PhotoFormat)),
              minId: optional(LONG, 0),
              limit: optional(INT, 100),
              ratio: optional(DOUBLE, 1.5),
              exact: optional(BOOLEAN, false),
              tags: optional(arrayOf(STRING)),
              formats: optional(arrayOf(enumOf(PhotoFormat))),
              near: optional(recordOf(LatLong)),
            },
          },
          (params, ctx) => {
            record('search', params, ctx.paging);
            return [...store.values()]
              .filter((p) => params.title === undefined || p.getTitle().includes(params.title))
              .filter((p) => params.format === undefined || p.getFormat() === params.format)
              .filter((p) => Number(p.getId()) >= Number(params.minId))
              .sort((a, b) => Number(a.getId()) - Number(b.getId()));
          },
        ),
        // pages itself and reports a total and metadata
        paged: finder(
          { params: { total: INT }, paging: { count: 2 }, metadata: LatLong },
          ({ total }, ctx) => {
            record('paged', ctx.paging);
            const elements: Photo[] = [];
            for (let i = ctx.paging.start; i < Math.min(total, ctx.paging.start + ctx.paging.count); i++) {
              elements.push(
                store
                  .get('1')!
                  .copy()
                  .setId(1000 + i),
              );
            }
            return { elements, total, metadata: new LatLong().setLatitude(1).setLongitude(2) };
          },
        ),
        required: finder({ params: { n: INT } }, () => []),
        nothing: finder({}, () => null as never),
      },
      actions: {
        ping: action({}, () => {
          record('ping');
        }),
        count: action({ returns: INT }, () => store.size),
        echo: action(
          {
            params: {
              text: STRING,
              times: optional(INT, 1),
              big: optional(LONG, 0),
              where: optional(recordOf(LatLong)),
            },
            returns: STRING,
          },
          ({ text, times, big, where }) => {
            record('echo', text, times, big, where?.data().toString());
            return Promise.resolve(text.repeat(times));
          },
        ),
        newest: action({ returns: recordOf(Photo) }, () => of(store.get('2')!)),
        ids: action({ returns: arrayOf(LONG) }, () => [...store.values()].map((p) => p.getId())),
        wrong: action({ returns: INT }, () => 'not a number' as never),
        nothing: action({ returns: INT }, () => undefined as never),
      },
      entityActions: {
        rename: entityAction(
          { key: LONG_KEY, params: { title: STRING }, returns: recordOf(Photo) },
          (id, { title }) => {
            const p = store.get(String(id));
            if (p === undefined) throw new ServiceError(404, `no photo ${id}`);
            return p.setTitle(title);
          },
        ),
      },
    },
  });
}

/** A fresh store with photos 1..3 and the resource over it. */
export function photoService(): PhotoService {
  const store = new Map<string, Photo>([
    ['1', makePhoto(1, 'Sunrise')],
    ['2', makePhoto(2, 'Harbour', PhotoFormat.PNG)],
    ['3', makePhoto(3, 'Dunes')],
  ]);
  const calls: Array<{ method: string; args: unknown[] }> = [];
  return { store, calls, resource: photosResource(store, calls) };
}
