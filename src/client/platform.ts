import type { CodecRegistry } from '../data/codecs/codec-registry';
import type { AttachmentReader } from '../streams/attachment-reader';
import type { HttpRequest } from './build-request';
import type { FetchInit, FetchLike, FetchResponseLike } from './options';
import { WEB_PLATFORM } from './web-platform';

/** The body of a request with attachments, as a platform sends it. */
export interface RelatedRequestBody {
  /** The request's headers with the `multipart/related` Content-Type. */
  readonly headers: Record<string, string>;
  readonly body: NonNullable<FetchInit['body']>;
  /** Set when the body is a stream (fetch requires it then). */
  readonly duplex?: 'half';
  /** Abandons the body (the request failed before it was sent): aborts the attachments' writers. */
  cancel(reason: Error): void;
}

/** The first part of a `multipart/related` response and the attachments after it. */
export interface RelatedResponseParts {
  readonly body: Uint8Array;
  /** The first part's Content-Type, if it has one. */
  readonly contentType?: string;
  readonly attachments?: AttachmentReader;
}

/**
 * What differs between the runtimes the client runs on: the default transport and how a `multipart/related`
 * message is written and read (Node streams over `node:http` on Node; `Blob`s and web streams over the
 * platform's `fetch` in a browser). `transport.ts` and `options.ts` ask {@link clientPlatform} and import
 * neither implementation, so the browser entry reaches no Node built-in.
 */
export interface ClientPlatform extends ClientAttachments {
  /** For messages: `node` or `web`. */
  readonly name: string;
  /** The transport when `ClientOptions.fetch` is not given. */
  readonly fetch: FetchLike;
  /**
   * The codecs when `ClientOptions.codecs` is not given: JSON and PSON on Node. Absent (the web platform):
   * JSON only, so that a browser page that does not speak PSON does not carry its codec; such a page passes
   * `codecs: createDefaultCodecRegistry()` to speak it.
   */
  codecs?(): CodecRegistry;
}

/**
 * How a client writes and reads `multipart/related` messages (requests and responses with attachments):
 * its platform's (Node streams on Node), or `ClientOptions.attachments`. The web platform has none: a page
 * of `svc-framework/client` that sends or receives attachments passes `attachments: webAttachments`
 * (`web-attachments.ts`), and without it such a call fails with a `ClientOptionsError`.
 */
export interface ClientAttachments {
  /** The envelope of a request with attachments (its body first, then the attachments). */
  relatedBody(request: HttpRequest): Promise<RelatedRequestBody>;
  /**
   * Reads a `multipart/related` response: the first part (bounded by `limit`), then the attachments.
   * Errors are thrown as they come; the caller sorts them into the client's outcomes.
   */
  readRelated(response: FetchResponseLike, contentType: string, limit: number): Promise<RelatedResponseParts>;
}

let installed: ClientPlatform | undefined;

/**
 * Makes `platform` the client's default (the package root installs the Node platform when it is imported;
 * `svc-framework/client` leaves the web platform). Clients resolved before keep the transport they had.
 */
export function installClientPlatform(platform: ClientPlatform): void {
  installed = platform;
}

/** The platform the client runs on: the installed one, else the web platform. */
export function clientPlatform(): ClientPlatform {
  return installed ?? WEB_PLATFORM;
}
