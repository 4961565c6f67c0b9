/** The two functions of `snappyjs` (pure JavaScript, the Snappy block format) that Svc uses; the package ships no types. */
declare module 'snappyjs' {
  /** Compresses bytes into one Snappy block (a Buffer in, a Buffer out under Node). */
  export function compress(input: Uint8Array): Uint8Array;
  /** Decompresses one Snappy block; throws when its declared length exceeds `maxLength`, before allocating. */
  export function uncompress(input: Uint8Array, maxLength?: number): Uint8Array;
}
