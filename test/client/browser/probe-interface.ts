/**
 * A test-only resource served beside the example by browser-client.test.ts, on the standalone server
 * (`createSvcServer` with its `cors` option), for what the example cannot show: a finder that never
 * answers (the test reads its teardown when the page aborts the call), and a download whose second half
 * the server writes only when the test says so (the page must have read the first half before then).
 * The page imports this interface; the test implements it.
 */
import { LONG_KEY, collectionInterface, finderSpec } from 'svc-framework';
import { Photo } from '../../../examples/src/main/generated/com/example/photos/Photo';

export const probesInterface = collectionInterface({
  name: 'probes',
  namespace: 'test.browser',
  key: LONG_KEY,
  value: Photo,
  methods: { get: {} },
  finders: { hang: finderSpec({ params: {} }) },
});

/** The download's halves (bytes of 'A' then of 'B'). */
export const HALF_BYTES = 256 * 1024;
