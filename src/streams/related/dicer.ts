import type { Readable, Writable } from 'node:stream';

/**
 * The streaming multipart parser we build on: the `Dicer` inside `@fastify/busboy` (a Boyer-Moore-Horspool
 * boundary search; a part's `push` returning false holds the parser's write callback, so a part nobody
 * reads stops the socket: demand end to end). `busboy` itself and `@fastify/multipart` refuse
 * `multipart/related`, hence the deep import; its types are declared here, for what we use.
 */
export interface DicerPart extends Readable {
  on(event: 'header', listener: (header: Record<string, string[]>) => void): this;
  on(event: string | symbol, listener: (...args: never[]) => void): this;
}

export interface Dicer extends Writable {
  on(event: 'part', listener: (part: DicerPart) => void): this;
  on(event: string | symbol, listener: (...args: never[]) => void): this;
}

interface DicerConfig {
  readonly boundary: string;
  /** Bytes of one part's header block kept (the rest is dropped, not buffered). */
  readonly maxHeaderSize?: number;
  readonly maxHeaderPairs?: number;
  /** highWaterMark of each part stream, in bytes. */
  readonly partHwm?: number;
  readonly highWaterMark?: number;
}

type DicerConstructor = new (config: DicerConfig) => Dicer;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file without an exports map entry
const DicerClass = require('@fastify/busboy/deps/dicer/lib/Dicer') as DicerConstructor;

export function createDicer(config: DicerConfig): Dicer {
  return new DicerClass(config);
}
