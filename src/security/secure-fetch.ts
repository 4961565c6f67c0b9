import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import http2 from 'node:http2';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { FetchInit, FetchLike, FetchResponseLike } from '../client/options';

/**
 * A fetch for the typed client over TLS, HTTP/2 or HTTP/1.1, with the CAs to trust and a client
 * certificate (mTLS): `createResourceClient({ baseUrl: 'https://...', fetch: secureFetch({ ca, http2: true }) })`.
 * It sends the request target byte for byte, as the default transport does. HTTP/2 keeps one session per
 * origin, with every request a stream on it; attachments stream both ways with the stream's flow control.
 */

/** Options of {@link secureFetch}. */
export interface SecureFetchOptions {
  /** CAs to trust (PEM); default Node's. */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  /** A client certificate and its key (mTLS). */
  readonly cert?: string | Buffer;
  readonly key?: string | Buffer;
  /** HTTP/2 (default) or HTTP/1.1. */
  readonly http2?: boolean;
}

/** A fetch that holds connections: `close()` ends them (sessions, kept-alive sockets). */
export interface SecureFetch extends FetchLike {
  close(): void;
}

function pemList(ca: string | Buffer | readonly (string | Buffer)[]): (string | Buffer)[] {
  return typeof ca === 'string' || Buffer.isBuffer(ca) ? [ca] : [...ca];
}

function toBuffer(b: Uint8Array): Buffer {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/** The response object over a Node body stream (read whole, or as a stream, once). */
function responseOf(
  status: number,
  headerPairs: ReadonlyArray<readonly [string, string]>,
  body: Readable,
  limit: number,
  onTooLarge: () => Error,
): FetchResponseLike {
  let whole: Promise<ArrayBuffer> | undefined;
  return {
    status,
    headers: {
      forEach(callback: (value: string, name: string) => void): void {
        for (const [name, value] of headerPairs) callback(value, name);
      },
    },
    arrayBuffer: () =>
      (whole ??= new Promise<ArrayBuffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        let size = 0;
        body.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) {
            reject(onTooLarge());
            body.destroy();
            return;
          }
          chunks.push(chunk);
        });
        body.once('end', () => {
          const all = Buffer.concat(chunks);
          resolve(all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength));
        });
        body.once('error', reject);
        body.once('aborted', () => reject(new Error('the response was cut short')));
      })),
    stream: () => body,
  };
}

/** A fetch over TLS with these trust settings; HTTP/2 unless `http2: false`. */
export function secureFetch(options: SecureFetchOptions = {}): SecureFetch {
  const tls = {
    ...(options.ca === undefined ? {} : { ca: pemList(options.ca) }),
    ...(options.cert === undefined ? {} : { cert: options.cert }),
    ...(options.key === undefined ? {} : { key: options.key }),
  };
  const tooLarge = (url: string, limit: number) => (): Error =>
    Object.assign(new Error(`the response of ${url} is larger than ${limit} bytes`), {
      name: 'ResponseTooLargeError',
    });

  if (options.http2 === false) {
    const agent = new https.Agent({ ...tls, keepAlive: true });
    const fetch1 = (url: string, init: FetchInit): Promise<FetchResponseLike> =>
      new Promise((resolve, reject) => {
        const u = new URL(url);
        const headers: Record<string, string> = { ...init.headers };
        const source = bodySource(init.body);
        const bytes = source instanceof Readable ? undefined : source;
        if (bytes !== undefined) headers['content-length'] = String(bytes.byteLength);
        const req = https.request(
          {
            agent,
            hostname: u.hostname.replace(/^\[(.*)\]$/, '$1'),
            port: u.port === '' ? 443 : Number(u.port),
            // the target as written (the URL parser would re-encode it)
            path: url.slice(url.indexOf('/', url.indexOf('//') + 2)) || '/',
            method: init.method,
            headers,
            signal: init.signal,
          },
          (res) => {
            const pairs: Array<readonly [string, string]> = [];
            for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
              pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
            const limit = init.maxResponseBytes ?? Number.POSITIVE_INFINITY;
            resolve(responseOf(res.statusCode ?? 0, pairs, res, limit, tooLarge(url, limit)));
          },
        );
        req.on('error', reject);
        if (source instanceof Readable) source.pipe(req);
        else req.end(bytes === undefined ? undefined : toBuffer(bytes));
      });
    return Object.assign(fetch1, { close: () => agent.destroy() });
  }

  const sessions = new Map<string, http2.ClientHttp2Session>();
  const inFlight = new WeakMap<http2.ClientHttp2Session, number>();
  const sessionFor = (origin: string): http2.ClientHttp2Session => {
    const open = sessions.get(origin);
    if (open !== undefined && !open.closed && !open.destroyed) return open;
    const session = http2.connect(origin, tls);
    // a session that fails or ends is forgotten; the next request opens another
    const forget = (): void => {
      if (sessions.get(origin) === session) sessions.delete(origin);
    };
    session.on('error', forget);
    session.on('close', forget);
    session.on('goaway', forget);
    // an idle session does not keep the process alive
    session.unref();
    sessions.set(origin, session);
    return session;
  };
  const fetch2 = (url: string, init: FetchInit): Promise<FetchResponseLike> =>
    new Promise((resolve, reject) => {
      const u = new URL(url);
      const headers: http2.OutgoingHttpHeaders = {
        ':method': init.method,
        ':path': url.slice(url.indexOf('/', url.indexOf('//') + 2)) || '/',
      };
      for (const [name, value] of Object.entries(init.headers)) {
        const lower = name.toLowerCase();
        // connection-specific headers are not allowed in HTTP/2 (RFC 9113 §8.2.2)
        if (
          lower === 'connection' ||
          lower === 'keep-alive' ||
          lower === 'transfer-encoding' ||
          lower === 'host'
        )
          continue;
        headers[lower] = value;
      }
      const source = bodySource(init.body);
      const bytes = source instanceof Readable ? undefined : source;
      if (bytes !== undefined) headers['content-length'] = String(bytes.byteLength);
      let stream: http2.ClientHttp2Stream;
      try {
        const session = sessionFor(u.origin);
        // the session keeps the process alive while a request is on it, not when idle
        const active = (inFlight.get(session) ?? 0) + 1;
        inFlight.set(session, active);
        if (active === 1) session.ref();
        stream = session.request(headers, { signal: init.signal });
        stream.once('close', () => {
          const left = (inFlight.get(session) ?? 1) - 1;
          inFlight.set(session, left);
          if (left === 0 && !session.destroyed) session.unref();
        });
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      stream.once('error', reject);
      stream.once('response', (h) => {
        const pairs: Array<readonly [string, string]> = [];
        for (const [name, value] of Object.entries(h)) {
          if (name.startsWith(':') || value === undefined) continue;
          pairs.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
        }
        const limit = init.maxResponseBytes ?? Number.POSITIVE_INFINITY;
        resolve(responseOf(Number(h[':status'] ?? 0), pairs, stream, limit, tooLarge(url, limit)));
      });
      if (source instanceof Readable) {
        const body = source;
        body.on('error', (e: Error) => stream.destroy(e));
        stream.once('close', () => {
          if (!body.readableEnded) body.destroy();
        });
        body.pipe(stream);
      } else stream.end(bytes === undefined ? undefined : toBuffer(bytes));
    });
  return Object.assign(fetch2, {
    close: () => {
      for (const s of sessions.values()) s.close();
      sessions.clear();
    },
  });
}

/** A request body as bytes or a Node stream: a `Blob` (the web platform's multipart body) is streamed. */
function bodySource(body: FetchInit['body']): Uint8Array | Readable | undefined {
  if (body instanceof Blob) return Readable.fromWeb(body.stream() as WebReadableStream<Uint8Array>);
  return body;
}
