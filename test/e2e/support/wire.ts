/**
 * Test support for wire-level end-to-end tests: requests written byte for byte and sent over a raw
 * `node:net` socket (so that they can be as broken as a hostile client makes them: bad framing, unknown
 * methods, NUL bytes, oversized headers), answers parsed from the raw bytes, and a small PSON writer
 * built from the wire facts (§1) rather than the codec under test.
 */
import net from 'node:net';

/** A parsed HTTP answer. */
export interface Answer {
  readonly status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly text: string;
}

/** What came back for one request: an answer, or a connection closed (or silent) without one. */
export type Exchange =
  | { readonly kind: 'answered'; readonly answer: Answer }
  | { readonly kind: 'closed'; readonly raw: Buffer }
  | { readonly kind: 'timeout'; readonly raw: Buffer };

/** How to send a request over the socket. */
export interface SendOptions {
  /** Half-close the connection after the request is written (the client has nothing more to send). */
  readonly end?: boolean;
  /** Give up waiting for an answer after this many milliseconds. Default 10 000. */
  readonly timeoutMs?: number;
}

/**
 * Writes `request` to a new connection to 127.0.0.1:`port` and reads until a whole answer has arrived,
 * the server closes the connection, or the time runs out. Socket errors (a reset after the server
 * answered and closed while the client was still writing) end the wait; whatever arrived is kept.
 */
export function send(port: number, request: Buffer, options: SendOptions = {}): Promise<Exchange> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = net.connect(port, '127.0.0.1');
    const finish = (how: 'closed' | 'timeout'): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks);
      const answer = parseAnswer(raw, true);
      resolve(answer === undefined ? { kind: how, raw } : { kind: 'answered', answer });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('connect', () => {
      socket.write(request, () => {
        if (options.end === true) socket.end();
      });
    });
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      const answer = parseAnswer(Buffer.concat(chunks), false);
      if (answer !== undefined && !settled) {
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        resolve({ kind: 'answered', answer });
      }
    });
    socket.on('error', () => finish('closed'));
    socket.on('close', () => finish('closed'));
  });
}

/**
 * Parses one HTTP/1.x answer from `raw`; undefined while it is incomplete. With `atEnd` (the connection
 * closed) a body without a length runs to the end of the bytes.
 */
export function parseAnswer(raw: Buffer, atEnd: boolean): Answer | undefined {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const lines = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const statusLine = /^HTTP\/\d\.\d (\d{3})/.exec(lines[0] ?? '');
  if (statusLine === null) return undefined;
  const status = Number(statusLine[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const rest = raw.subarray(headEnd + 4);
  let body: Buffer;
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (rest.length < length) {
      if (!atEnd) return undefined;
      body = rest;
    } else body = rest.subarray(0, length);
  } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const decoded = dechunk(rest);
    if (decoded === undefined) {
      if (!atEnd) return undefined;
      body = rest;
    } else body = decoded;
  } else if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
    body = Buffer.alloc(0);
  } else {
    if (!atEnd) return undefined;
    body = rest;
  }
  return { status, headers, body, text: body.toString('utf8') };
}

/** The body of a complete chunked transfer coding; undefined while incomplete. */
function dechunk(raw: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    if (raw.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** What {@link httpRequest} writes besides the request line. */
export interface RequestInit {
  /**
   * Extra headers, written in order after the defaults; `null` leaves a default out. An array writes the
   * header once per value.
   */
  readonly headers?: Readonly<Record<string, string | readonly string[] | null>>;
  /** A body sent as given. */
  readonly body?: string | Uint8Array;
  /** A body sent as `JSON.stringify(json)`. */
  readonly json?: unknown;
  /** The `Content-Type` of a body; default `application/json`, `null` for none. */
  readonly contentType?: string | null;
  /** The protocol version header; default `2.0.0`, `null` for none. */
  readonly version?: string | null;
}

/**
 * One HTTP/1.1 request as bytes: `Host`, `Connection: close`, the protocol version header, and for a
 * body its `Content-Type` and `Content-Length` (unless `headers` names them). The request target is
 * written verbatim.
 */
export function httpRequest(method: string, target: string, init: RequestInit = {}): Buffer {
  const body =
    init.json !== undefined
      ? Buffer.from(JSON.stringify(init.json))
      : init.body === undefined
        ? undefined
        : Buffer.from(init.body);
  const given = Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const headers: Array<[string, string]> = [];
  const add = (name: string, value: string | readonly string[] | null | undefined): void => {
    if (value === null || value === undefined) return;
    for (const v of typeof value === 'string' ? [value] : value) headers.push([name, v]);
  };
  const fallback = (name: string, value: string | null | undefined): void => {
    if (!(name.toLowerCase() in given)) add(name, value);
  };
  fallback('Host', '127.0.0.1');
  fallback('Connection', 'close');
  fallback('X-Svc-Protocol-Version', init.version === undefined ? '2.0.0' : init.version);
  if (body !== undefined) {
    fallback('Content-Type', init.contentType === undefined ? 'application/json' : init.contentType);
    fallback('Content-Length', String(body.length));
  }
  for (const [name, value] of Object.entries(init.headers ?? {})) add(name, value);
  const head = `${method} ${target} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return body === undefined
    ? Buffer.from(head, 'latin1')
    : Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

// ---- PSON, from the wire facts §1 (not from the codec under test)

/** PSON's 8-byte header, `#!PSON1\n`. */
export const PSON_HEADER = Buffer.from('#!PSON1\n', 'latin1');

/** A value {@link pson} writes: integers in int32 range as int, other numbers as double, bigints as long. */
export type PsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | readonly PsonValue[]
  | { readonly [key: string]: PsonValue };

/** PSON's unsigned varint: 7 bits a byte, least significant first, the high bit set on the last byte. */
export function psonVarint(value: number): Buffer {
  const out: number[] = [];
  let v = value;
  for (;;) {
    const low = v % 128;
    v = Math.floor(v / 128);
    if (v === 0) {
      out.push(low | 0x80);
      return Buffer.from(out);
    }
    out.push(low);
  }
}

/** A key index as PSON writes it: zigzag, then {@link psonVarint}. */
export function psonKeyIndex(index: number): Buffer {
  return psonVarint(index >= 0 ? index * 2 : -index * 2 - 1);
}

/** A little-endian int32. */
export function int32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32LE(value);
  return b;
}

/** A whole PSON document (header included) of a map or list, with the default options. */
export function pson(value: PsonValue): Buffer {
  const keys = new Map<string, number>();
  const out: Buffer[] = [PSON_HEADER];
  const write = (v: PsonValue): void => {
    if (v === null) out.push(Buffer.from([0x00]));
    else if (typeof v === 'boolean') out.push(Buffer.from([0x01, v ? 1 : 0]));
    else if (typeof v === 'bigint') {
      const b = Buffer.alloc(9);
      b[0] = 0x03;
      b.writeBigInt64LE(v, 1);
      out.push(b);
    } else if (typeof v === 'number') {
      if (Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31) out.push(Buffer.from([0x02]), int32(v));
      else {
        const b = Buffer.alloc(9);
        b[0] = 0x05;
        b.writeDoubleLE(v, 1);
        out.push(b);
      }
    } else if (typeof v === 'string') {
      if (v === '') out.push(Buffer.from([0x08]));
      else {
        const utf8 = Buffer.from(v, 'utf8');
        out.push(Buffer.from([0x0a]), int32(utf8.length + 1), utf8, Buffer.from([0x00]));
      }
    } else if (v instanceof Uint8Array) {
      out.push(Buffer.from([0x06]), int32(v.length), Buffer.from(v));
    } else if (Array.isArray(v)) {
      const items = v as readonly PsonValue[];
      if (items.length === 0) out.push(Buffer.from([0x10]));
      else {
        out.push(Buffer.from([0x11]));
        for (const item of items) write(item);
        out.push(Buffer.from([0xff]));
      }
    } else {
      const entries = Object.entries(v as { readonly [key: string]: PsonValue });
      if (entries.length === 0) out.push(Buffer.from([0x20]));
      else {
        out.push(Buffer.from([0x21]));
        for (const [k, item] of entries) {
          const known = keys.get(k);
          if (known !== undefined) out.push(psonKeyIndex(known));
          else {
            const index = keys.size + 1;
            keys.set(k, index);
            out.push(psonKeyIndex(-index), Buffer.from(k, 'utf8'), Buffer.from([0x00]));
          }
          write(item);
        }
        out.push(Buffer.from([0x80]));
      }
    }
  };
  write(value);
  return Buffer.concat(out);
}
