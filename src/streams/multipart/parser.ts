import { Readable } from 'node:stream';
import { type DicerPart, createDicer } from '../related/dicer';
import { MultipartFormatError } from './errors';

/** Limits of {@link parseMultipart} and {@link readMultipart}; every one bounds memory. */
export interface MultipartParseOptions {
  /** The boundary (see `multipartBoundary`). */
  readonly boundary: string;
  /** Most parts accepted; one more fails the envelope. Default 64. */
  readonly maxParts?: number;
  /** Bytes of one part's header block kept; the rest is dropped, never buffered. Default 16 KiB. */
  readonly maxHeaderBytes?: number;
  /** Header lines of one part kept. Default 64. */
  readonly maxHeaderPairs?: number;
  /** highWaterMark of each part's body stream, in bytes. Default 64 KiB. */
  readonly partHighWaterMark?: number;
}

/** Limits of {@link readMultipart} besides the parser's. */
export interface MultipartReadOptions extends MultipartParseOptions {
  /** Largest body of one part, in bytes; a larger one fails with a 413 error. Default: no limit. */
  readonly maxPartBytes?: number;
}

/** A part as it arrives: its headers (lower-case names; repeated headers joined by `, `) and its body. */
export interface MultipartPart {
  /** 0 for the first part. */
  readonly index: number;
  readonly headers: ReadonlyMap<string, string>;
  /**
   * The body, streamed with demand: until it is read (or `resume()`d to discard it) the parser, and so the
   * source, wait. The next part comes only once this one ended.
   */
  readonly body: Readable;
}

/** A part of a buffered envelope. */
export interface BufferedMultipartPart {
  readonly index: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer;
}

const DEFAULT_MAX_PARTS = 64;
const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
const DEFAULT_MAX_HEADER_PAIRS = 64;
const DEFAULT_PART_HWM = 64 * 1024;

function malformed(message: string, cause?: unknown): MultipartFormatError {
  return new MultipartFormatError(
    'SVC_ERR_TUNNEL_MULTIPART_MALFORMED',
    message,
    cause === undefined ? undefined : { cause },
  );
}

function headerMap(header: Record<string, string[]>): Map<string, string> {
  const headers = new Map<string, string>();
  for (const [name, values] of Object.entries(header))
    headers.set(name.toLowerCase(), values.map((v) => v.trim()).join(', '));
  return headers;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (!(v === Number.POSITIVE_INFINITY || (Number.isSafeInteger(v) && v > 0)))
    throw new RangeError(`multipart option '${name}' must be a positive integer, got ${String(v)}`);
  return v;
}

/** The Dicer for `options`, and the part limit. */
function parserFor(options: MultipartParseOptions): {
  dicer: ReturnType<typeof createDicer>;
  maxParts: number;
} {
  if (typeof options.boundary !== 'string' || options.boundary === '')
    throw malformed('a multipart envelope needs a boundary');
  const dicer = createDicer({
    boundary: options.boundary,
    maxHeaderSize: positive(options.maxHeaderBytes, DEFAULT_MAX_HEADER_BYTES, 'maxHeaderBytes'),
    maxHeaderPairs: positive(options.maxHeaderPairs, DEFAULT_MAX_HEADER_PAIRS, 'maxHeaderPairs'),
    partHwm: positive(options.partHighWaterMark, DEFAULT_PART_HWM, 'partHighWaterMark'),
  });
  return { dicer, maxParts: positive(options.maxParts, DEFAULT_MAX_PARTS, 'maxParts') };
}

/**
 * Parses a multipart body as it streams: an async iterator of parts, each with its headers and a body
 * stream. Quoted or unquoted boundaries (pass the parsed value), a preamble (ignored) or none, an epilogue
 * (ignored) or none, folded headers. Demand goes back to `source`: a part body nobody reads pauses it.
 * Errors ({@link MultipartFormatError}) reject the iterator's `next()` and destroy the current part's body.
 * Ending the iteration early (`break`, `return()`) discards the rest of the source.
 */
export function parseMultipart(
  source: Readable | Uint8Array,
  options: MultipartParseOptions,
): AsyncIterableIterator<MultipartPart> {
  const { dicer, maxParts } = parserFor(options);
  const input =
    source instanceof Readable ? source : Readable.from([Buffer.from(source)], { objectMode: false });
  const ready: MultipartPart[] = [];
  let waiting:
    { resolve: (r: IteratorResult<MultipartPart>) => void; reject: (e: Error) => void } | undefined;
  let failure: Error | undefined;
  let finished = false;
  let stopped = false;
  let count = 0;
  let current: DicerPart | undefined;

  const settle = (): void => {
    if (waiting === undefined) return;
    const w = waiting;
    if (ready.length > 0) {
      waiting = undefined;
      w.resolve({ value: ready.shift()!, done: false });
    } else if (failure !== undefined) {
      waiting = undefined;
      w.reject(failure);
    } else if (finished) {
      waiting = undefined;
      w.resolve({ value: undefined, done: true });
    }
  };
  const fail = (e: Error): void => {
    if (failure !== undefined || finished) return;
    failure = e;
    current?.destroy(e);
    input.unpipe(dicer);
    input.resume();
    settle();
  };

  dicer.on('part', (part: DicerPart) => {
    const index = count++;
    current = part;
    // errors reach the consumer through the iterator; a body stream nobody listens to must not throw
    part.on('error', () => undefined);
    if (stopped) {
      part.resume();
      return;
    }
    if (index >= maxParts) {
      part.resume();
      fail(malformed(`the envelope has more than ${maxParts} parts`));
      return;
    }
    part.on('header', (header: Record<string, string[]>) => {
      ready.push({ index, headers: headerMap(header), body: part });
      settle();
    });
  });
  dicer.on('finish', () => {
    // the parser may finish on the closing delimiter with a write unanswered: let the source run out
    input.unpipe(dicer);
    input.resume();
    if (count === 0) return fail(malformed('the envelope has no parts'));
    finished = true;
    settle();
  });
  dicer.on('error', (e: Error) => fail(malformed(`malformed multipart envelope: ${e.message}`, e)));
  input.on('error', (e: Error) => fail(malformed('the multipart body broke off', e)));
  input.pipe(dicer);

  const iterator: AsyncIterableIterator<MultipartPart> = {
    next: () =>
      new Promise<IteratorResult<MultipartPart>>((resolve, reject) => {
        if (stopped) return resolve({ value: undefined, done: true });
        waiting = { resolve, reject };
        settle();
      }),
    return: () => {
      if (!stopped) {
        stopped = true;
        for (const p of ready.splice(0)) p.body.resume();
        current?.resume();
        if (!finished && failure === undefined) {
          input.unpipe(dicer);
          input.resume();
        }
      }
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/**
 * A whole buffered multipart body as its parts (what tunneling decodes). Same grammar and limits as
 * {@link parseMultipart}, plus `maxPartBytes`; driven by callbacks, without an iterator's promise per part.
 */
export function readMultipart(
  bytes: Uint8Array,
  options: MultipartReadOptions,
): Promise<BufferedMultipartPart[]> {
  const { dicer, maxParts } = parserFor(options);
  const maxPartBytes = positive(options.maxPartBytes, Number.POSITIVE_INFINITY, 'maxPartBytes');
  return new Promise((resolve, reject) => {
    const parts: BufferedMultipartPart[] = [];
    let pending = 0;
    let count = 0;
    let done = false;
    let finished = false;
    const fail = (e: Error): void => {
      if (done) return;
      done = true;
      reject(e);
    };
    const check = (): void => {
      if (!done && finished && pending === 0) {
        done = true;
        resolve(parts);
      }
    };
    dicer.on('part', (part: DicerPart) => {
      const index = count++;
      part.on('error', () => undefined);
      if (index >= maxParts) {
        part.resume();
        return fail(malformed(`the envelope has more than ${maxParts} parts`));
      }
      pending++;
      let headers: Map<string, string> | undefined;
      const chunks: Buffer[] = [];
      let size = 0;
      part.on('header', (header: Record<string, string[]>) => {
        headers = headerMap(header);
      });
      part.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxPartBytes) {
          fail(
            new MultipartFormatError(
              'SVC_ERR_TUNNEL_MULTIPART_TOO_LARGE',
              `part ${index} is larger than ${maxPartBytes} bytes`,
            ),
          );
          chunks.length = 0;
          return;
        }
        if (!done) chunks.push(c);
      });
      part.on('end', () => {
        pending--;
        parts[index] = {
          index,
          headers: headers ?? new Map(),
          body: Buffer.concat(chunks, Math.min(size, maxPartBytes)),
        };
        check();
      });
    });
    dicer.on('finish', () => {
      if (count === 0) return fail(malformed('the envelope has no parts'));
      finished = true;
      check();
    });
    dicer.on('error', (e: Error) => fail(malformed(`malformed multipart envelope: ${e.message}`, e)));
    dicer.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
}
