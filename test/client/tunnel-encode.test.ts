import { type HttpRequest, RequestBuildError, createClient, readMultipart, tunnelRequest } from '../../src';

function req(method: HttpRequest['method'], uri: string, body?: string, contentType?: string): HttpRequest {
  return {
    resourceMethod: 'get',
    method,
    url: `http://h/${uri}`,
    uri,
    headers: {
      'X-Svc-Protocol-Version': '2.0.0',
      ...(contentType === undefined ? {} : { 'Content-Type': contentType }),
    },
    body: body === undefined ? undefined : Buffer.from(body),
    bodyData: undefined,
  };
}

describe('tunnel encoding', () => {
  it.each([
    [3, true],
    [4, false],
  ])('tunnels the 3-character query x=1 at threshold %d: %s (>=)', (threshold, tunneled) => {
    const r = tunnelRequest(req('GET', 'photos?x=1'), { force: false, threshold });
    expect(r.method === 'POST').toBe(tunneled);
  });

  it('never tunnels a request without a query, even forced', () => {
    const r = req('GET', 'photos');
    expect(tunnelRequest(r, { force: true, threshold: 1 })).toBe(r);
  });

  it('sends a request without a body as a form with the query byte for byte', () => {
    const r = tunnelRequest(req('GET', 'photos?ids=List(1,%27a%27)'), { force: true, threshold: false });
    expect(r).toMatchObject({ method: 'POST', url: 'http://h/photos', uri: 'photos' });
    expect(r.headers).toEqual({
      'X-Svc-Protocol-Version': '2.0.0',
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-HTTP-Method-Override': 'GET',
      'Content-Length': '19',
    });
    expect(Buffer.from(r.body!).toString()).toBe('ids=List(1,%27a%27)');
  });

  it('sends a request with a body as multipart/mixed: the query, then the body', async () => {
    const r = tunnelRequest(req('PUT', 'photos?ids=List(1)', '{"a":1}', 'application/json'), {
      force: true,
      threshold: false,
    });
    const boundary = /^multipart\/mixed; boundary="([^"]+)"$/.exec(r.headers['Content-Type']!)![1]!;
    expect(r.headers['X-HTTP-Method-Override']).toBe('PUT');
    expect(r.headers['Content-Length']).toBe(String(r.body!.byteLength));
    const parts = await readMultipart(r.body!, { boundary });
    expect(parts.map((p) => [p.headers.get('content-type'), p.body.toString()])).toEqual([
      ['application/x-www-form-urlencoded', 'ids=List(1)'],
      ['application/json', '{"a":1}'],
    ]);
  });

  it('refuses a body without a Content-Type before sending', () => {
    expect(() =>
      tunnelRequest(req('PUT', 'photos?ids=List(1)', '{}'), { force: true, threshold: false }),
    ).toThrow(RequestBuildError);
  });

  it('applies the client threshold (default 4096), the per-request threshold and the force option', () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:1' });
    const ids = Array.from({ length: 2000 }, (_, i) => i);
    const base = { method: 'batch_get', resource: 'photos', ids } as const;
    expect(client.buildRequest(base).method).toBe('POST');
    expect(client.buildRequest({ ...base, ids: [1] }).method).toBe('GET');
    expect(client.buildRequest({ ...base, ids: [1], forceQueryTunnel: true }).method).toBe('POST');
    expect(client.buildRequest({ ...base, queryTunnelThreshold: false }).method).toBe('GET');
    expect(createClient({ baseUrl: 'http://h', queryTunnelThreshold: false }).buildRequest(base).method).toBe(
      'GET',
    );
    expect(() => createClient({ baseUrl: 'http://h', queryTunnelThreshold: 0 })).toThrow(
      /queryTunnelThreshold/,
    );
  });
});
