/**
 * PSON's variable-length integers (Rest.li `BufferChain.putVarUnsignedInt` / `getVarUnsignedInt`).
 *
 * 7 bits per byte, least-significant group first, like LEB128, but with the high bit INVERTED: it is set on
 * the LAST byte and clear on every byte that has a continuation. So 0 is `80`, 127 is `FF`, 129 is `01 81`.
 * Signed values (map key indices) are zigzag-encoded first, as in protobuf.
 *
 * Values are 32-bit: unsigned ones are 0..2^32-1 and take at most {@link MAX_VARINT_BYTES} bytes.
 * The encoder and decoder inline the one-byte case; these helpers are the general forms.
 */

/** A 32-bit value needs at most 5 groups of 7 bits; a longer varint is malformed. */
export const MAX_VARINT_BYTES = 5;

/** Largest value a varint may carry. */
export const MAX_VARUINT = 0xffffffff;

/** Zigzag form of a signed 32-bit integer: 0, -1, 1, -2, 2 ... become 0, 1, 2, 3, 4 ... (an unsigned number). */
export function zigzagEncode(n: number): number {
  return ((n << 1) ^ (n >> 31)) >>> 0;
}

/** Inverse of {@link zigzagEncode} for an unsigned value 0..2^32-1. Arithmetic, so values past 2^31 stay exact. */
export function zigzagDecode(u: number): number {
  return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
}

/**
 * Writes `value` (0..2^32-1) as an inverted varint at `pos`; returns the position after it.
 * The caller guarantees {@link MAX_VARINT_BYTES} bytes of room.
 */
export function writeVarUint(target: Uint8Array, pos: number, value: number): number {
  let v = value >>> 0;
  while (v > 0x7f) {
    target[pos++] = v & 0x7f;
    v >>>= 7;
  }
  target[pos++] = v | 0x80;
  return pos;
}

/** The inverted-varint bytes of `value` (0..2^32-1), for tests and diagnostics. */
export function varUintBytes(value: number): Uint8Array {
  const out = new Uint8Array(MAX_VARINT_BYTES);
  return out.subarray(0, writeVarUint(out, 0, value));
}
