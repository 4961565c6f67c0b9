import {
  nodeHttpFetch,
  CodecRegistry,
  DEFAULT_CLIENT_OPTIONS,
  JsonCodec,
  ProtocolVersionOption,
  SvcClient,
  acceptHeaderFor,
  buildAcceptHeader,
  createClient,
  isSvcError,
  resolveClientOptions,
  versionForAnnounced,
} from '../../src';

const base = { baseUrl: 'http://127.0.0.1:8080' };

function errorOf(f: () => unknown): Error & { code?: string; option?: string } {
  try {
    f();
  } catch (e) {
    return e as Error & { code?: string; option?: string };
  }
  throw new Error('expected an error');
}

describe('client options', () => {
  it('fills every default from one place', () => {
    const o = resolveClientOptions(base);
    expect(DEFAULT_CLIENT_OPTIONS).toEqual({
      headerPrefix: 'X-Svc',
      protocolVersion: '2.0.0',
      contentType: 'application/json',
      accept: [],
      timeoutMs: 10000,
      maxResponseBytes: 64 * 1024 * 1024,
      methodHeader: 'post',
      queryTunnelThreshold: 4096,
    });
    expect(o.baseUrl).toBe('http://127.0.0.1:8080');
    expect(o.headerNames.protocolVersion).toBe('X-Svc-Protocol-Version');
    expect(o.protocolVersion).toEqual({ kind: 'fixed', version: expect.objectContaining({ major: 2 }) });
    expect(o.contentType).toBe('application/json');
    expect(o.acceptHeader).toBeUndefined();
    expect(o.timeoutMs).toBe(10000);
    expect(o.fetch).toBe(nodeHttpFetch);
    expect(o.methodHeader).toBe('post');
    expect(o.filters).toEqual([]);
    expect(Object.isFrozen(o)).toBe(true);
    expect(resolveClientOptions(o)).toBe(o);
  });

  it('keeps a base path and drops trailing slashes', () => {
    expect(resolveClientOptions({ baseUrl: 'https://api.example.com/v1//' }).baseUrl).toBe(
      'https://api.example.com/v1',
    );
    expect(resolveClientOptions({ baseUrl: new URL('http://h:1/') }).baseUrl).toBe('http://h:1');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no baseUrl', { baseUrl: undefined }, 'baseUrl'],
    ['a relative baseUrl', { baseUrl: '/photos' }, 'baseUrl'],
    ['a non-http baseUrl', { baseUrl: 'ftp://h' }, 'baseUrl'],
    ['a baseUrl with a query', { baseUrl: 'http://h/?x=1' }, 'baseUrl'],
    ['a baseUrl with credentials', { baseUrl: 'http://u:p@h/' }, 'baseUrl'],
    ['a header prefix that is no token', { headerPrefix: 'X Svc' }, 'headerPrefix'],
    ['an unknown protocol version option', { protocolVersion: 'LATEST' }, 'protocolVersion'],
    ['a content type without a codec', { contentType: 'text/plain' }, 'contentType'],
    ['an accept type without a codec', { accept: ['application/json', 'text/html'] }, 'accept'],
    ['an accept type listed twice', { accept: ['application/json', 'Application/JSON'] }, 'accept'],
    ['a zero timeout', { timeoutMs: 0 }, 'timeoutMs'],
    ['a fractional timeout', { timeoutMs: 1.5 }, 'timeoutMs'],
    ['a timeout beyond what timers hold', { timeoutMs: 2 ** 31 }, 'timeoutMs'],
    ['a zero response limit', { maxResponseBytes: 0 }, 'maxResponseBytes'],
    ['a fractional response limit', { maxResponseBytes: 10.5 }, 'maxResponseBytes'],
    ['a response limit that is not a number', { maxResponseBytes: '1MB' }, 'maxResponseBytes'],
    ['a signal that is not one', { signal: {} }, 'signal'],
    ['a header with a newline', { headers: { 'X-A': 'a\nb' } }, 'headers'],
    ['an unknown method header mode', { methodHeader: 'never' }, 'methodHeader'],
    ['filters that are not functions', { filters: [() => undefined, 'x'] }, 'filters'],
    ['attachments that cannot write or read a message', { attachments: { relatedBody() {} } }, 'attachments'],
    [
      'an announced version that is neither string nor function',
      { announcedProtocolVersion: 2 },
      'announcedProtocolVersion',
    ],
  ])('refuses %s, naming the option', (_what, bad, option) => {
    const err = errorOf(() => resolveClientOptions({ ...base, ...bad }));
    expect(isSvcError(err, 'ClientOptionsError', 'SVC_ERR_CLIENT_BAD_OPTIONS')).toBe(true);
    expect(err.option).toBe(option);
    expect(err.message).toContain(`'${option}'`);
  });

  it('accepts Infinity as no timeout', () => {
    expect(resolveClientOptions({ ...base, timeoutMs: Infinity }).timeoutMs).toBe(Infinity);
  });

  it('accepts only types its codecs read', () => {
    const onlyJson = new CodecRegistry().register(new JsonCodec());
    expect(() =>
      resolveClientOptions({ ...base, codecs: onlyJson, contentType: 'application/x-pson' }),
    ).toThrow(/contentType/);
    expect(
      resolveClientOptions({ ...base, codecs: onlyJson, accept: ['application/json; charset=utf-8'] }).accept,
    ).toEqual(['application/json']);
  });
});

describe('protocol version option', () => {
  it('speaks 2.0.0 by default and with FORCE_USE_LATEST / FORCE_USE_NEXT', () => {
    for (const protocolVersion of [
      undefined,
      '2.0.0',
      'FORCE_USE_LATEST',
      'FORCE_USE_NEXT',
      '2.0.0-SNAPSHOT',
    ]) {
      const o = resolveClientOptions({
        ...base,
        ...(protocolVersion === undefined ? {} : { protocolVersion }),
      });
      expect(o.protocolVersion.kind === 'fixed' && o.protocolVersion.version.toString()).toBe('2.0.0');
    }
  });

  it('refuses 1.0.0 clearly, and versions it does not know', () => {
    for (const v of ['1.0.0', ProtocolVersionOption.FORCE_USE_PREVIOUS, '3.0.0', '0.9.0']) {
      const err = errorOf(() => new SvcClient({ ...base, protocolVersion: v }));
      expect(isSvcError(err, 'UnsupportedProtocolVersionError', 'SVC_ERR_CLIENT_VERSION_UNSUPPORTED')).toBe(
        true,
      );
    }
    expect(errorOf(() => createClient({ ...base, protocolVersion: '1.0.0' })).message).toBe(
      'Protocol version 1.0.0 is not supported: the client encodes requests in protocol 2.0.0 only (1.0.0 writes keys, lists and records differently)',
    );
    expect(errorOf(() => createClient({ ...base, protocolVersion: '2.0' })).message).toMatch(
      /'2.0' is neither a version/,
    );
  });

  it('follows the reference for USE_LATEST_IF_AVAILABLE', () => {
    expect(versionForAnnounced(undefined).toString()).toBe('2.0.0');
    expect(versionForAnnounced('2.0.0').toString()).toBe('2.0.0');
    expect(versionForAnnounced('3.1.0').toString()).toBe('2.0.0');
    expect(() => versionForAnnounced('1.0.0')).toThrow(
      /Protocol version 1.0.0 \(announced by the server: 1.0.0\) is not supported/,
    );
    expect(() => versionForAnnounced('1.5.0')).toThrow(/1.5.0/);
    expect(() => versionForAnnounced('0.1.0')).toThrow(/below the earliest supported version 1.0.0/);
    expect(() => versionForAnnounced('two')).toThrow(/malformed/);
  });

  it('asks for the announced version once per resource name', async () => {
    const asked: string[] = [];
    const client = new SvcClient({
      ...base,
      protocolVersion: 'USE_LATEST_IF_AVAILABLE',
      announcedProtocolVersion: (resource) => {
        asked.push(resource);
        return Promise.resolve(resource === 'legacy' ? '1.0.0' : undefined);
      },
    });
    expect((await client.protocolVersionFor('photos')).toString()).toBe('2.0.0');
    expect((await client.protocolVersionFor('photos/{id}/tags')).toString()).toBe('2.0.0');
    await expect(client.protocolVersionFor('legacy')).rejects.toMatchObject({
      code: 'SVC_ERR_CLIENT_VERSION_UNSUPPORTED',
    });
    await expect(client.protocolVersionFor('legacy')).rejects.toMatchObject({
      code: 'SVC_ERR_CLIENT_VERSION_UNSUPPORTED',
    });
    expect(asked).toEqual(['photos', 'legacy']);
    const r = await client.prepare({ method: 'get', resource: 'photos', key: 1 });
    expect(r.headers['X-Svc-Protocol-Version']).toBe('2.0.0');
  });

  it('asks again after a failed lookup', async () => {
    let calls = 0;
    const client = new SvcClient({
      ...base,
      protocolVersion: 'USE_LATEST_IF_AVAILABLE',
      announcedProtocolVersion: () => {
        calls++;
        if (calls === 1) throw new Error('discovery down');
        return '2.0.0';
      },
    });
    await expect(client.protocolVersionFor('photos')).rejects.toThrow('discovery down');
    expect((await client.protocolVersionFor('photos')).toString()).toBe('2.0.0');
    expect(calls).toBe(2);
  });

  it('takes a fixed announced version', async () => {
    const client = new SvcClient({
      ...base,
      protocolVersion: 'USE_LATEST_IF_AVAILABLE',
      announcedProtocolVersion: '1.0.0',
    });
    await expect(client.send({ method: 'get', resource: 'photos', key: 1 })).rejects.toMatchObject({
      name: 'UnsupportedProtocolVersionError',
    });
  });
});

describe('Accept q-values', () => {
  const types = Array.from({ length: 12 }, (_, i) => `application/t${i}`);

  it('matches the reference where it has no floating-point artefact, and rounds where it has', () => {
    const ours = acceptHeaderFor(types.slice(0, 4))!;
    const reference = buildAcceptHeader(types.slice(0, 4))!;
    expect(reference).toBe(
      'application/t0;q=1.0,application/t1;q=0.9,application/t2;q=0.8,application/t3;q=0.7000000000000001',
    );
    expect(ours).toBe('application/t0;q=1.0,application/t1;q=0.9,application/t2;q=0.8,application/t3;q=0.7');
  });

  it('writes RFC 9110 q-values (at most three decimals), never 0 or negative', () => {
    const header = acceptHeaderFor(types)!;
    const qs = header.split(',').map((p) => p.split(';q=')[1]!);
    expect(qs).toEqual(['1.0', '0.9', '0.8', '0.7', '0.6', '0.5', '0.4', '0.3', '0.2', '0.1', '0.1', '0.1']);
    for (const q of qs) expect(q).toMatch(/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/);
  });
});
