import { CodecRegistry } from './codec-registry';
import { JsonCodec, type JsonCodecOptions } from './json-codec';
import { PsonCodec, type PsonCodecOptions } from './pson-codec';

/** A registry with the codecs Svc speaks out of the box: JSON (the default) and PSON. */
export function createDefaultCodecRegistry(
  options: { json?: JsonCodecOptions; pson?: PsonCodecOptions } = {},
): CodecRegistry {
  return new CodecRegistry().register(new JsonCodec(options.json)).register(new PsonCodec(options.pson));
}
