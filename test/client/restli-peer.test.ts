/**
 * The typed client talking to a Rest.li server (`headerPrefix: 'X-RestLi'`) puts on the wire the headers a
 * Java Rest.li client sends (wire facts §3.3, plus R2's `X-LI-R2-W-MsgType: REST`): seen by a stub server
 * on a real socket, so nothing between the client and the bytes can add or drop one.
 */
import { createResourceClient } from '../../src';
import { exampleResources } from '../../examples/resources';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { PhotoLibrary } from '../../examples/store';
import { type SeenRequest, StubServer } from './stub-server';

// the client reads the definitions' shapes only; their handlers never run
const [photos] = exampleResources(new PhotoLibrary());

let stub: StubServer;

beforeAll(async () => {
  stub = await StubServer.start();
});
afterAll(async () => {
  await stub.stop();
});
beforeEach(() => {
  stub.seen.length = 0;
});

/** The headers that are not HTTP framing (host, connection, content-length), by lower-case name. */
function protocolHeaders(r: SeenRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(r.headers)) {
    if (name === 'host' || name === 'connection' || name === 'content-length') continue;
    out[name] = String(value);
  }
  return out;
}

describe('the typed client with headerPrefix X-RestLi', () => {
  const api = () => createResourceClient({ baseUrl: stub.baseUrl, headerPrefix: 'X-RestLi' }, { photos });

  it('sends the protocol version and X-LI-R2-W-MsgType: REST on a GET, and nothing of its own', async () => {
    stub.reply(
      200,
      { 'Content-Type': 'application/json', 'X-RestLi-Protocol-Version': '2.0.0' },
      '{"id":1,"title":"Dusk","format":"JPEG"}',
    );
    const r = await api().photos.get(1);
    expect(r.entity.getTitle()).toBe('Dusk');
    expect(stub.last.url).toBe('/photos/1');
    expect(protocolHeaders(stub.last)).toEqual({
      'x-restli-protocol-version': '2.0.0',
      'x-li-r2-w-msgtype': 'REST',
    });
  });

  it('adds Content-Type and the lower-case method header on a POST, as the Java client does', async () => {
    stub.reply(201, { 'X-RestLi-Protocol-Version': '2.0.0', 'X-RestLi-Id': '7' });
    const r = await api().photos.create(new Photo().setTitle('Dawn').setFormat(PhotoFormat.PNG));
    expect(r.id).toBe(7);
    expect(protocolHeaders(stub.last)).toEqual({
      'content-type': 'application/json',
      'x-restli-protocol-version': '2.0.0',
      'x-restli-method': 'create',
      'x-li-r2-w-msgtype': 'REST',
    });
  });

  it('sends no Rest.li transport header with the default X-Svc prefix', async () => {
    stub.reply(200, { 'Content-Type': 'application/json' }, '{"id":1,"title":"Dusk","format":"JPEG"}');
    await createResourceClient({ baseUrl: stub.baseUrl }, { photos }).photos.get(1);
    expect(protocolHeaders(stub.last)).toEqual({ 'x-svc-protocol-version': '2.0.0' });
  });
});
