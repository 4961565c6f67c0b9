import type { Observable } from 'rxjs';
import {
  type BatchFinderBuilder,
  type EntityResponse,
  type PlainBatchFinderBuilder,
  type ResourceClient,
  createResourceClient,
  resourceClient,
  rxForms,
} from '../../src/client/browser';
import { exampleInterfaces, photosInterface } from '../../examples/interfaces';
import type { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';

/**
 * Compile-time checks of `svc-framework/client`'s opt-in Observable forms: a client created without
 * `{ rx: rxForms }` has no `rx` in its type (nor do its children, alternative-key clients and batch-finder
 * builders), one created with it has the package root's. `tsc --noEmit` runs over this file; the test
 * body checks that the runtime agrees (no request is sent: nothing listens on port 1).
 */

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T | undefined => undefined;
type Emits<T> = T extends Observable<infer R> ? R : never;
type Has<T, K extends PropertyKey> = K extends keyof T ? true : false;

const options = { baseUrl: 'http://127.0.0.1:1' };
const plain = createResourceClient(options, exampleInterfaces);
const live = createResourceClient(options, exampleInterfaces, { rx: rxForms });

check<Equal<typeof plain, ResourceClient<typeof exampleInterfaces, false>>>();
check<Equal<typeof live, ResourceClient<typeof exampleInterfaces>>>();
check<Equal<Has<typeof plain.photos, 'rx'>, false>>();
check<Equal<Has<typeof live.photos, 'rx'>, true>>();
check<Equal<Emits<ReturnType<typeof live.photos.rx.get>>, EntityResponse<Photo>>>();
check<
  Equal<
    ReturnType<typeof plain.photos.batchFinders.searchPhotos.builder> extends PlainBatchFinderBuilder<
      unknown,
      unknown,
      unknown
    >
      ? true
      : false,
    true
  >
>();
check<Equal<Has<ReturnType<typeof plain.photos.batchFinders.searchPhotos.builder>, 'rx'>, false>>();
check<
  Equal<
    ReturnType<typeof live.photos.batchFinders.searchPhotos.builder> extends BatchFinderBuilder<
      unknown,
      unknown,
      unknown
    >
      ? true
      : false,
    true
  >
>();
const one = resourceClient(options, photosInterface);
void one;
check<Equal<Has<typeof one, 'rx'>, false>>();

function typeErrors(): void {
  // @ts-expect-error no rx forms unless asked for
  void plain.photos.rx;
  // @ts-expect-error nor on a batch finder's builder
  void plain.photos.batchFinders.searchPhotos.builder().rx;
  // @ts-expect-error an option other than the rx forms
  void createResourceClient(options, exampleInterfaces, { rx: {} });
}
void typeErrors;

describe("svc-framework/client's Observable forms, opt-in", () => {
  it('are absent unless created with { rx: rxForms }, present with it, as the types say', () => {
    const photos = plain.photos as unknown as Record<string, unknown>;
    expect([photos['rx'], check()]).toEqual([undefined, undefined]);
    const builder = plain.photos.batchFinders.searchPhotos.builder() as unknown as Record<string, unknown>;
    expect(builder['rx']).toBeUndefined();
    expect(typeof live.photos.rx.get).toBe('function');
    expect(typeof live.photos.batchFinders.searchPhotos.builder().rx).toBe('function');
    expect(typeof resourceClient(options, photosInterface, { rx: rxForms }).rx.finders.byTag).toBe(
      'function',
    );
  });
});
