/**
 * The IDL import end to end and on bad input: the example service's IDL exported with `svc idl export`,
 * imported with `svc generate --idl` into a fresh folder, type-checked with `tsc --strict`, and the running
 * example called through the generated module; malformed or unusable IDL files give typed errors naming
 * the file and the JSON path; what Svc passes over is a warning.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  IdlFormatError,
  IdlImportError,
  createResourceClient,
  generateFromIdl,
  type ResourceContracts,
} from '../../src';
import { createExampleApp } from '../../examples/app';

import { runCliInProcess } from '../support/run-cli';
const ROOT = path.join(__dirname, '../..');
const SHOP = path.join(__dirname, 'fixtures/import');
// below test/ so that jest transforms the generated modules and maps 'svc-framework' to src/
const FRESH = path.join(ROOT, 'test/generated/idl-fresh');

async function svc(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const r = await runCliInProcess(args);
  return { status: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr };
}

describe('export, import, type-check, call', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    fs.rmSync(FRESH, { recursive: true, force: true });
    app = await createExampleApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('gives a client of the running example that compiles under --strict', async () => {
    const exported = await svc('idl', 'export', 'examples/interfaces.ts', path.join(FRESH, 'idl'));
    expect(exported.status).toBe(0);
    const generated = await svc(
      'generate',
      '--idl',
      path.join(FRESH, 'idl/idl'),
      '--idl',
      path.join(FRESH, 'idl/snapshot'),
      path.join(FRESH, 'src'),
    );
    expect({ status: generated.status, stderr: generated.stderr }).toEqual({ status: 0, stderr: '' });
    expect(generated.stdout).toContain('com/example/photos/photos.interface.ts');

    // only the generated folder, with the repository's strict settings
    const config = path.join(FRESH, 'tsconfig.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        extends: '../../../tsconfig.json',
        compilerOptions: { noEmit: true, incremental: false, strict: true },
        include: ['src'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', config],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect({ status: tsc.status, output: tsc.stdout + tsc.stderr }).toEqual({ status: 0, output: '' });

    // the generated module, loaded as a user's code would load it
    const photos = (await import(path.join(FRESH, 'src/com/example/photos/photos.interface.ts'))) as {
      photosInterface: ResourceContracts[string];
    };
    const port = (app.server.address() as { port: number }).port;
    const api = createResourceClient(
      { baseUrl: `http://127.0.0.1:${port}` },
      { photos: photos.photosInterface },
    );
    const client = api.photos as unknown as {
      get(id: number): Promise<{ entity: { getTitle(): string } }>;
      finders: { byTag(p: { tag: string }): Promise<{ elements: { getTitle(): string }[] }> };
    };
    expect((await client.get(1)).entity.getTitle()).toBe('Sunrise over the bay');
    const night = await client.finders.byTag({ tag: 'night' });
    expect(night.elements.map((p) => p.getTitle())).toEqual(['Harbour lights', 'Fireworks']);
  }, 180_000);
});

describe('bad IDL', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-idl-import-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const products = (): Record<string, unknown> =>
    JSON.parse(
      fs.readFileSync(path.join(SHOP, 'idl/com.example.shop.products.restspec.json'), 'utf8'),
    ) as Record<string, unknown>;
  const write = (name: string, content: unknown): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };
  const importOne = (file: string) =>
    generateFromIdl({ sources: [file], resolverPath: [path.join(SHOP, 'pegasus')] });
  const withFinderParamType = (type: string): Record<string, unknown> => {
    const r = products();
    const c = r.collection as { finders: { parameters: { type: string }[] }[] };
    c.finders[0]!.parameters[0]!.type = type;
    return r;
  };

  it.each<[string, string, unknown, new (...a: never[]) => Error, RegExp]>([
    [
      'a file that is not JSON',
      'x.restspec.json',
      '{"name": ',
      IdlFormatError,
      /x\.restspec\.json is not a valid IDL file[\s\S]*not JSON/,
    ],
    [
      'a resource without a name',
      'x.restspec.json',
      { path: '/x', simple: { supports: [], entity: { path: '/x' } } },
      IdlFormatError,
      /\/name: field is required/,
    ],
    [
      'a collection without supports',
      'x.restspec.json',
      { ...products(), collection: { ...(products().collection as object), supports: undefined } },
      IdlFormatError,
      /\/collection\/supports: field is required/,
    ],
    [
      'a parameter type that names no schema',
      'x.restspec.json',
      withFinderParamType('com.example.shop.Nowhere'),
      IdlImportError,
      /x\.restspec\.json at \/collection\/finders\/0\/parameters\/0\/type: the type com\.example\.shop\.Nowhere cannot be read/,
    ],
    [
      'a parameter type that is not a schema',
      'x.restspec.json',
      withFinderParamType('{ "type" : "array" }'),
      IdlImportError,
      /\/collection\/finders\/0\/parameters\/0\/type: the type .* cannot be read/,
    ],
    [
      'an unnamed union parameter',
      'x.restspec.json',
      withFinderParamType('[ "int", "string" ]'),
      IdlImportError,
      /\/collection\/finders\/0\/parameters\/0\/type: an unnamed union has no class to carry it/,
    ],
    [
      'a value that is not a record',
      'x.restspec.json',
      { ...products(), schema: 'com.example.shop.ProductKind' },
      IdlImportError,
      /at \/schema: the value of a resource must be a record/,
    ],
    [
      'a batch parameter missing from the parameters',
      'x.restspec.json',
      (() => {
        const r = products();
        (r.collection as { batchFinders: { batchParam: string }[] }).batchFinders[0]!.batchParam = 'nothing';
        return r;
      })(),
      IdlImportError,
      /\/collection\/batchFinders\/0\/batchParam: the batch parameter 'nothing' is not among the parameters/,
    ],
    [
      'a snapshot whose models do not parse',
      'x.snapshot.json',
      { models: [{ type: 'record', name: 'A', fields: [{ name: 'b', type: 'Nope' }] }], schema: products() },
      IdlFormatError,
      /x\.snapshot\.json is not a valid IDL file[\s\S]*\/models/,
    ],
  ])('rejects %s with a typed error naming the file and the path', (_, name, content, type, message) => {
    const file = write(name, content);
    let thrown: unknown;
    try {
      importOne(file);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(type);
    expect((thrown as Error).message).toMatch(message);
  });

  it('rejects a source that does not exist', () => {
    expect(() => importOne(path.join(dir, 'missing'))).toThrow(IdlFormatError);
  });

  it('passes over unknown fields and methods a resource kind lacks, with warnings', () => {
    const r = products();
    (r.collection as { supports: string[] }).supports.push('batch_frobnicate');
    const { warnings, interfaces } = importOne(write('p.restspec.json', r));
    expect(interfaces).toEqual(['com/example/shop/products.interface.ts']);
    expect(warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([
      '/futureTooling: unknown field, passed over',
      '/collection/supports/7: the method batch_frobnicate is not one a collection has: passed over',
    ]);
  });

  it('passes over query parameters of methods other than get_all, reading their types', () => {
    const r = products();
    const methods = (r.collection as { methods: { method: string; parameters?: unknown[] }[] }).methods;
    methods.find((m) => m.method === 'get')!.parameters = [
      { name: 'locale', type: 'com.example.shop.Profile' },
    ];
    const { warnings, files } = importOne(write('p.restspec.json', r));
    expect(warnings.map((w) => `${w.path}: ${w.message}`)).toContain(
      "/collection/methods/1/parameters: the parameters of get have no place in Svc's method specs: passed over",
    );
    expect(files.map((f) => f.path)).toContain('com/example/shop/Profile.ts');
    methods.find((m) => m.method === 'get')!.parameters = [{ name: 'locale', type: 'com.example.Nowhere' }];
    expect(() => importOne(write('q.restspec.json', r))).toThrow(
      /\/collection\/methods\/1\/parameters\/0\/type: the type com\.example\.Nowhere cannot be read/,
    );
  });

  it("keeps a batch method's maxBatchSize in its method spec", () => {
    const r = products();
    const methods = (r.collection as { methods: { method: string; maxBatchSize?: unknown }[] }).methods;
    methods.find((m) => m.method === 'batch_get')!.maxBatchSize = { value: 25, validate: true };
    const { files } = importOne(write('p.restspec.json', r));
    const module = files.find((f) => f.path === 'com/example/shop/products.interface.ts')!;
    expect(module.text).toMatch(/batchGet: \{\s*maxBatchSize: 25,?\s*\}/);
  });

  it('says on the command line what is wrong and exits non-zero', async () => {
    const file = write('x.restspec.json', '[1, 2');
    const r = await svc('generate', '--idl', file, path.join(dir, 'out'));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('x.restspec.json is not a valid IDL file');
    expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
  });

  it('refuses schemas and --idl together, and neither', async () => {
    expect((await svc('generate', '--idl', dir, path.join(dir, 'out'), 'com.example.A')).stderr).toContain(
      'not both',
    );
    expect((await svc('generate', path.join(dir, 'out'))).stderr).toContain('nothing to generate');
  });
});
