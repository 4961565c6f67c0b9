import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import {
  isSvcError,
  NODE_FILE_SYSTEM,
  parseSchema,
  SchemaResolver,
  schemaProblems,
  type NamedDataSchema,
  type RecordDataSchema,
  type SchemaFileSystem,
  type SchemaParseError,
} from '../../src';

/** An in-memory file system that records what was read. */
class MemoryFileSystem implements SchemaFileSystem {
  readonly reads: string[] = [];
  readonly probes: string[] = [];
  constructor(readonly files: Map<string, string>) {}
  static of(files: Record<string, string>): MemoryFileSystem {
    return new MemoryFileSystem(new Map(Object.entries(files).map(([p, t]) => [join(p), t])));
  }
  readFile(path: string): string {
    this.reads.push(join(path));
    const text = this.files.get(join(path));
    if (text === undefined) throw new Error(`ENOENT: no such file, open '${path}'`);
    return text;
  }
  isFile(path: string): boolean {
    this.probes.push(join(path));
    return this.files.has(join(path));
  }
  isDirectory(path: string): boolean {
    const prefix = join(path) + sep;
    return [...this.files.keys()].some((f) => f.startsWith(prefix));
  }
  readDir(path: string): string[] {
    const prefix = join(path) + sep;
    const names = new Set<string>();
    for (const f of this.files.keys())
      if (f.startsWith(prefix)) names.add(f.slice(prefix.length).split(sep)[0]!);
    return [...names];
  }
}

const record = (ns: string, name: string, fields = '[]', extra = ''): string =>
  `{ "type": "record", "name": "${name}", "namespace": "${ns}", "fields": ${fields}${extra} }`;

function caught(fn: () => unknown): SchemaParseError {
  try {
    fn();
  } catch (err) {
    return err as SchemaParseError;
  }
  throw new Error('expected a SchemaParseError');
}

describe('SchemaResolver', () => {
  it('maps a full name to <dir>/a/b/Name.pdsc', () => {
    const fs = MemoryFileSystem.of({ '/p/com/acme/Foo.pdsc': record('com.acme', 'Foo') });
    const foo = new SchemaResolver({ resolverPath: ['/p'], fileSystem: fs }).resolve('com.acme.Foo');
    expect(foo.getFullName()).toBe('com.acme.Foo');
    expect(fs.reads).toEqual([join('/p/com/acme/Foo.pdsc')]);
  });

  it('tries the resolver path entries in order and takes the first file found', () => {
    const fs = MemoryFileSystem.of({
      '/b/x/Foo.pdsc': record('x', 'Foo', '[]', ', "doc": "from b"'),
      '/c/x/Foo.pdsc': record('x', 'Foo', '[]', ', "doc": "from c"'),
    });
    const foo = new SchemaResolver({ resolverPath: ['/a', '/b', '/c'], fileSystem: fs }).resolve('x.Foo');
    expect(foo.getDoc()).toBe('from b');
    expect(fs.probes).toEqual([
      join('/a/x/Foo.pdl'),
      join('/a/x/Foo.pdsc'),
      join('/b/x/Foo.pdl'),
      join('/b/x/Foo.pdsc'),
    ]);
  });

  it('goes on to the next entry when a file does not define the name', () => {
    const fs = MemoryFileSystem.of({
      '/a/x/Foo.pdsc': record('x', 'NotFoo'),
      '/b/x/Foo.pdsc': record('x', 'Foo'),
    });
    const resolver = new SchemaResolver({ resolverPath: ['/a', '/b'], fileSystem: fs });
    expect(resolver.resolve('x.Foo').getFullName()).toBe('x.Foo');
    expect(resolver.getBinding('x.NotFoo')).toBeDefined();
  });

  it('reads only .pdsc files while resolving (a Foo.json next to a missing Foo.pdsc is not read)', () => {
    const fs = MemoryFileSystem.of({
      '/p/x/Foo.json': record('x', 'Foo'),
      '/p/x/Bar.pdsc': record('x', 'Bar', '[ { "name": "foo", "type": "Foo" } ]'),
    });
    const resolver = new SchemaResolver({ resolverPath: ['/p'], fileSystem: fs });
    const error = caught(() => resolver.resolve('x.Bar'));
    expect(error.problems.map((p) => p.message)).toEqual([
      `"Foo" or "x.Foo" cannot be resolved (looked for x/Foo.{pdl,pdsc} and Foo.{pdl,pdsc} in /p)`,
    ]);
    expect([...fs.reads, ...fs.probes].every((p) => /\.pdl$|\.pdsc$/.test(p))).toBe(true);
    expect(fs.reads).toEqual([join('/p/x/Bar.pdsc')]);
  });

  it('says which directories and files were tried when a name is not found', () => {
    const fs = MemoryFileSystem.of({
      '/a/x/Foo.pdsc': record('x', 'Other'),
      '/b/y/Z.pdsc': record('y', 'Z'),
    });
    const error = caught(() =>
      new SchemaResolver({ resolverPath: ['/a', '/b'], fileSystem: fs }).resolve('x.Foo'),
    );
    expect(isSvcError(error, 'SchemaParseError', 'SVC_ERR_SCHEMA_NOT_FOUND')).toBe(true);
    expect(error.statusCode).toBe(404);
    expect(error.message).toBe(
      `schema "x.Foo" was not found: tried ${join('/a/x/Foo.pdl')}, ${join('/a/x/Foo.pdsc')}, ${join('/b/x/Foo.pdl')}, ${join('/b/x/Foo.pdsc')}; ${join('/a/x/Foo.pdsc')} was read but does not define x.Foo`,
    );
  });

  it('says so when the resolver path is empty', () => {
    expect(caught(() => new SchemaResolver().resolve('x.Foo')).message).toBe(
      'schema "x.Foo" was not found: the resolver path is empty',
    );
  });

  it('names resolver path entries that are not directories', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-schema-'));
    try {
      writeFileSync(join(dir, 'schemas.jar'), 'PK');
      const error = caught(() =>
        new SchemaResolver({ resolverPath: [join(dir, 'schemas.jar')] }).resolve('x.Foo'),
      );
      expect(error.message).toContain(`not a directory: ${join(dir, 'schemas.jar')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolves mutual references across files', () => {
    const fs = MemoryFileSystem.of({
      '/p/hr/Employee.pdsc': record(
        'hr',
        'Employee',
        '[ { "name": "dept", "type": "Department", "optional": true } ]',
      ),
      '/p/hr/Department.pdsc': record('hr', 'Department', '[ { "name": "head", "type": "Employee" } ]'),
    });
    const resolver = new SchemaResolver({ resolverPath: ['/p'], fileSystem: fs });
    const employee = resolver.resolve('hr.Employee') as RecordDataSchema;
    const department = employee.getField('dept')!.getType() as RecordDataSchema;
    expect(department.getFullName()).toBe('hr.Department');
    expect(department.getField('head')!.getType()).toBe(employee);
  });

  it('resolves a reference to a type defined inline in another file once that file is parsed (directory parse, any order)', () => {
    const fs = MemoryFileSystem.of({
      '/p/a/A.pdsc': record('a', 'A', '[ { "name": "inner", "type": "b.Inner" } ]'),
      '/p/b/B.pdsc': record(
        'b',
        'B',
        '[ { "name": "inner", "type": { "type": "fixed", "name": "Inner", "size": 2 } } ]',
      ),
    });
    const tops = new SchemaResolver({ resolverPath: ['/p'], fileSystem: fs }).parseDirectory('/p');
    expect(tops.map((s) => (s as NamedDataSchema).getFullName())).toEqual(['a.A', 'b.B']);
  });

  it('parses each file once and caches it by path and by name', () => {
    const fs = MemoryFileSystem.of({
      '/p/x/A.pdsc': record('x', 'A', '[ { "name": "b", "type": "B" }, { "name": "c", "type": "x.C" } ]'),
      '/p/x/B.pdsc': record('x', 'B', '[ { "name": "c", "type": "C" } ]'),
      '/p/x/C.pdsc': record('x', 'C'),
    });
    const resolver = new SchemaResolver({ resolverPath: ['/p'], fileSystem: fs });
    const a = resolver.resolve('x.A');
    expect(resolver.resolve('x.A')).toBe(a);
    resolver.resolve('x.C');
    resolver.parseFile('/p/x/B.pdsc');
    resolver.parseDirectory('/p');
    expect(fs.reads.sort()).toEqual([join('/p/x/A.pdsc'), join('/p/x/B.pdsc'), join('/p/x/C.pdsc')]);
    expect(resolver.parsedFiles()).toHaveLength(3);
  });

  it('uses the schemas of a file parsed with parseFile when resolving names', () => {
    const fs = MemoryFileSystem.of({
      '/elsewhere/common.json': record('x', 'Common'),
      '/p/x/User.pdsc': record('x', 'User', '[ { "name": "c", "type": "Common" } ]'),
    });
    const resolver = new SchemaResolver({ resolverPath: ['/p'], fileSystem: fs });
    expect(resolver.parseFile('/elsewhere/common.json').map((s) => s.getType())).toEqual(['RECORD']);
    expect(resolver.resolve('x.User').getFullName()).toBe('x.User');
  });

  it('reports a file that cannot be read', () => {
    const error = caught(() =>
      new SchemaResolver({ fileSystem: MemoryFileSystem.of({}) }).parseFile('/nope/Foo.pdsc'),
    );
    expect(error.problems).toEqual([
      {
        file: '/nope/Foo.pdsc',
        path: '',
        message: "cannot read the file: ENOENT: no such file, open '/nope/Foo.pdsc'",
      },
    ]);
  });

  it('reports problems of a file read on the way with that file and its lines', () => {
    const fs = MemoryFileSystem.of({
      '/p/x/A.pdsc': record('x', 'A', '[ { "name": "b", "type": "B" } ]'),
      '/p/x/B.pdsc':
        '{ "type": "record", "name": "B", "namespace": "x",\n  "fields": [ { "name": "n", "type": "int", "default": "one" } ] }',
    });
    const error = caught(() => new SchemaResolver({ resolverPath: ['/p'], fileSystem: fs }).resolve('x.A'));
    expect(error.problems).toEqual([
      {
        file: join('/p/x/B.pdsc'),
        path: '/fields/0/default',
        line: 2,
        column: 56,
        message: 'default value "one" does not match type int',
      },
    ]);
  });

  it('leaves the resolver as it was when a parse fails, so a fixed file is read again', () => {
    const fs = MemoryFileSystem.of({
      '/p/x/A.pdsc': record('x', 'A', '[ { "name": "b", "type": "B" } ]'),
      '/p/x/B.pdsc': record('x', 'B', '[ { "name": "n", "type": "nope" } ]'),
    });
    const resolver = new SchemaResolver({ resolverPath: ['/p'], fileSystem: fs });
    expect(() => resolver.resolve('x.A')).toThrow('cannot be resolved');
    expect(resolver.bindings().size).toBe(0);
    expect(resolver.parsedFiles()).toEqual([]);
    fs.files.set(join('/p/x/B.pdsc'), record('x', 'B'));
    expect(resolver.resolve('x.A').getFullName()).toBe('x.A');
  });

  it("reports a name defined in text that a parsed file already defines, with that file's location", () => {
    const fs = MemoryFileSystem.of({ '/p/x/A.pdsc': record('x', 'A') });
    const resolver = new SchemaResolver({ resolverPath: ['/p'], fileSystem: fs });
    resolver.resolve('x.A');
    const [problem] = schemaProblems(() => resolver.parseText(record('x', 'A'), 'mine.pdsc'));
    expect(problem!.message).toBe(`"x.A" already defined at ${join('/p/x/A.pdsc')}:1:1`);
  });

  it('parses every .pdsc file below a directory in one session, skipping other files', () => {
    const fs = MemoryFileSystem.of({
      '/p/x/A.pdsc': record('x', 'A', '[ { "name": "z", "type": "y.Z" } ]'),
      '/p/x/notes.txt': 'not a schema',
      '/p/x/y/Z.pdsc': '{ "type": "fixed", "name": "y.Z", "size": 1 }',
    });
    const resolver = new SchemaResolver({ fileSystem: fs });
    expect(resolver.parseDirectory('/p').map((s) => (s as NamedDataSchema).getFullName())).toEqual([
      'x.A',
      'y.Z',
    ]);
    expect(fs.reads.every((p) => p.endsWith('.pdsc'))).toBe(true);
  });

  it('refuses to parse a directory that does not exist', () => {
    expect(
      caught(() => new SchemaResolver({ fileSystem: MemoryFileSystem.of({}) }).parseDirectory('/none'))
        .problems,
    ).toEqual([{ file: '/none', path: '', message: 'not a directory' }]);
  });

  it('splits a resolver path written as text on colons', () => {
    expect(SchemaResolver.parseResolverPath('a:b::c/d:')).toEqual(['a', 'b', 'c/d']);
    expect(new SchemaResolver({ resolverPath: 'x:y' }).getResolverPath()).toEqual(['x', 'y']);
  });

  it('lets parseSchema find referenced names on a resolver path', () => {
    const fs = MemoryFileSystem.of({
      '/p/x/Urn.pdsc': '{ "type": "typeref", "name": "x.Urn", "ref": "string" }',
    });
    const resolver = new SchemaResolver({ resolverPath: ['/p'], fileSystem: fs });
    const schema = parseSchema('{ "type": "array", "items": "x.Urn" }', { resolver });
    expect(schema.toString()).toBe(
      '{"type":"array","items":{"type":"typeref","name":"Urn","namespace":"x","ref":"string"}}',
    );
  });

  it('reads real directories with the default file system', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-schema-'));
    try {
      const file = join(dir, 'com', 'acme', 'Thing.pdsc');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, record('com.acme', 'Thing', '[ { "name": "id", "type": "long" } ]'));
      const resolver = new SchemaResolver({ resolverPath: `${dir}:${join(dir, 'missing')}` });
      expect(resolver.resolve('com.acme.Thing').getLocation()).toEqual({ file, line: 1, column: 1 });
      expect(NODE_FILE_SYSTEM.isDirectory(dir)).toBe(true);
      const loaded = parseSchema('{ "type": "map", "values": "com.acme.Thing" }', { resolverPath: [dir] });
      expect(loaded.getType()).toBe('MAP');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
