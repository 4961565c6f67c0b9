import {
  CompoundKey,
  type DataMap,
  type DataValue,
  type ErrorResponse,
  type KeyMap,
  type ResponseFor,
  type SvcClient,
} from '../../src';
import { Primitives } from '../generated/binding/com/example/binding';

/**
 * Compile-time checks of {@link ResponseFor}: what `send` resolves to follows the description's method,
 * template and key types. `tsc --noEmit` runs over this file; the test body only keeps jest content.
 */

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T | undefined => undefined;

type Photo = typeof Primitives;

check<Equal<ResponseFor<{ method: 'get'; resource: 'p'; key: 1 }>['entity'], DataMap>>();
check<Equal<ResponseFor<{ method: 'get'; resource: 'p'; template: Photo }>['entity'], Primitives>>();
check<
  Equal<
    ResponseFor<{ method: 'batch_get'; resource: 'p'; ids: number[]; template: Photo }>['results'],
    KeyMap<number, Primitives>
  >
>();
check<
  Equal<
    ResponseFor<{ method: 'batch_get'; resource: 'p'; ids: CompoundKey[] }>['errors'],
    KeyMap<CompoundKey, ErrorResponse>
  >
>();
check<
  Equal<
    ResponseFor<{
      method: 'batch_update';
      resource: 'p';
      entities: Map<string, DataMap>;
    }>['results'] extends KeyMap<string, unknown>
      ? true
      : false,
    true
  >
>();
check<
  Equal<
    ResponseFor<{ method: 'finder'; resource: 'p'; name: 'n'; template: Photo }>['elements'],
    readonly Primitives[]
  >
>();
check<Equal<ResponseFor<{ method: 'finder'; resource: 'p'; name: 'n' }>['metadata'], DataMap | undefined>>();
check<Equal<ResponseFor<{ method: 'action'; resource: 'p'; name: 'n' }>['value'], DataValue | undefined>>();
check<
  Equal<
    ResponseFor<{ method: 'action'; resource: 'p'; name: 'n'; template: Photo }>['value'],
    Primitives | undefined
  >
>();
check<
  Equal<
    ResponseFor<{ method: 'create'; resource: 'p'; body: DataMap; template: Photo }>['entity'],
    Primitives | undefined
  >
>();

/** Never called: what `send` infers from literal descriptions. */
async function _inferred(client: SvcClient): Promise<void> {
  const _get = await client.send({ method: 'get', resource: 'photos', key: 1, template: Primitives });
  check<Equal<typeof _get.entity, Primitives>>();
  const _batch = await client.send({
    method: 'batch_get',
    resource: 'photos',
    ids: [1, 2],
    template: Primitives,
  });
  check<Equal<typeof _batch.results, KeyMap<number, Primitives>>>();
  const _assoc = await client.send({
    method: 'batch_delete',
    resource: 'follows',
    ids: [new CompoundKey({ a: 1 })],
  });
  check<Equal<typeof _assoc.errors, KeyMap<CompoundKey, ErrorResponse>>>();
  const _found = await client.send({
    method: 'finder',
    resource: 'photos',
    name: 'byTitle',
    params: { title: 'x' },
  });
  check<Equal<typeof _found.elements, readonly DataMap[]>>();
  const _action = await client.send({ method: 'action', resource: 'photos', name: 'count' });
  check<Equal<typeof _action.value, DataValue | undefined>>();
  const _created = await client.send({ method: 'create', resource: 'photos', body: new Primitives() });
  check<Equal<typeof _created.entity, DataMap | undefined>>();
}

describe('response types', () => {
  it('are checked by the compiler', () => {
    expect(typeof _inferred).toBe('function');
  });
});
