import { CodecRegistry } from './codec-registry';
import { JsonCodec } from './json-codec';
import { PsonCodec, type PsonCodecOptions } from './pson-codec';

/** A registry with the codecs Svc speaks out of the box: JSON (the default) and PSON. */
export function createDefaultCodecRegistry(options: { pson?: PsonCodecOptions } = {}): CodecRegistry {
  return new CodecRegistry().register(new JsonCodec()).register(new PsonCodec(options.pson));
}
