/**
 * Each PDL feature written once in PDL and once in `.pdsc`, compared through the schema model (canonical
 * JSON of every schema the text defines).
 */
import {
  parsePdl,
  parsePdlWithWarnings,
  parseSchema,
  schemaProblems,
  schemaToJson,
  SchemaResolver,
  schemaToPdl,
  type RecordDataSchema,
} from '../../../src';

interface Feature {
  readonly name: string;
  readonly pdl: string;
  readonly pdsc: string;
}

const FEATURES: readonly Feature[] = [
  {
    name: 'a record with a namespace and primitive fields',
    pdl: 'namespace com.x\nrecord Point { x: int, y: long, z: float, w: double, b: boolean, s: string, by: bytes }',
    pdsc: '{"type":"record","name":"Point","namespace":"com.x","fields":[{"name":"x","type":"int"},{"name":"y","type":"long"},{"name":"z","type":"float"},{"name":"w","type":"double"},{"name":"b","type":"boolean"},{"name":"s","type":"string"},{"name":"by","type":"bytes"}]}',
  },
  {
    name: 'a package',
    pdl: 'namespace com.x\npackage com.y\nrecord P {}',
    pdsc: '{"type":"record","name":"P","namespace":"com.x","package":"com.y","fields":[]}',
  },
  {
    name: 'optional fields and defaults of every JSON form',
    pdl: `record D {
      a: optional int
      b: int = 1
      c: string = "x\\"y"
      d: array[int] = [1, 2]
      e: map[string, long] = { "k": 9007199254740993 }
      f: double = 1.5
      g: boolean = true
      h: union[null, int] = null
      i: float = -2e3
    }`,
    pdsc: `{"type":"record","name":"D","fields":[
      {"name":"a","type":"int","optional":true},
      {"name":"b","type":"int","default":1},
      {"name":"c","type":"string","default":"x\\"y"},
      {"name":"d","type":{"type":"array","items":"int"},"default":[1,2]},
      {"name":"e","type":{"type":"map","values":"long"},"default":{"k":9007199254740993}},
      {"name":"f","type":"double","default":1.5},
      {"name":"g","type":"boolean","default":true},
      {"name":"h","type":["null","int"],"default":null},
      {"name":"i","type":"float","default":-2e3}]}`,
  },
  {
    name: "optional fields in the first grammar's spelling (Type?)",
    pdl: 'record Q { a: int?, b: array[string]? = [], c: Q? }',
    pdsc: `{"type":"record","name":"Q","fields":[
      {"name":"a","type":"int","optional":true},
      {"name":"b","type":{"type":"array","items":"string"},"optional":true,"default":[]},
      {"name":"c","type":"Q","optional":true}]}`,
  },
  {
    name: 'an enum with symbol docs, deprecated symbols and symbol properties',
    pdl: `/** Colours. */
    enum Color {
      /** Like blood. */
      RED
      @deprecated = "use RED"
      CRIMSON
      @color.hex = "00f"
      BLUE
    }`,
    pdsc: '{"type":"enum","name":"Color","doc":" Colours. ","symbols":["RED","CRIMSON","BLUE"],"symbolDocs":{"RED":" Like blood. "},"deprecatedSymbols":{"CRIMSON":"use RED"},"symbolProperties":{"BLUE":{"color":{"hex":"00f"}}}}',
  },
  {
    name: 'the @symbolDocs and @deprecatedSymbols property forms',
    pdl: '@symbolDocs = { "A": "the a" }\n@deprecatedSymbols = { "B": true }\nenum E { A, B }',
    pdsc: '{"type":"enum","name":"E","symbols":["A","B"],"symbolDocs":{"A":"the a"},"deprecatedSymbols":{"B":true}}',
  },
  {
    name: 'fixed',
    pdl: 'namespace a.b\nfixed MD5 16',
    pdsc: '{"type":"fixed","name":"MD5","namespace":"a.b","size":16}',
  },
  {
    name: 'a typeref with a java binding property',
    pdl: '@java.class = "java.time.Instant"\n@java.coercerClass = "a.C"\ntyperef Time = long',
    pdsc: '{"type":"typeref","name":"Time","ref":"long","java":{"class":"java.time.Instant","coercerClass":"a.C"}}',
  },
  {
    name: 'unions with aliased members, docs and properties',
    pdl: `record U {
      u: union[
        /** A number. */
        @p = 1
        num: int,
        text: string
      ]
      v: union[null, int, array[string]]
    }`,
    pdsc: '{"type":"record","name":"U","fields":[{"name":"u","type":[{"alias":"num","type":"int","doc":" A number. ","p":1},{"alias":"text","type":"string"}]},{"name":"v","type":["null","int",{"type":"array","items":"string"}]}]}',
  },
  {
    name: 'includes before and after the fields',
    pdl: 'namespace n\nrecord R { a: { namespace n record B { b: int } } c: record C includes B { c: int } d: record E { e: int } includes B }',
    pdsc: '{"type":"record","name":"R","namespace":"n","fields":[{"name":"a","type":{"type":"record","name":"B","fields":[{"name":"b","type":"int"}]}},{"name":"c","type":{"type":"record","name":"C","include":["B"],"fields":[{"name":"c","type":"int"}]}},{"name":"d","type":{"type":"record","name":"E","fields":[{"name":"e","type":"int"}],"include":["B"]}}]}',
  },
  {
    name: 'inline named types in a namespace scope with a package',
    pdl: 'namespace a\nrecord R { x: { namespace b package p.q enum E { X } }, y: b.E }',
    pdsc: '{"type":"record","name":"R","namespace":"a","fields":[{"name":"x","type":{"type":"enum","name":"E","namespace":"b","package":"p.q","symbols":["X"]}},{"name":"y","type":"b.E"}]}',
  },
  {
    name: 'properties as paths and whole values, with a value-less property',
    pdl: '@a.b.c = 1\n@a.d = [true, null]\n@flag\n@`odd key`.x = { "y": {} }\nrecord P { @validate.strlen.max = 3 @x.y = "z" f: string }',
    pdsc: '{"type":"record","name":"P","a":{"b":{"c":1},"d":[true,null]},"flag":true,"odd key":{"x":{"y":{}}},"fields":[{"name":"f","type":"string","validate":{"strlen":{"max":3}},"x":{"y":"z"}}]}',
  },
  {
    name: '@deprecated, @aliases and @order',
    pdl: 'namespace n\n@deprecated = "gone"\n@aliases = ["Old", "o.Older"]\nrecord R { @deprecated @aliases = ["g"] @order = "DESCENDING" f: int }',
    pdsc: '{"type":"record","name":"R","namespace":"n","deprecated":"gone","aliases":["Old","o.Older"],"fields":[{"name":"f","type":"int","deprecated":true,"aliases":["g"],"order":"descending"}]}',
  },
  {
    name: 'doc comments, on several lines',
    pdl: '/**\n * First line.\n *\n *   indented\n */\nrecord R {\n  /** The f. */\n  f: int\n}',
    pdsc: '{"type":"record","name":"R","doc":"First line.\\n\\n  indented","fields":[{"name":"f","type":"int","doc":" The f. "}]}',
  },
  {
    name: 'escaped identifiers',
    pdl: 'namespace `record`.x\nrecord `enum` { `map`: int, `union`: { namespace y enum `typeref` { `null` } } }',
    pdsc: '{"type":"record","name":"enum","namespace":"record.x","fields":[{"name":"map","type":"int"},{"name":"union","type":{"type":"enum","name":"typeref","namespace":"y","symbols":["null"]}}]}',
  },
  {
    name: 'maps and arrays nested, with properties',
    pdl: 'record M { m: @p = 1 map[string, array[map[string, int]]] }',
    pdsc: '{"type":"record","name":"M","fields":[{"name":"m","type":{"type":"map","values":{"type":"array","items":{"type":"map","values":"int"}},"p":1}}]}',
  },
  {
    name: 'a self reference and comments',
    pdl: '// a list\nnamespace l\n/* not a doc */\nrecord Node { next: optional Node, v: int }',
    pdsc: '{"type":"record","name":"Node","namespace":"l","fields":[{"name":"next","type":"Node","optional":true},{"name":"v","type":"int"}]}',
  },
  {
    name: 'a top-level anonymous type',
    pdl: 'array[int]',
    pdsc: '{"type":"array","items":"int"}',
  },
];

describe('PDL features, each against its .pdsc form', () => {
  it.each(FEATURES)('reads $name like .pdsc', ({ pdl, pdsc }) => {
    const fromPdl = parsePdl(pdl, { file: 'T.pdl' });
    const fromPdsc = parseSchema(pdsc);
    expect(schemaToJson(fromPdl)).toEqual(schemaToJson(fromPdsc));
  });

  it.each(FEATURES)('writes $name as PDL that reads back equal', ({ pdsc }) => {
    const schema = parseSchema(pdsc);
    const pdl = schemaToPdl(schema);
    expect(schemaToJson(parsePdl(pdl))).toEqual(schemaToJson(schema));
  });
});

describe('PDL union properties', () => {
  // A union is a JSON array in .pdsc, so only PDL can give it properties; the model keeps them.
  const TEXT = `namespace n
record R {
  u: @validate.custom = { "n": 1 } @a = "b" union[int, string]
  v: optional @p union[x: int, y: long]
  m: map[string, @q = 2 union[null, long]]
  w: array[@r = [1] union[null, R]]
}`;

  it('keeps them on the union schema, sorted by key, and warns of nothing', () => {
    const { schema, warnings } = parsePdlWithWarnings(TEXT, { file: 'R.pdl' });
    expect(warnings).toEqual([]);
    const u = (schema as RecordDataSchema).getField('u')!.getType();
    expect([...u.getProperties().keys()]).toEqual(['a', 'validate']);
    expect(u.getProperties().get('a')).toBe('b');
  });

  it('writes them back as PDL that reads equal, and they make schemas differ', () => {
    const schema = parsePdl(TEXT);
    const again = parsePdl(schemaToPdl(schema));
    expect(again.equals(schema)).toBe(true);
    expect(schemaToPdl(again)).toBe(schemaToPdl(schema));
    expect(schemaToPdl(schema)).toContain('u: @a = "b" @validate.custom.n = 1 union[int, string]');
    expect(parsePdl(TEXT.replace('@a = "b"', '@a = "c"')).equals(schema)).toBe(false);
  });

  it('refuses a property given twice on a union, at its place', () => {
    const problems = schemaProblems(() =>
      parsePdl('record R { u: @a = 1 @a = 2 union[int] }', { file: 'R.pdl' }),
    );
    expect(problems[0]).toMatchObject({ file: 'R.pdl', line: 1, column: 22 });
    expect(problems[0]!.message).toMatch(/Property already defined: \[a\]/);
  });
});

describe('PDL names and files', () => {
  it('resolves imports before the namespace, and refers across .pdl and .pdsc files', () => {
    const files: Record<string, string> = {
      '/p/a/R.pdl': 'namespace a\nimport b.T\nrecord R { t: T, s: S, u: c.U }',
      '/p/a/S.pdsc': '{"type":"record","name":"S","namespace":"a","fields":[]}',
      '/p/b/T.pdl': 'namespace b\nrecord T {}',
      '/p/c/U.pdsc': '{"type":"record","name":"U","namespace":"c","fields":[]}',
    };
    const fileSystem = {
      readFile: (p: string) => files[p]!,
      isFile: (p: string) => p in files,
      isDirectory: () => false,
      readDir: () => [],
    };
    const r = new SchemaResolver({ resolverPath: ['/p'], fileSystem });
    const rec = r.resolve('a.R') as RecordDataSchema;
    expect(rec.getFields().map((f) => (f.getType() as RecordDataSchema).getFullName())).toEqual([
      'b.T',
      'a.S',
      'c.U',
    ]);
  });

  it('prefers Name.pdl to Name.pdsc in the same directory', () => {
    const files: Record<string, string> = {
      '/p/a/R.pdl': 'namespace a\n/** pdl */ record R {}',
      '/p/a/R.pdsc': '{"type":"record","name":"R","namespace":"a","doc":"pdsc","fields":[]}',
    };
    const r = new SchemaResolver({
      resolverPath: ['/p'],
      fileSystem: {
        readFile: (p) => files[p]!,
        isFile: (p) => p in files,
        isDirectory: () => false,
        readDir: () => [],
      },
    });
    expect(r.resolve('a.R').getDoc()).toBe(' pdl ');
  });

  it('gives the same leniency warnings as .pdsc', () => {
    const { warnings } = parsePdlWithWarnings('record R { i: int = 1.5 }', { file: 'R.pdl' });
    const pdsc = parseSchemaWithWarningsOf(
      '{"type":"record","name":"R","fields":[{"name":"i","type":"int","default":1.5}]}',
    );
    expect(warnings.map((w) => w.message)).toEqual(pdsc);
    expect(warnings[0]).toMatchObject({ file: 'R.pdl', line: 1, column: 21 });
    expect(schemaProblems(() => parsePdl('record R { i: int = 1.5 }', { strict: true }))).toHaveLength(1);
  });
});

function parseSchemaWithWarningsOf(text: string): string[] {
  const r = new SchemaResolver();
  r.parseText(text);
  return r.warnings().map((w) => w.message);
}

interface Bad {
  readonly rule: string;
  readonly text: string;
  readonly line: number;
  readonly column: number;
  readonly message: RegExp;
}

const BAD: readonly Bad[] = [
  {
    rule: 'a missing field type',
    text: 'record R {\n  f:\n}',
    line: 3,
    column: 1,
    message: /expected a type/,
  },
  {
    rule: 'a missing colon',
    text: 'record R { f int }',
    line: 1,
    column: 14,
    message: /expected ":" after the field name "f"/,
  },
  {
    rule: 'both spellings of optional on one field',
    text: 'record R { f: optional int? }',
    line: 1,
    column: 27,
    message: /expected "=" or the next field \("\?" repeats "optional" on the field "f"\) but found "\?"/,
  },
  {
    rule: 'an unclosed record',
    text: 'record R { f: int',
    line: 1,
    column: 18,
    message: /expected a field or "}"/,
  },
  {
    rule: 'a keyword as a name',
    text: 'record record {}',
    line: 1,
    column: 8,
    message: /expected the name of the record but found "record"/,
  },
  {
    rule: 'two declarations',
    text: 'record A {}\nrecord B {}',
    line: 2,
    column: 1,
    message: /expected the end of the text/,
  },
  {
    rule: 'a bad character',
    text: 'record A { f: int; }',
    line: 1,
    column: 18,
    message: /unexpected character ";"/,
  },
  {
    rule: 'an unterminated comment',
    text: 'record A {} /* x',
    line: 1,
    column: 13,
    message: /unterminated comment/,
  },
  {
    rule: 'a bad JSON default',
    text: 'record A { f: int = [1 }',
    line: 1,
    column: 24,
    message: /expected a JSON value/,
  },
  { rule: 'an unterminated string', text: 'record A { f: string = "x }', line: 1, column: 24, message: /./ },
  {
    rule: 'a bad fixed size',
    text: 'fixed F x',
    line: 1,
    column: 9,
    message: /expected the size of the fixed type/,
  },
  {
    rule: 'an unknown name',
    text: 'namespace n\nrecord A { f: Nope }',
    line: 2,
    column: 15,
    message: /"n.Nope" cannot be resolved/,
  },
  {
    rule: 'a property defined twice',
    text: '@a.b = 1\n@a.b = 2\nrecord A {}',
    line: 2,
    column: 1,
    message: /Property already defined/,
  },
  {
    rule: 'a conflicting property path',
    text: '@a = 1\n@a.b = 2\nrecord A {}',
    line: 2,
    column: 1,
    message: /Conflicting property/,
  },
  {
    rule: 'an import from the root namespace',
    text: 'namespace n\nimport n.X\nrecord A {}',
    line: 2,
    column: 8,
    message: /root namespace/,
  },
  {
    rule: 'a map key that is not a string',
    text: 'record A { m: map[int, int] }',
    line: 1,
    column: 19,
    message: /key type of a map must be string/,
  },
  {
    rule: 'a field defined twice',
    text: 'record A { f: int, f: long }',
    line: 1,
    column: 20,
    message: /defined more than once/,
  },
  { rule: 'a bad default type', text: 'record A { f: int = "x" }', line: 1, column: 21, message: /./ },
  {
    rule: 'mixed union aliases',
    text: 'record A { u: union[a: int, string] }',
    line: 1,
    column: 15,
    message: /aliases specified for either all or zero/,
  },
  {
    rule: 'a reserved property name',
    text: '@fields = 1\nrecord A {}',
    line: 1,
    column: 1,
    message: /names a schema attribute/,
  },
  {
    // The one way PDL builds a key twice (symbolDocs), so the duplicated-key check must still run for it.
    rule: 'a duplicated enum symbol with a doc each',
    text: 'record A { e: enum E {\n  /** a */ X\n  /** b */ X } }',
    line: 3,
    column: 3,
    message: /key "X" is defined more than once/,
  },
];

describe('malformed PDL', () => {
  it.each(BAD)('rejects $rule with file, line, column and the rule', ({ text, line, column, message }) => {
    const problems = schemaProblems(() => parsePdl(text, { file: 'bad/A.pdl' }));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatchObject({ file: 'bad/A.pdl', line, column });
    expect(problems[0]!.message).toMatch(message);
  });

  it('rejects nesting past the limit without overflowing the stack', () => {
    const deep = `record A { f: ${'array['.repeat(5000)}int${']'.repeat(5000)} }`;
    expect(schemaProblems(() => parsePdl(deep))[0]!.message).toMatch(/nesting deeper than/);
  });
});
