import type { ResourceRequest } from '../../src/resources';
import { IS_QUERY_TUNNELED, tunnelingFilter } from '../../src/server';

function request(headers: Record<string, string>, body?: string, url = '/photos'): ResourceRequest {
  const q = url.indexOf('?');
  return {
    method: 'POST',
    url,
    path: q === -1 ? url : url.slice(0, q),
    query: q === -1 ? undefined : url.slice(q + 1),
    headers,
    body: body === undefined ? undefined : Buffer.from(body, 'latin1'),
    attributes: new Map(),
  };
}

const run = async (r: ResourceRequest, maxBodyBytes?: number): Promise<ResourceRequest> =>
  // the filter answers synchronously or with a promise, never an Observable
  tunnelingFilter(maxBodyBytes === undefined ? {} : { maxBodyBytes }).request!(r) as
    ResourceRequest | Promise<ResourceRequest>;

describe('the tunneling filter', () => {
  it('passes a request without the override through untouched', async () => {
    const r = request({ 'content-type': 'application/json' }, '{}');
    expect(await run(r)).toBe(r);
  });

  it('restores a form-encoded request and records that it was tunneled', async () => {
    const r = await run(
      request(
        {
          'x-http-method-override': 'GET',
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': '13',
          'x-svc-protocol-version': '2.0.0',
        },
        'ids=List(1,2)',
        '/api/photos?fields=id',
      ),
    );
    expect(r).toMatchObject({
      method: 'GET',
      url: '/api/photos?fields=id&ids=List(1,2)',
      query: 'fields=id&ids=List(1,2)',
      body: undefined,
    });
    expect(r.headers).toEqual({ 'x-svc-protocol-version': '2.0.0' });
    expect(r.attributes.get(IS_QUERY_TUNNELED)).toBe(true);
  });

  it('appends nothing after a bare ?', async () => {
    const r = await run(
      request(
        { 'x-http-method-override': 'DELETE', 'content-type': 'application/x-www-form-urlencoded' },
        'ids=List(1)',
        '/photos?',
      ),
    );
    expect(r.url).toBe('/photos?ids=List(1)');
  });

  it('restores the body and its Content-Type from multipart/mixed', async () => {
    const body =
      '--b\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nids=List(1)\r\n--b\r\nContent-Type: application/x-pson\r\n\r\nPSON\r\n--b--\r\n';
    const r = await run(
      request({ 'x-http-method-override': 'PUT', 'content-type': 'multipart/mixed; boundary="b"' }, body),
    );
    expect(r.method).toBe('PUT');
    expect(r.query).toBe('ids=List(1)');
    expect(Buffer.from(r.body!).toString()).toBe('PSON');
    expect(r.headers).toEqual({ 'content-type': 'application/x-pson', 'content-length': '4' });
  });

  it.each([
    ['a form body', { 'content-type': 'application/x-www-form-urlencoded' }, 'ids=List(1,2,3)'],
    [
      'a multipart part',
      { 'content-type': 'multipart/mixed; boundary=b' },
      '--b\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nids=List(1)\r\n--b\r\nContent-Type: application/json\r\n\r\n{"a":"xxxxxxxx"}\r\n--b--',
    ],
  ])('rejects %s over maxBodyBytes with 413', async (_d, headers, body) => {
    await expect(
      run(request({ 'x-http-method-override': 'PUT', ...headers }, body), 12),
    ).rejects.toMatchObject({
      code: 'SVC_ERR_TUNNEL_TOO_LARGE',
      statusCode: 413,
    });
  });

  it('refuses a bad maxBodyBytes', () => {
    expect(() => tunnelingFilter({ maxBodyBytes: 0 })).toThrow(RangeError);
  });
});
