import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { ResponseTooLargeError } from './errors';
import type { FetchInit, FetchLike, FetchResponseLike } from './options';

/**
 * The client's default transport: a fetch-shaped function over `node:http`/`node:https` that sends the
 * request target exactly as built.
 *
 * Why not the global `fetch`: it parses URLs by the WHATWG rules, which percent-encode `'` in the query of
 * http(s) URLs. In the Rest.li 2.0 grammar a bare `''` is the empty string and `%27%27` the two-character
 * string `''` (wire facts §2), so `ids=List('')` or a finder parameter `''` sent through `fetch` arrives as
 * another value. Node's own client writes the path as given. (An injected `fetch` is still honoured; it
 * carries that limitation.) Connections are kept alive by Node's global agents.
 */
export const nodeHttpFetch: FetchLike = (url: string, init: FetchInit): Promise<FetchResponseLike> =>
  new Promise((resolve, reject) => {
    const target = splitUrl(url);
    if (target === undefined) {
      reject(new TypeError(`not an http(s) URL: ${url}`));
      return;
    }
    const headers: Record<string, string> = { ...init.headers };
    const streamed = init.body instanceof Readable ? init.body : undefined;
    const bytes = init.body instanceof Readable ? undefined : init.body;
    // a streamed body goes chunked (its length is not known up front)
    if (bytes !== undefined) headers['content-length'] = String(bytes.byteLength);
    const req = (target.secure ? https : http).request(
      {
        protocol: target.secure ? 'https:' : 'http:',
        hostname: target.hostname,
        port: target.port,
        path: target.path,
        method: init.method,
        headers,
        signal: init.signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        const limit = init.maxResponseBytes ?? Number.POSITIVE_INFINITY;
        let size = 0;
        // read on first ask: either whole (arrayBuffer) or as a stream, never both
        let body: Promise<ArrayBuffer> | undefined;
        const readWhole = (): Promise<ArrayBuffer> =>
          new Promise<ArrayBuffer>((resolveBody, rejectBody) => {
            res.on('data', (chunk: Buffer) => {
              size += chunk.byteLength;
              if (size > limit) {
                // stop reading now: a hostile or broken server must not fill the client's memory
                rejectBody(new ResponseTooLargeError(url, limit));
                req.destroy();
                return;
              }
              chunks.push(chunk);
            });
            res.on('end', () => {
              const all = Buffer.concat(chunks);
              resolveBody(all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength));
            });
            res.on('error', rejectBody);
            res.on('aborted', () => rejectBody(new Error('the response was cut short')));
          });
        resolve({
          status: res.statusCode ?? 0,
          headers: {
            forEach(callback: (value: string, name: string) => void): void {
              const raw = res.rawHeaders;
              for (let i = 0; i + 1 < raw.length; i += 2) callback(raw[i + 1]!, raw[i]!.toLowerCase());
            },
          },
          arrayBuffer: () => (body ??= readWhole()),
          stream: () => res,
        });
      },
    );
    req.on('error', reject);
    if (streamed !== undefined) {
      streamed.on('error', (e: Error) => req.destroy(e));
      // an aborted or failed request stops its body (and so the writers behind it)
      req.on('close', () => {
        if (!streamed.readableEnded) streamed.destroy();
      });
      streamed.pipe(req);
      return;
    }
    req.end(bytes === undefined ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });

interface Target {
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: number | undefined;
  /** Path and query as written in the URL. */
  readonly path: string;
}

/** The parts of an absolute http(s) URL, the path and query kept byte for byte. */
function splitUrl(url: string): Target | undefined {
  const m = /^(https?):\/\/([^/?#]+)(.*)$/i.exec(url);
  if (m === null) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(`${m[1]!}://${m[2]!}/`);
  } catch {
    return undefined;
  }
  const rest = m[3]!;
  const hash = rest.indexOf('#');
  const path = hash === -1 ? rest : rest.slice(0, hash);
  return {
    secure: parsed.protocol === 'https:',
    // brackets of an IPv6 literal are not part of the host name Node connects to
    hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port === '' ? undefined : Number(parsed.port),
    path: path === '' ? '/' : path,
  };
}
