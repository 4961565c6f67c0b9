/**
 * compressedFetch's inflated-size cap against a decompression bomb served by a fake fetch: 16 MiB of
 * spaces in about 16 KB of gzip is refused with the typed error once 1 MiB has come out, not after
 * inflating it all (the output is counted as the decompressor produces it, in 16 KiB input slices).
 */
import * as zlib from 'node:zlib';
// the modules themselves, not the package root: loading all of it costs seconds per test file
import { compressedFetch } from '../../src/client/compressed-fetch';
import { InflatedResponseTooLargeError } from '../../src/client/errors';
import type { FetchLike } from '../../src/client/options';

const BOMB = zlib.gzipSync(Buffer.alloc(16 * 1024 * 1024, 0x20));

const serving =
  (body: Uint8Array, encoding: string): FetchLike =>
  () =>
    Promise.resolve({
      status: 200,
      headers: {
        forEach: (f: (value: string, name: string) => void) => {
          f('application/json', 'content-type');
          f(encoding, 'content-encoding');
        },
      },
      arrayBuffer: () =>
        Promise.resolve(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer),
    });

describe('compressedFetch', () => {
  it('refuses a gzip bomb past maxInflatedBytes with InflatedResponseTooLargeError', async () => {
    const fetch = compressedFetch(serving(BOMB, 'gzip'), { maxInflatedBytes: 1024 * 1024 });
    const response = await fetch('http://127.0.0.1/x', {
      method: 'GET',
      headers: {},
      signal: new AbortController().signal,
    });
    await expect(response.arrayBuffer()).rejects.toBeInstanceOf(InflatedResponseTooLargeError);
  });

  it("takes the client's maxResponseBytes as the cap when none is given", async () => {
    const fetch = compressedFetch(serving(BOMB, 'gzip'));
    const response = await fetch('http://127.0.0.1/x', {
      method: 'GET',
      headers: {},
      signal: new AbortController().signal,
      maxResponseBytes: 4096,
    });
    await expect(response.arrayBuffer()).rejects.toMatchObject({
      name: 'InflatedResponseTooLargeError',
      maxInflatedBytes: 4096,
    });
  });

  it('refuses an unknown encoding in its options', () => {
    expect(() => compressedFetch(serving(BOMB, 'gzip'), { accept: ['bzip2' as 'gzip'] })).toThrow(TypeError);
  });
});
