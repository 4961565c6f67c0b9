import fc from 'fast-check';
import { parseSchema, schemaProblems, schemasToJson, schemaToJson, SchemaResolver } from '../../src';
import { schemaText } from './schema-arbitraries';

describe('canonical JSON (toString)', () => {
  it('re-parses to an equal schema, and is a fixed point, for any generated schema', () => {
    fc.assert(
      fc.property(schemaText, (text) => {
        const problems = schemaProblems(() => parseSchema(text));
        if (problems.length > 0)
          throw new Error(
            `generated schema did not parse: ${problems.map((p) => p.message).join('; ')}\n${text}`,
          );
        const schema = parseSchema(text);
        const canonical = schema.toString();
        const again = parseSchema(canonical);
        expect(again.equals(schema)).toBe(true);
        expect(again.toString()).toBe(canonical);
        expect(parseSchema(schemaToJson(schema, { indent: 2 })).equals(schema)).toBe(true);
      }),
      { numRuns: Number(process.env.SCHEMA_PROPERTY_RUNS ?? 300) },
    );
  });

  it('writes keys in a fixed order, whatever the order in the input', () => {
    const a = parseSchema(
      '{ "fields": [ { "type": "int", "default": 1, "name": "x" } ], "doc": "d", "name": "R", "type": "record", "namespace": "n", "z": 1, "a": 2 }',
    );
    expect(a.toString()).toBe(
      '{"type":"record","name":"R","namespace":"n","doc":"d","fields":[{"name":"x","type":"int","default":1}],"a":2,"z":1}',
    );
  });

  it('writes a named schema in full once and by full name afterwards', () => {
    const s = parseSchema(
      '{ "type": "record", "name": "a.R", "fields": [ { "name": "x", "type": { "type": "fixed", "name": "F", "size": 1 } }, { "name": "y", "type": "F" } ] }',
    );
    expect(s.toString()).toBe(
      '{"type":"record","name":"R","namespace":"a","fields":[{"name":"x","type":{"type":"fixed","name":"F","size":1}},{"name":"y","type":"a.F"}]}',
    );
  });

  it('writes namespace and package only where they differ from the inherited ones', () => {
    const text =
      '{ "type": "record", "name": "a.R", "package": "p", "fields": [' +
      ' { "name": "x", "type": { "type": "fixed", "name": "a.b.X", "size": 1 } },' +
      ' { "name": "y", "type": { "type": "fixed", "name": "Y", "namespace": "", "package": "q", "size": 1 } } ] }';
    expect(parseSchema(text).toString()).toBe(
      '{"type":"record","name":"R","namespace":"a","package":"p","fields":[{"name":"x","type":{"type":"fixed","name":"X","namespace":"a.b","size":1}},' +
        '{"name":"y","type":{"type":"fixed","name":"Y","namespace":"","package":"q","size":1}}]}',
    );
  });

  it("keeps includes and typerefs, and writes only the record's own fields", () => {
    const text =
      '{ "type": "record", "name": "B", "fields": [ { "name": "b", "type": "int" } ] } { "type": "typeref", "name": "BRef", "ref": "B" } { "type": "record", "name": "C", "include": [ "BRef" ], "fields": [ { "name": "c", "type": "BRef" } ] }';
    expect(parseSchema(text).toString()).toBe(
      '{"type":"record","name":"C","include":[{"type":"typeref","name":"BRef","ref":{"type":"record","name":"B","fields":[{"name":"b","type":"int"}]}}],"fields":[{"name":"c","type":"BRef"}]}',
    );
  });

  it('writes defaults exactly: longs beyond 2^53, bytes as chars, unions with their discriminator', () => {
    const text =
      '{ "type": "record", "name": "R", "fields": [ { "name": "l", "type": "long", "default": 9007199254740993 }, { "name": "b", "type": "bytes", "default": "\\u0000\\u00ff" }, { "name": "u", "type": [ "null", "int" ], "default": { "int": 1 } } ] }';
    expect(parseSchema(text).toString()).toBe(
      '{"type":"record","name":"R","fields":[{"name":"l","type":"long","default":9007199254740993},{"name":"b","type":"bytes","default":"\\u0000ÿ"},{"name":"u","type":["null","int"],"default":{"int":1}}]}',
    );
  });

  it('writes a primitive as its name', () => {
    expect(parseSchema('{ "type": "int" }').toString()).toBe('"int"');
  });

  it('indents on request', () => {
    expect(schemaToJson(parseSchema('{ "type": "array", "items": "int" }'), { indent: 2 })).toBe(
      '{\n  "type": "array",\n  "items": "int"\n}',
    );
  });

  it('writes several schemas as one session would read them', () => {
    const tops = new SchemaResolver().parseText(
      '{ "type": "fixed", "name": "F", "size": 1 } { "type": "array", "items": "F" }',
    );
    const text = schemasToJson(tops);
    expect(text).toBe('{"type":"fixed","name":"F","size":1}\n{"type":"array","items":"F"}');
    expect(new SchemaResolver().parseText(text).every((s, i) => s.equals(tops[i]))).toBe(true);
  });
});
