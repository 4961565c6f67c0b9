/**
 * `svc-framework/client` (src/client/browser.ts) in a browser bundle: esbuild for `platform: 'browser'`
 * without Node polyfills reaches no Node built-in from the entry, nor from a page of the example's
 * interfaces and generated classes; and the bundle runs where there is no `Buffer` or `process`
 * (a bare `vm` context with the web globals only): codecs, request building, templates, the default
 * transport. The same code in a real browser against the running example: browser-client.test.ts.
 */
import vm from 'node:vm';
import { CLIENT_ENTRY, bundleForBrowser } from '../support/bundle';

const EXAMPLE_PAGE = `
  import { createResourceClient } from 'svc-framework';
  import { exampleInterfaces } from './examples/interfaces';
  export const api = createResourceClient({ baseUrl: 'http://127.0.0.1:1' }, exampleInterfaces);
`;

describe('the browser client entry (svc-framework/client)', () => {
  it('tells which import chain reaches a Node built-in (so the checks below can fail)', async () => {
    const { builtins } = await bundleForBrowser({
      contents: "import { readFileSync } from 'node:fs'; readFileSync;",
    });
    expect(builtins).toEqual(['node:fs ← page.ts']);
  });

  it('reaches no Node built-in', async () => {
    expect((await bundleForBrowser(CLIENT_ENTRY)).builtins).toEqual([]);
  });

  it("reaches none from a page of the example's interfaces and generated classes", async () => {
    expect((await bundleForBrowser({ contents: EXAMPLE_PAGE })).builtins).toEqual([]);
  });

  it('runs without Buffer or process: codecs, requests, templates and the web transport', async () => {
    const { code } = await bundleForBrowser(
      {
        contents: `
          import * as svc from 'svc-framework';
          import { Photo } from './examples/src/main/generated/com/example/photos/Photo';
          import { PhotoFormat } from './examples/src/main/generated/com/example/photos/PhotoFormat';
          const map = new svc.DataMap({ title: 'Été ☀', n: 5000000000n, list: new svc.DataList([1, 'x']) });
          const pson = new svc.PsonCodec();
          const json = new svc.JsonCodec();
          const photo = new Photo().setTitle('Harbour').setFormat(PhotoFormat.PNG);
          const schemaBefore = String(photo.schema());
          svc.installSchemaText();
          const schemaAfter = String(photo.schema()).slice(0, 50);
          const request = svc.buildRequest(
            { method: 'batch_get', resource: 'photos', ids: [1, 2] },
            svc.resolveClientOptions({ baseUrl: 'http://h' }),
          );
          const tunneled = svc.tunnelRequest(
            { ...request, body: json.mapToBytes(map), headers: { 'Content-Type': 'application/json' } },
            { threshold: 1, force: false },
          );
          export const out = {
            globals: [typeof Buffer, typeof process],
            pson: json.mapToString(pson.bytesToMap(pson.mapToBytes(map))),
            bytes: [svc.ByteString.fromUtf8('aé').asAvroString(), svc.ByteString.fromAvroString('x\u00ff').equals(svc.ByteString.copy([120, 255]))],
            photo: [photo.getTitle(), photo.getFormat(), photo.data().get('title')],
            url: request.url,
            tunneled: [tunneled.method, tunneled.headers['Content-Type']?.slice(0, 26)],
            transport: svc.resolveClientOptions({ baseUrl: 'http://h' }).fetch === svc.webFetch,
            platform: svc.clientPlatform().name,
            schemaText: [schemaBefore, schemaAfter],
          };
        `,
      },
      { globalName: 'page' },
    );
    const context = vm.createContext({
      TextEncoder,
      TextDecoder,
      URL,
      URLSearchParams,
      AbortController,
      AbortSignal,
      Event,
      EventTarget,
      crypto: globalThis.crypto,
      queueMicrotask,
      setTimeout,
      clearTimeout,
      console,
    });
    const out = vm.runInContext(`${code}; page.out`, context) as Record<string, unknown>;
    expect(out).toEqual({
      globals: ['undefined', 'undefined'],
      pson: '{"title":"Été ☀","n":5000000000,"list":[1,"x"]}',
      bytes: ['aÃ©', true],
      photo: ['Harbour', 'PNG', 'Harbour'],
      url: 'http://h/photos?ids=List(1,2)',
      tunneled: ['POST', 'multipart/mixed; boundary='],
      transport: true,
      platform: 'web',
      // String(schema) is the JSON only once the page installs the writer (README.md of src/client, "Size")
      schemaText: ['RECORD com.example.photos.Photo', '{"type":"record","name":"Photo","namespace":"com.e'],
    });
  });
});
