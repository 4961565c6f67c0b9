import { Readable } from 'node:stream';
import { createDefaultCodecRegistry } from '../data/codecs/default-codecs';
import { installFullValidation } from '../schema/validation/full-validation';
import { decodeRelated } from '../streams/related/decoder';
import { encodeRelated } from '../streams/related/encoder';
import type { HttpRequest } from './build-request';
import { nodeHttpFetch } from './node-http-fetch';
import type { FetchResponseLike } from './options';
import {
  type ClientPlatform,
  type RelatedRequestBody,
  type RelatedResponseParts,
  installClientPlatform,
} from './platform';
import { relatedHeaders } from './web-attachments';

/**
 * The client on Node: `node:http` (which sends the request target byte for byte), `multipart/related`
 * bodies as Node streams pulled as the socket drains, and response attachments streaming from the socket.
 * Installed as the default by `index.ts` (the package root), so the Node face behaves as it always did.
 */
export const NODE_PLATFORM: ClientPlatform = Object.freeze({
  name: 'node',
  fetch: nodeHttpFetch,
  codecs: () => createDefaultCodecRegistry(),
  relatedBody: (request: HttpRequest): Promise<RelatedRequestBody> => {
    const { headers, payloadType } = relatedHeaders(request);
    const message = encodeRelated(
      { contentType: payloadType, bytes: request.body ?? new Uint8Array(0) },
      request.attachments ?? [],
    );
    headers['Content-Type'] = message.contentType;
    return Promise.resolve({
      headers,
      body: message.body,
      duplex: 'half' as const,
      // destroyed without a reason, as before the platforms: the writers see the body abandoned
      cancel: () => message.body.destroy(),
    });
  },
  readRelated: async (
    response: FetchResponseLike,
    contentType: string,
    limit: number,
  ): Promise<RelatedResponseParts> => {
    const source: Readable =
      response.stream !== undefined
        ? response.stream()
        : Readable.from([new Uint8Array(await response.arrayBuffer())]);
    try {
      const related = decodeRelated(
        source,
        contentType,
        Number.isFinite(limit) ? { maxPayloadBytes: limit } : {},
      );
      const payload = await related.payload;
      const attachments = await related.attachments;
      return {
        body: payload.bytes,
        ...(payload.contentType === undefined ? {} : { contentType: payload.contentType }),
        ...(attachments === undefined ? {} : { attachments }),
      };
    } catch (err) {
      source.destroy();
      throw err;
    }
  },
});

installClientPlatform(NODE_PLATFORM);
// the Node client coerces what it receives with the validator, as it always did; a browser page opts in
// (schema/validation/type-coercion.ts)
installFullValidation();
