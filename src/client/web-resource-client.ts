import type { ClientOptions } from './options';
import { type ResourceClient, bindOne, bindResources } from './resource-client';
import type { ResourceClientOf, ResourceContract, ResourceContracts } from './resource-client-types';
import type { RxForms } from './rx';
import type { SvcClient } from './svc-client';

/**
 * The typed client as `svc-framework/client` exports it: the package root's `createResourceClient`, with
 * the Observable forms opt-in, so that a page that only awaits promises carries no RxJS (README.md, "Size").
 * Typed by the choice: `api.photos.rx` type-checks only on a client created with `{ rx: rxForms }`.
 *
 * @example
 * ```ts
 * import { createResourceClient, rxForms } from 'svc-framework/client';
 * const api = createResourceClient({ baseUrl }, { photos: photosInterface }); // promises only
 * const live = createResourceClient({ baseUrl }, { photos: photosInterface }, { rx: rxForms });
 * live.photos.rx.get(1).subscribe(...);
 * ```
 * @throws ClientOptionsError for bad options; TypeError for a value that is not a resource definition
 */
export function createResourceClient<const R extends ResourceContracts>(
  client: SvcClient | ClientOptions,
  resources: R,
  forms?: { readonly rx?: undefined },
): ResourceClient<R, false>;
export function createResourceClient<const R extends ResourceContracts>(
  client: SvcClient | ClientOptions,
  resources: R,
  forms: { readonly rx: RxForms },
): ResourceClient<R>;
export function createResourceClient(
  client: SvcClient | ClientOptions,
  resources: ResourceContracts,
  forms: { readonly rx?: RxForms | undefined } = {},
): object {
  return bindResources(client, resources, forms);
}

/** The typed client of one resource, as {@link createResourceClient} (`rx` opt-in). */
export function resourceClient<const D extends ResourceContract>(
  client: SvcClient | ClientOptions,
  definition: D,
  forms?: { readonly rx?: undefined },
): ResourceClientOf<D, false>;
export function resourceClient<const D extends ResourceContract>(
  client: SvcClient | ClientOptions,
  definition: D,
  forms: { readonly rx: RxForms },
): ResourceClientOf<D>;
export function resourceClient(
  client: SvcClient | ClientOptions,
  definition: ResourceContract,
  forms: { readonly rx?: RxForms | undefined } = {},
): object {
  return bindOne(client, definition, forms);
}
