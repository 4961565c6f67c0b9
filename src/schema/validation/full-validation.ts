import { installValidation } from './type-coercion';
import { validate } from './validate';

/**
 * Makes value types, keys and parameters coerce through {@link validate} (type-coercion.ts says why this is
 * a slot). The server and the Node client call it when loaded; a page of `svc-framework/client` calls it to
 * have the client validate what it receives (records, arrays, maps and unions too), at ~6.5 KB gzipped.
 */
export function installFullValidation(): void {
  installValidation(validate);
}
