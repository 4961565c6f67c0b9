import { ClientOptionsError } from './errors';
import type { FetchInit, FetchLike, FetchResponseLike } from './options';
import type { ClientPlatform } from './platform';

/**
 * The platform's own `fetch` as the client's transport (browsers, Deno, Bun, workers; Node's global fetch
 * too). WHATWG URL parsing percent-encodes `'` in http(s) queries, so the empty string of the URI grammar
 * (`''`) cannot be sent in a query this way: `ids=List('')` reaches the server as the key `''` spelled
 * `%27%27`. On Node the package root uses `nodeHttpFetch`, which has no such limit.
 */
export const webFetch: FetchLike = async (url: string, init: FetchInit): Promise<FetchResponseLike> => {
  const f = (globalThis as { fetch?: (url: string, init: object) => Promise<FetchResponseLike> }).fetch;
  if (f === undefined) throw new TypeError('this runtime has no global fetch: pass ClientOptions.fetch');
  return f(url, {
    method: init.method,
    headers: init.headers,
    ...(init.body === undefined ? {} : { body: init.body }),
    ...(init.duplex === undefined ? {} : { duplex: init.duplex }),
    signal: init.signal,
  });
};

/**
 * Why a call of a client without attachments cannot send or read them: they are opt-in in the browser entry
 * (`web-attachments.ts`), so that a page without them does not carry their code.
 */
function attachmentsOff(): Promise<never> {
  return Promise.reject(
    new ClientOptionsError(
      'attachments',
      "the call sends or receives attachments, which svc-framework/client leaves out unless asked: pass `attachments: webAttachments` (import { webAttachments } from 'svc-framework/client') in the client's options",
    ),
  );
}

/**
 * The client in a browser (or any runtime with `fetch`): the default platform. Without attachments: a page
 * that sends or receives them passes `ClientOptions.attachments: webAttachments`.
 */
export const WEB_PLATFORM: ClientPlatform = Object.freeze({
  name: 'web',
  fetch: webFetch,
  relatedBody: attachmentsOff,
  readRelated: attachmentsOff,
});
