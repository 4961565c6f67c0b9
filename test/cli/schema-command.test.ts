import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSchema, SchemaResolver } from '../../src';
import { runCli } from '../support/run-cli';

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
    const dir = mkdtempSync(join(tmpdir(), 'svc-schema-'));
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

  it('documents the environment variable in its help', async () => {
    const res = await runCli(['schema', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout.toString('utf8')).toContain('SVC_RESOLVER_PATH');
  });
});
