import { validateHeaderValue } from 'node:http';
import {
  toHeaderValue,
  fromHeaderValue,
  BASELINE_PROTOCOL_VERSION,
  CLIENT_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  ProtocolHeaders,
  ProtocolVersion,
  ProtocolVersionError,
  getHeader,
  protocolHeaderNames,
  resolveRequestProtocolVersion,
} from '../../src';

function versionError(value: string): ProtocolVersionError {
  try {
    resolveRequestProtocolVersion(value);
  } catch (err) {
    if (err instanceof ProtocolVersionError) return err;
    throw err;
  }
  throw new Error(`no error for ${value}`);
}

describe('protocol versions', () => {
  it('parses x.y.z and ignores a -suffix on the patch part', () => {
    expect(ProtocolVersion.parse('2.0.0').toString()).toBe('2.0.0');
    expect(ProtocolVersion.parse('2.0.0-SNAPSHOT').toString()).toBe('2.0.0');
    expect(ProtocolVersion.parse('1.10.3').minor).toBe(10);
  });

  it('compares numerically, not as text', () => {
    const v = (s: string): ProtocolVersion => ProtocolVersion.parse(s);
    expect(v('1.10.0').compareTo(v('1.9.0'))).toBeGreaterThan(0);
    expect(v('2.0.0').compareTo(v('2.0.0'))).toBe(0);
    expect(v('1.0.1').compareTo(v('2.0.0'))).toBeLessThan(0);
    expect(v('2.0.0').equals(LATEST_PROTOCOL_VERSION)).toBe(true);
  });

  it('sends 2.0.0 from clients', () => {
    expect(CLIENT_PROTOCOL_VERSION).toBe('2.0.0');
  });

  it('assumes 1.0.0 when the header is absent, and echoes that', () => {
    const r = resolveRequestProtocolVersion(undefined);
    expect(r.version.equals(BASELINE_PROTOCOL_VERSION)).toBe(true);
    expect(r.responseValue).toBe('1.0.0');
  });

  it('accepts every version in [1.0.0, 2.0.0] and echoes it normalized', () => {
    expect(resolveRequestProtocolVersion('2.0.0').responseValue).toBe('2.0.0');
    expect(resolveRequestProtocolVersion('1.5.2').responseValue).toBe('1.5.2');
    expect(resolveRequestProtocolVersion('2.0.0-RC1').responseValue).toBe('2.0.0');
  });

  it('rejects a version out of range with 400 naming the supported versions, answering with the newest', () => {
    for (const v of ['3.0.0', '2.0.1', '0.9.9', '99.0.0']) {
      const err = versionError(v);
      expect(err.message).toBe(
        `Rest.li protocol version ${v} used by the client is not supported! Supported versions: 1.0.0 to 2.0.0.`,
      );
      expect(err.statusCode).toBe(400);
      expect(err.code).toBe('SVC_ERR_PROTOCOL_VERSION_UNSUPPORTED');
      expect(err.responseVersion).toBe('2.0.0');
    }
  });

  it('rejects a malformed version with 400 (not a 500) and echoes 1.0.0', () => {
    for (const v of ['2.0', '2', 'two', '2.0.0.0', '+2.0.0', ' 2.0.0', '2.0.x', '']) {
      const err = versionError(v);
      expect(err.message).toBe(`Illegal version ${v} specified. Supported versions: 1.0.0 to 2.0.0.`);
      expect(err.code).toBe('SVC_ERR_PROTOCOL_VERSION_MALFORMED');
      expect(err.statusCode).toBe(400);
      expect(err.responseVersion).toBe('1.0.0');
    }
  });
});

describe('protocol headers', () => {
  it('names the headers from the default prefix', () => {
    expect(protocolHeaderNames()).toEqual({
      prefix: 'X-Svc',
      protocolVersion: 'X-Svc-Protocol-Version',
      method: 'X-Svc-Method',
      id: 'X-Svc-Id',
      errorResponse: 'X-Svc-Error-Response',
    });
  });

  it('names them from a configured prefix, to speak to Rest.li peers', () => {
    const h = new ProtocolHeaders({ headerPrefix: 'X-RestLi' });
    expect(h.names.protocolVersion).toBe('X-RestLi-Protocol-Version');
    expect(h.names.method).toBe('X-RestLi-Method');
    expect(h.names.id).toBe('X-RestLi-Id');
    expect(h.names.errorResponse).toBe('X-RestLi-Error-Response');
  });

  it('refuses a prefix that is not a header token', () => {
    expect(() => protocolHeaderNames('X Svc')).toThrow(TypeError);
  });

  it('reads headers in any case, from Node records and fetch Headers', () => {
    expect(getHeader({ 'x-svc-method': 'batch_create' }, 'X-Svc-Method')).toBe('batch_create');
    expect(getHeader({ 'X-Svc-Method': 'create' }, 'x-svc-method')).toBe('create');
    expect(getHeader({ 'x-svc-method': ['a', 'b'] }, 'X-Svc-Method')).toBe('a');
    expect(getHeader({}, 'X-Svc-Method')).toBeUndefined();
    expect(getHeader(new Headers({ 'X-Svc-Id': '42' }), 'x-svc-id')).toBe('42');
    expect(getHeader(new Headers(), 'x-svc-id')).toBeUndefined();
  });

  it('lets a server accept several prefixes, its own first', () => {
    const h = new ProtocolHeaders({ acceptPrefixes: ['X-RestLi'] });
    expect(h.read({ 'x-restli-method': 'batch_create' }, 'method')).toBe('batch_create');
    expect(h.read({ 'x-restli-method': 'create', 'x-svc-method': 'batch_create' }, 'method')).toBe(
      'batch_create',
    );
    expect(h.read({}, 'protocolVersion')).toBeUndefined();
    expect(h.accepted.map((n) => n.prefix)).toEqual(['X-Svc', 'X-RestLi']);
    expect(new ProtocolHeaders({ acceptPrefixes: ['x-svc'] }).accepted).toHaveLength(1);
  });

  it('uses the 1.0.0 id and error header names only when speaking Rest.li to a 1.0.0 request', () => {
    const restli = new ProtocolHeaders({ headerPrefix: 'X-RestLi' });
    expect(restli.idHeader(BASELINE_PROTOCOL_VERSION)).toBe('X-LinkedIn-Id');
    expect(restli.errorResponseHeader(BASELINE_PROTOCOL_VERSION)).toBe('X-LinkedIn-Error-Response');
    expect(restli.idHeader(LATEST_PROTOCOL_VERSION)).toBe('X-RestLi-Id');
    const svc = new ProtocolHeaders();
    expect(svc.idHeader(BASELINE_PROTOCOL_VERSION)).toBe('X-Svc-Id');
    expect(svc.errorResponseHeader(LATEST_PROTOCOL_VERSION)).toBe('X-Svc-Error-Response');
  });
});

describe('header values', () => {
  it.each<[string, string, string]>([
    ['keeps ASCII as it is', 'a,b c/(d)', 'a,b c/(d)'],
    ['keeps Latin-1 text as Latin-1 bytes, as a Java peer writes and reads it', 'café', 'café'],
    ['sends text beyond Latin-1 as its UTF-8 bytes', 'é☀', '\u00c3\u00a9\u00e2\u0098\u0080'],
    ['escapes control characters, which would end the header', 'a\nb\r\u0000c\u007f', 'a%0Ab%0D%00c%7F'],
    ['keeps tabs', 'a\tb', 'a\tb'],
    ['escapes control characters in UTF-8 text too', '東\n', '\u00e6\u009d\u00b1%0A'],
  ])('%s', (_name, text, wire) => {
    expect(toHeaderValue(text)).toBe(wire);
    // what Node accepts for a header value: Latin-1 characters without controls
    expect(() => validateHeaderValue('x-test', toHeaderValue(text))).not.toThrow();
  });

  it.each<[string, string]>([
    ['東京 ☀', '東京 ☀'],
    ['café', 'café'],
    ['plain', 'plain'],
  ])('reads %s back from the wire form', (text, back) => {
    expect(fromHeaderValue(toHeaderValue(text))).toBe(back);
  });

  it('keeps bytes that are not UTF-8 as read', () => {
    expect(fromHeaderValue('\u00e9t\u00e9')).toBe('été');
  });
});
