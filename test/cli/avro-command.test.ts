import { join } from 'node:path';
import { parseSchema, SchemaResolver, SchemaTranslator } from '../../src';
import { runCliInProcess as runCli } from '../support/run-cli';

const FIXTURES = join(__dirname, '../fixtures/pegasus');
const AVSC = join(__dirname, '../schema/avro/fixtures');

describe('svc avro', () => {
  it('to-avro translates a schema found by name on the resolver path', async () => {
    const res = await runCli(['avro', 'to-avro', '--resolver-path', FIXTURES, 'com.example.common.Money']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const schema = new SchemaResolver({ resolverPath: [FIXTURES] }).resolve('com.example.common.Money');
    expect(res.stdout.toString('utf8')).toBe(`${SchemaTranslator.dataToAvroSchemaJson(schema)}\n`);
  });

  it('to-avro reads a schema file or standard input, with every option', async () => {
    const text =
      '{ "type": "record", "name": "Foo", "namespace": "x", "fields": [ { "name": "o", "type": "int", "optional": true, "default": 1 }, { "name": "t", "type": { "type": "typeref", "name": "T", "ref": "int", "validate": {} } } ] }';
    const res = await runCli(
      [
        'avro',
        'to-avro',
        '-',
        '--optional-default-mode',
        'TRANSLATE_TO_NULL',
        '--default-field-mode',
        'TRANSLATE',
        '--embed-schema',
        'ROOT_ONLY',
        '--style',
        'spaces',
        '--override-namespace',
        '--exclude-typeref-properties',
        'validate, java',
      ],
      text,
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.toString('utf8')).toBe(
      `${SchemaTranslator.dataToAvroSchemaJson(parseSchema(text), {
        optionalDefaultMode: 'TRANSLATE_TO_NULL',
        embedSchemaMode: 'ROOT_ONLY',
        style: 'SPACES',
        overrideNamespace: true,
        typerefPropertiesExcludeSet: ['validate', 'java'],
      })}\n`,
    );
    const file = await runCli([
      'avro',
      'to-avro',
      join(FIXTURES, 'com/example/photos/LatLong.pdsc'),
      '--style',
      'indented',
    ]);
    expect(file.code).toBe(0);
    expect(file.stdout.toString('utf8')).toMatch(/^{\n {2}"type" : "record",\n {2}"name" : "LatLong",/);
  });

  it('from-avro prints the canonical schema, resolving names from .avsc files', async () => {
    const res = await runCli(['avro', 'from-avro', join(AVSC, 'org/example/chain/Tail.avsc')]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.toString('utf8')).toBe(
      '{"type":"record","name":"Tail","namespace":"org.example.chain","fields":[{"name":"count","type":"int","default":42,"optional":true}]}\n',
    );
    const head = await runCli([
      'avro',
      'from-avro',
      '--avro-path',
      AVSC,
      '--mode',
      'TRANSLATE',
      '--pretty',
      join(AVSC, 'org/example/chain/Head.avsc'),
    ]);
    expect(head.code).toBe(0);
    expect(head.stdout.toString('utf8')).toContain('\n  "name": "Head",\n');
  });

  it('to-avro and from-avro round-trip a schema through pipes', async () => {
    const avro = await runCli([
      'avro',
      'to-avro',
      '--resolver-path',
      FIXTURES,
      '--embed-schema',
      'ROOT_ONLY',
      'com.example.photos.Photo',
    ]);
    expect(avro.code).toBe(0);
    const back = await runCli(['avro', 'from-avro', '--mode', 'VERIFY_EMBEDDED_SCHEMA', '-'], avro.stdout);
    expect(back.stderr).toBe('');
    expect(back.code).toBe(0);
    const photo = new SchemaResolver({ resolverPath: [FIXTURES] }).resolve('com.example.photos.Photo');
    expect(parseSchema(back.stdout.toString('utf8')).equals(photo)).toBe(true);
  });

  it.each([
    [
      'a union default not of the first member',
      ['avro', 'to-avro', '--resolver-path', FIXTURES, 'org.acme.graph.AllDefaults'],
      '',
      /SchemaTranslationError \[SVC_ERR_AVRO_SCHEMA_TRANSLATION\]: ERROR :: \/org.acme.graph.AllDefaults\/aUnion :: cannot translate union value/,
    ],
    [
      'an unknown name',
      ['avro', 'to-avro', '--resolver-path', FIXTURES, 'com.example.Nope'],
      '',
      /SVC_ERR_SCHEMA_NOT_FOUND/,
    ],
    [
      'neither a file nor a name',
      ['avro', 'to-avro', 'no such file.pdsc'],
      '',
      /SchemaParseError \[SVC_ERR_SCHEMA_PARSE\]: no such file.pdsc: cannot read the file/,
    ],
    [
      'a bad option value',
      ['avro', 'to-avro', '--style', 'pretty', 'x.Y'],
      '',
      /argument 'pretty' is invalid/,
    ],
    [
      'Avro that is not JSON',
      ['avro', 'from-avro', '-'],
      '{"type":',
      /SchemaTranslationError \[SVC_ERR_AVRO_SCHEMA_PARSE\]: the Avro schema is not JSON/,
    ],
    ['an undefined Avro name', ['avro', 'from-avro', '-'], '"a.Missing"', /type "a.Missing" is not defined/],
    ['a missing argument', ['avro', 'from-avro'], '', /missing required argument/],
  ])('exits with 2 on %s', async (_label, args, stdin, message) => {
    const res = await runCli(args, stdin);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stdout.length).toBe(0);
  });
});
