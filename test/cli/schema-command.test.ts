import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSchema, SchemaResolver } from '../../src';
import { runCliInProcess as runCli } from '../support/run-cli';
import { tempDirs } from '../support/temp-dirs';

const tempDir = tempDirs('svc-schema-');

const FIXTURES = join(__dirname, '../fixtures/pegasus');

describe('svc schema', () => {
  it('prints a named schema from the resolver path as canonical JSON', async () => {
    const res = await runCli(['schema', 'com.example.photos.Photo', '--resolver-path', FIXTURES]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const expected = new SchemaResolver({ resolverPath: [FIXTURES] })
      .resolve('com.example.photos.Photo')
      .toString();
    expect(res.stdout.toString('utf8')).toBe(`${expected}\n`);
  });

  it('prints a schema file, indented with --pretty, in a form that parses back to the same schema', async () => {
    const file = join(FIXTURES, 'org/acme/graph/AllDefaults.pdsc');
    const res = await runCli(['schema', file, '--pretty'], undefined, { SVC_RESOLVER_PATH: FIXTURES });
    expect(res.code).toBe(0);
    const text = res.stdout.toString('utf8');
    expect(text.startsWith('{\n  "type": "record",\n  "name": "AllDefaults",')).toBe(true);
    const original = new SchemaResolver({ resolverPath: [FIXTURES] }).parseFile(file)[0]!;
    expect(parseSchema(text).equals(original)).toBe(true);
    expect(readFileSync(file, 'utf8')).not.toBe(text);
  });

  it('exits 2 and prints every problem of a broken schema', async () => {
    const dir = tempDir();
    const file = join(dir, 'Broken.pdsc');
    writeFileSync(
      file,
      '{ "type": "record", "name": "Broken", "fields": [\n  { "name": "a", "type": "Nope" },\n  { "name": "b" },\n  { "name": "c", "type": "int", "default": "x" }\n] }',
    );
    const res = await runCli(['schema', file]);
    expect(res.code).toBe(2);
    expect(res.stdout.length).toBe(0);
    expect(res.stderr).toMatch(/^svc: SchemaParseError \[SVC_ERR_SCHEMA_PARSE\]: /);
    const problems = res.stderr
      .replace(/^svc: [^:]+: /, '')
      .trimEnd()
      .split('\n');
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/Broken\.pdsc:2:\d+ \/fields\/0\/type: "Nope" cannot be resolved/);
    expect(problems[1]).toMatch(/Broken\.pdsc:3:\d+ \/fields\/1: type is required/);
    expect(problems[2]).toMatch(/Broken\.pdsc:4:\d+ \/fields\/2\/default: /);
  });

  it('exits 2 for a name that is not on the resolver path', async () => {
    const res = await runCli(['schema', 'com.example.Missing'], undefined, {
      SVC_RESOLVER_PATH: FIXTURES,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('SVC_ERR_SCHEMA_NOT_FOUND');
  });

  describe('schemas Rest.li accepts but that are most likely mistakes', () => {
    const text = [
      '{ "type": "record", "name": "Lenient", "fields": [',
      '  { "name": "i", "type": "int", "default": 1.5 },',
      '  { "name": "e", "type": { "type": "enum", "name": "E", "symbols": [ "A" ], "deprecatedSymbols": { "B": true } } }',
      '] }',
    ].join('\n');
    const write = (): string => {
      const file = join(tempDir(), 'Lenient.pdsc');
      writeFileSync(file, text);
      return file;
    };

    it('prints the schema and each warning on standard error, prefixed WARNING, with its place', async () => {
      const file = write();
      const res = await runCli(['schema', file]);
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout.toString('utf8'))).toMatchObject({ name: 'Lenient' });
      expect(res.stderr.trimEnd().split('\n')).toEqual([
        `WARNING ${file}:2:44 /fields/0/default: default value 1.5 is not an integer; it is read as 1, as Rest.li truncates it for type int`,
        `WARNING ${file}:3:100 /fields/1/type/deprecatedSymbols/B: "B" symbol is referenced by deprecatedSymbols. This symbol does not exist.`,
      ]);
    });

    it('refuses them with --strict, exit 2, as problems at the same places', async () => {
      const file = write();
      const res = await runCli(['schema', file, '--strict']);
      expect(res.code).toBe(2);
      expect(res.stdout.length).toBe(0);
      expect(res.stderr).toMatch(/^svc: SchemaParseError \[SVC_ERR_SCHEMA_PARSE\]: /);
      expect(res.stderr).toContain(`${file}:2:44 /fields/0/default: default value 1.5 is not an integer`);
      expect(res.stderr).toContain(`${file}:3:100 /fields/1/type/deprecatedSymbols/B: "B" symbol`);
      expect(res.stderr).toContain('(refused by strict parsing)');
      expect(res.stderr).not.toContain('WARNING');
    });
  });

  it('refuses a reference to a schema defined later in the file, and accepts it with --allow-forward-references', async () => {
    const file = join(tempDir(), 'Forward.pdsc');
    writeFileSync(
      file,
      '{ "type": "record", "name": "Forward", "fields": [ { "name": "a", "type": "Later" },' +
        ' { "name": "b", "type": { "type": "fixed", "name": "Later", "size": 1 } } ] }',
    );
    const refused = await runCli(['schema', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('/fields/0/type: "Later" cannot be resolved (Later is defined later');
    const accepted = await runCli(['schema', file, '--allow-forward-references']);
    expect(accepted.stderr).toBe('');
    expect(accepted.code).toBe(0);
    expect(parseSchema(accepted.stdout.toString('utf8')).toString()).toContain('"name":"Later"');
  });

  it('documents the environment variable in its help', async () => {
    const res = await runCli(['schema', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout.toString('utf8')).toContain('SVC_RESOLVER_PATH');
  });
});
