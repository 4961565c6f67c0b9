import { UnsupportedContentTypeException } from '../errors';
import type { DataCodec } from './data-codec';
import { parseMediaType } from './media-type';

/**
 * Codecs by media type. HTTP content negotiation (request `Content-Type`, response `Accept`) looks codecs up
 * here; register more (or aliases such as `text/json`) to widen what a server speaks.
 */
export class CodecRegistry {
  private readonly byType = new Map<string, DataCodec>();
  private readonly order: string[] = [];

  /** Registers `codec` for its content type and any `aliases`; a later registration replaces an earlier one. */
  register(codec: DataCodec, aliases: readonly string[] = []): this {
    for (const t of [codec.contentType, ...aliases]) {
      const mt = parseMediaType(t);
      if (mt === undefined) throw new UnsupportedContentTypeException(t);
      if (!this.byType.has(mt.essence)) this.order.push(mt.essence);
      this.byType.set(mt.essence, codec);
    }
    return this;
  }

  /** The codec for a `Content-Type` value (parameters ignored), or undefined. */
  find(contentType: string): DataCodec | undefined {
    const mt = parseMediaType(contentType);
    return mt === undefined ? undefined : this.byType.get(mt.essence);
  }

  /** The codec for a `Content-Type` value; {@link UnsupportedContentTypeException} (415) when none. */
  get(contentType: string): DataCodec {
    const codec = this.find(contentType);
    if (codec === undefined) throw new UnsupportedContentTypeException(contentType);
    return codec;
  }

  /** Registered media types, in registration order. */
  contentTypes(): readonly string[] {
    return [...this.order];
  }
}
