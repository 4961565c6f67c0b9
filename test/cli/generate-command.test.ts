/** `svc generate`, run in a real child process. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCliInProcess as runCli } from '../support/run-cli';

const ROOT = path.join(__dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/pegasus');

describe('svc generate', () => {
  let out: string;
  beforeEach(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-generate-'));
  });
  afterEach(() => {
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('generates the classes of full names found with --resolver-path', async () => {
    const r = await runCli(['generate', out, 'com.example.photos.Caption', '--resolver-path', FIXTURES]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toMatch(
      /^Generated 5 files into .* \(5 written, 0 unchanged\) in \d+ ms\nImports between generated files .*\n$/,
    );
    const caption = fs.readFileSync(path.join(out, 'com/example/photos/Caption.ts'), 'utf8');
    expect(caption).toContain('export class Caption extends RecordTemplate {');
    expect(caption).toContain("} from 'svc-framework';");
    expect(fs.existsSync(path.join(out, 'com/example/common/MultiLocaleString.ts'))).toBe(true);
    expect(fs.existsSync(path.join(out, 'com/example/photos/index.ts'))).toBe(true);
  });

  it('takes the resolver path as -Dgenerator.resolver.path=...', async () => {
    const r = await runCli([
      'generate',
      out,
      'org.acme.graph.TreeNode',
      `-Dgenerator.resolver.path=/nonexistent:${FIXTURES}`,
    ]);
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(out, 'org/acme/graph/TreeNodeArray.ts'))).toBe(true);
  });

  it('takes the resolver path from GENERATOR_RESOLVER_PATH', async () => {
    const r = await runCli(['generate', out, 'com.example.photos.MD5'], undefined, {
      GENERATOR_RESOLVER_PATH: FIXTURES,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(out, 'com/example/photos/MD5.ts'))).toBe(true);
  });

  it('takes schema files whatever their extension, and an option for the runtime module', async () => {
    const file = path.join(out, 'point.schema');
    fs.writeFileSync(
      file,
      '{ "type": "record", "name": "Point", "namespace": "geo", "fields": [ { "name": "x", "type": "int" } ] }',
    );
    const r = await runCli(['generate', path.join(out, 'gen'), file, '--runtime-module', '@acme/svc']);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(out, 'gen/geo/Point.ts'), 'utf8')).toContain("from '@acme/svc';");
  });

  it('writes .js on imports between generated files into an ES-module package and none into a CommonJS one', async () => {
    const imports = (file: string): string[] =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => /^(import|export \*|\}) .*'\.{1,2}\//.test(l));
    fs.writeFileSync(path.join(out, 'package.json'), '{ "type": "module" }');
    const esm = await runCli([
      'generate',
      path.join(out, 'gen'),
      'com.example.photos.Caption',
      '-r',
      FIXTURES,
    ]);
    expect(esm.code).toBe(0);
    expect(esm.stdout.toString()).toContain(
      `Imports between generated files end in .js (${path.join(out, 'package.json')} makes it an ES module; --import-extension overrides).\n`,
    );
    expect(imports(path.join(out, 'gen/com/example/photos/Caption.ts'))).toEqual([
      "import { Locale, Locale_Fields } from '../common/Locale.js';",
      "import { MultiLocaleString, MultiLocaleString_Fields } from '../common/MultiLocaleString.js';",
    ]);
    expect(imports(path.join(out, 'gen/com/example/photos/index.ts'))).toEqual([
      "export * from './Caption.js';",
    ]);

    fs.writeFileSync(path.join(out, 'package.json'), '{ "type": "commonjs" }');
    const cjs = await runCli([
      'generate',
      path.join(out, 'gen'),
      'com.example.photos.Caption',
      '-r',
      FIXTURES,
    ]);
    expect(cjs.stdout.toString()).toContain('Imports between generated files have no extension (');
    expect(imports(path.join(out, 'gen/com/example/photos/index.ts'))).toEqual([
      "export * from './Caption';",
    ]);

    const forced = await runCli([
      'generate',
      path.join(out, 'gen'),
      'com.example.photos.Caption',
      '-r',
      FIXTURES,
      '--import-extension',
      '.js',
    ]);
    expect(forced.stdout.toString()).toContain(
      'Imports between generated files end in .js (--import-extension).',
    );
    expect(imports(path.join(out, 'gen/com/example/photos/index.ts'))).toEqual([
      "export * from './Caption.js';",
    ]);
  });

  it('fails with exit code 1 when the package.json of the target cannot be read as JSON', async () => {
    fs.writeFileSync(path.join(out, 'package.json'), '{ "type": ');
    const r = await runCli(['generate', path.join(out, 'gen'), 'com.example.photos.MD5', '-r', FIXTURES]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SVC_ERR_CODEGEN_INPUT');
    expect(r.stderr).toContain('--import-extension');
  });

  it('writes unchanged files once, and removes stale ones with --clean', async () => {
    const args = ['generate', out, 'com.example.photos.MD5', '--resolver-path', FIXTURES];
    await runCli(args);
    fs.writeFileSync(path.join(out, 'Stale.ts'), '');
    const again = await runCli([...args, '--clean']);
    expect(again.stdout.toString()).toContain('(0 written, 2 unchanged, 1 removed)');
    expect(fs.existsSync(path.join(out, 'Stale.ts'))).toBe(false);
  });

  it('fails with exit code 2 on a name not found or an unknown property', async () => {
    const notFound = await runCli(['generate', out, 'com.example.Nope', '--resolver-path', FIXTURES]);
    expect(notFound.code).toBe(2);
    expect(notFound.stderr).toContain('SVC_ERR_SCHEMA_NOT_FOUND');
    const badProperty = await runCli(['generate', out, 'com.example.photos.MD5', '-Dgenerator.other=1']);
    expect(badProperty.code).toBe(2);
    expect(badProperty.stderr).toContain('the only property is generator.resolver.path');
    const noSchemas = await runCli(['generate', out]);
    expect(noSchemas.code).toBe(2);
  });

  it('fails with exit code 1 when the schemas cannot be bound', async () => {
    const file = path.join(out, 'bad.pdsc');
    fs.writeFileSync(
      file,
      '{ "type": "record", "name": "R", "fields": [ { "name": "a", "type": "int" }, { "name": "A", "type": "int" } ] }',
    );
    const r = await runCli(['generate', path.join(out, 'gen'), file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SVC_ERR_CODEGEN_NAME_CONFLICT');
  });
});
