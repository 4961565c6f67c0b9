/** generateTemplates (files, directories and names as sources) and writeGeneratedFiles. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  NODE_FILE_SYSTEM,
  SchemaParseError,
  type SchemaFileSystem,
  generateTemplates,
  isSvcError,
  writeGeneratedFiles,
} from '../../src';

const FIXTURES = path.join(__dirname, '../fixtures/pegasus');

describe('generateTemplates', () => {
  it('takes full names, found on the resolver path, and generates what they refer to', () => {
    const files = generateTemplates({ sources: ['com.example.photos.Caption'], resolverPath: [FIXTURES] });
    expect(files.map((f) => f.path)).toEqual([
      'com/example/common/Locale.ts',
      'com/example/common/MultiLocaleString.ts',
      'com/example/common/index.ts',
      'com/example/photos/Caption.ts',
      'com/example/photos/index.ts',
    ]);
    expect(files[3]!.text.split('\n')[0]).toContain('from com/example/photos/Caption.pdsc.');
  });

  it('takes schema files with any extension; only .pdsc files are read to resolve names', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-gen-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'thing.json'),
        '{ "type": "record", "name": "Thing", "namespace": "x", "fields": [ { "name": "o", "type": "x.Other" } ] }',
      );
      fs.mkdirSync(path.join(dir, 'x'));
      fs.writeFileSync(
        path.join(dir, 'x/Other.json'),
        '{ "type": "record", "name": "Other", "namespace": "x", "fields": [] }',
      );
      const run = (): unknown =>
        generateTemplates({ sources: [path.join(dir, 'thing.json')], resolverPath: [dir] });
      expect(run).toThrow(SchemaParseError); // x/Other.json is not read
      fs.renameSync(path.join(dir, 'x/Other.json'), path.join(dir, 'x/Other.pdsc'));
      expect((run() as { path: string }[]).map((f) => f.path)).toEqual([
        'x/Other.ts',
        'x/Thing.ts',
        'x/index.ts',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes directories (every .pdsc below)', () => {
    const files = generateTemplates({ sources: [FIXTURES], resolverPath: [FIXTURES] });
    expect(files.filter((f) => !f.path.endsWith('index.ts')).length).toBeGreaterThan(38);
  });

  it('refuses a source that is neither a file nor a name', () => {
    let err: unknown;
    try {
      generateTemplates({ sources: ['no/such/file.pdsc'] });
    } catch (e) {
      err = e;
    }
    expect(isSvcError(err, 'CodegenError', 'SVC_ERR_CODEGEN_INPUT')).toBe(true);
  });

  it('reports a name not on the resolver path as the resolver does', () => {
    expect(() => generateTemplates({ sources: ['com.example.Nope'], resolverPath: [FIXTURES] })).toThrow(
      'schema "com.example.Nope" was not found',
    );
  });

  // Linear work, counted instead of clocked: every schema file is read once, whatever refers to it (the
  // time per schema is `npm run bench -- codegen`, which also generates this tree).
  it('reads each of the 38 fixture schema files once to generate the tree', () => {
    const reads = new Map<string, number>();
    const fileSystem: SchemaFileSystem = {
      ...NODE_FILE_SYSTEM,
      readFile: (file) => {
        reads.set(path.resolve(file), (reads.get(path.resolve(file)) ?? 0) + 1);
        return NODE_FILE_SYSTEM.readFile(file);
      },
    };
    const files = generateTemplates({ sources: [FIXTURES], resolverPath: [FIXTURES], fileSystem });
    const schemaFiles = (fs.readdirSync(FIXTURES, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.pdsc'))
      .map((f) => path.join(FIXTURES, f))
      .sort();
    expect(schemaFiles).toHaveLength(38);
    expect([...reads.keys()].sort()).toEqual(schemaFiles);
    expect([...reads.values()].filter((n) => n !== 1)).toEqual([]);
    expect(files.filter((f) => !f.path.endsWith('index.ts')).length).toBeGreaterThan(38);
  });
});

describe('writeGeneratedFiles', () => {
  it('writes changed files only and, with clean, removes stale ones', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-write-'));
    try {
      const first = writeGeneratedFiles(dir, [
        { path: 'a/A.ts', text: 'a' },
        { path: 'b/B.ts', text: 'b' },
      ]);
      expect(first).toEqual({ written: 2, unchanged: 0, removed: 0 });
      fs.writeFileSync(path.join(dir, 'keep.md'), 'not generated');
      const second = writeGeneratedFiles(dir, [{ path: 'a/A.ts', text: 'a' }], { clean: true });
      expect(second).toEqual({ written: 0, unchanged: 1, removed: 1 });
      expect(fs.existsSync(path.join(dir, 'b'))).toBe(false);
      expect(fs.existsSync(path.join(dir, 'keep.md'))).toBe(true);
      expect(writeGeneratedFiles(dir, [{ path: 'a/A.ts', text: 'a2' }]).written).toBe(1);
      expect(fs.readFileSync(path.join(dir, 'a/A.ts'), 'utf8')).toBe('a2');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
