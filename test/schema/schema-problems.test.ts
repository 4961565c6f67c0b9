import { isSvcError, parseSchema, SchemaParseError, schemaProblems, formatSchemaProblem } from '../../src';

const THREE_PROBLEMS = [
  '{',
  '  "type": "record",',
  '  "name": "Foo",',
  '  "namespace": "com.acme",',
  '  "fields": [',
  '    { "name": "a", "type": "int", "default": "x" },',
  '    { "name": "b", "type": "Missing" },',
  '    { "name": "c", "type": [ "null", "string", "null" ] }',
  '  ]',
  '}',
].join('\n');

describe('SchemaParseError', () => {
  it('collects every problem instead of stopping at the first', () => {
    expect(schemaProblems(() => parseSchema(THREE_PROBLEMS))).toHaveLength(3);
  });

  it('gives each problem its file, JSON path, line and column', () => {
    const problems = schemaProblems(() => parseSchema(THREE_PROBLEMS, { file: 'com/acme/Foo.pdsc' }));
    expect(problems).toEqual([
      {
        file: 'com/acme/Foo.pdsc',
        path: '/fields/0/default',
        line: 6,
        column: 46,
        message: 'default value "x" does not match type int',
      },
      {
        file: 'com/acme/Foo.pdsc',
        path: '/fields/1/type',
        line: 7,
        column: 28,
        message: '"Missing" or "com.acme.Missing" cannot be resolved (no resolver path is set)',
      },
      {
        file: 'com/acme/Foo.pdsc',
        path: '/fields/2/type/2',
        line: 8,
        column: 48,
        message: 'null appears more than once in a union; a union has at most one null member',
      },
    ]);
  });

  it('renders one problem per line, location first', () => {
    let error: unknown;
    try {
      parseSchema(THREE_PROBLEMS, { file: 'com/acme/Foo.pdsc' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SchemaParseError);
    expect((error as Error).message.split('\n')).toEqual([
      'com/acme/Foo.pdsc:6:46 /fields/0/default: default value "x" does not match type int',
      'com/acme/Foo.pdsc:7:28 /fields/1/type: "Missing" or "com.acme.Missing" cannot be resolved (no resolver path is set)',
      'com/acme/Foo.pdsc:8:48 /fields/2/type/2: null appears more than once in a union; a union has at most one null member',
    ]);
  });

  it('is an SvcError with code SVC_ERR_SCHEMA_PARSE and status 400', () => {
    let error: unknown;
    try {
      parseSchema('{ "type": 4 }');
    } catch (err) {
      error = err;
    }
    expect(isSvcError(error, 'SchemaParseError', 'SVC_ERR_SCHEMA_PARSE')).toBe(true);
    expect((error as SchemaParseError).statusCode).toBe(400);
  });

  it('leaves out the file when the text has none', () => {
    const [problem] = schemaProblems(() => parseSchema('{ "type": 4 }'));
    expect(problem).toEqual({
      path: '/type',
      line: 1,
      column: 11,
      message: 'type with value 4 is not a string',
    });
    expect(formatSchemaProblem(problem!)).toBe('1:11 /type: type with value 4 is not a string');
  });

  it('points at the key of a duplicated key', () => {
    const [problem] = schemaProblems(() =>
      parseSchema('{ "type": "fixed", "size": 4,\n  "name": "A", "name": "B" }'),
    );
    expect(problem).toMatchObject({ path: '/name', line: 2, column: 16 });
  });

  it('reports a JSON syntax error at its line and column', () => {
    const [problem] = schemaProblems(() =>
      parseSchema('{\n  "type": "fixed",\n  "name": "md5"\n  "size": 16\n}'),
    );
    expect(problem).toMatchObject({ path: '', line: 4, column: 3 });
    expect(problem!.message).toMatch(/^invalid JSON: Expected ',' or '}' but found/);
  });

  it('locates a problem deep inside a default value', () => {
    const text = [
      '{ "type": "record", "name": "R", "fields": [',
      '  { "name": "m", "type": { "type": "map", "values": { "type": "array", "items": "int" } },',
      '    "default": { "a": [ 1, 2 ], "b/c": [ 3, "four" ] } }',
      '] }',
    ].join('\n');
    const [problem] = schemaProblems(() => parseSchema(text));
    expect(problem).toEqual({
      path: '/fields/0/default/b~1c/1',
      line: 3,
      column: 45,
      message: 'default value "four" does not match type int',
    });
  });

  it('counts columns in UTF-16 code units after non-ASCII text', () => {
    const [problem] = schemaProblems(() =>
      parseSchema('{ "type": "fixed", "doc": "café ☃", "name": "x", "size": -1 }'),
    );
    expect(problem).toMatchObject({ line: 1, column: 58 });
  });

  it('orders problems by their place in the text, whatever step found them', () => {
    const text =
      '{ "type": "record", "name": "R", "fields": [ { "name": "u", "type": [ "int", "int" ] }, { "name": "x", "type": "int", "optional": 1 } ] }';
    const problems = schemaProblems(() => parseSchema(text));
    expect(problems.map((p) => p.path)).toEqual(['/fields/0/type/1', '/fields/1/optional']);
  });

  it('reports a duplicate inline definition where it is, and goes on checking the first one', () => {
    const text = [
      '{ "type": "record", "name": "foo", "fields": [',
      '  { "name": "field1", "type": { "type": "typeref", "name": "ref1", "ref": "xxx" } },',
      '  { "name": "field2", "type": { "type": "typeref", "name": "ref1", "ref": "int" } } ] }',
    ].join('\n');
    expect(schemaProblems(() => parseSchema(text))).toEqual([
      {
        path: '/fields/0/type/ref',
        line: 2,
        column: 75,
        message: '"xxx" cannot be resolved (no resolver path is set)',
      },
      { path: '/fields/1/type/name', line: 3, column: 60, message: '"ref1" already defined at 2:31' },
    ]);
  });

  it('reports problems in every value of a text', () => {
    const text = '{ "type": "fixed", "name": "a", "size": -1 }\n{ "type": "fixed", "name": "b", "size": -2 }';
    expect(schemaProblems(() => parseSchema(text)).map((p) => [p.line, p.message])).toEqual([
      [1, '-1 is negative, size must not be negative'],
      [2, '-2 is negative, size must not be negative'],
    ]);
  });
});
