import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePdl, schemaToJson, SchemaResolver } from '../../src';
import { runCliInProcess as runCli } from '../support/run-cli';

const FIXTURES = join(__dirname, '../fixtures/pegasus');

describe('svc schema with PDL', () => {
  it('prints a named schema as PDL that reads back to the same schema', async () => {
    const res = await runCli([
      'schema',
      'com.example.photos.Photo',
      '--format',
      'pdl',
      '--resolver-path',
      FIXTURES,
    ]);
    expect(res.code).toBe(0);
    const text = res.stdout.toString('utf8');
    expect(text.startsWith('namespace com.example.photos\n')).toBe(true);
    const original = new SchemaResolver({ resolverPath: [FIXTURES] }).resolve('com.example.photos.Photo');
    const back = parsePdl(text, { resolverPath: [FIXTURES] });
    expect(schemaToJson(back)).toBe(schemaToJson(original));
  });

  it('reads a .pdl file like a .pdsc file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-pdl-cli-'));
    const file = join(dir, 'Point.pdl');
    writeFileSync(file, 'namespace geo\n/**\n * A point.\n */\nrecord Point { x: int, y: optional int = 0 }\n');
    const res = await runCli(['schema', file]);
    expect(res.code).toBe(0);
    expect(res.stdout.toString('utf8')).toBe(
      '{"type":"record","name":"Point","namespace":"geo","doc":"A point.","fields":[{"name":"x","type":"int"},{"name":"y","type":"int","default":0,"optional":true}]}\n',
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a malformed .pdl file with file, line and column, and exits with 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-pdl-cli-'));
    const file = join(dir, 'Bad.pdl');
    writeFileSync(file, 'record Bad {\n  f int\n}\n');
    const res = await runCli(['schema', file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${file}:2:5`);
    expect(res.stderr).toContain('expected ":" after the field name "f"');
    rmSync(dir, { recursive: true, force: true });
  });

  it('translates a tree to PDL and back with --out, keeping every schema equal', async () => {
    const pdlDir = mkdtempSync(join(tmpdir(), 'svc-pdl-tree-'));
    const pdscDir = mkdtempSync(join(tmpdir(), 'svc-pdsc-tree-'));
    const toPdl = await runCli(['schema', FIXTURES, '--format', 'pdl', '--out', pdlDir]);
    expect(toPdl.code).toBe(0);
    const written = toPdl.stdout.toString('utf8').trim().split('\n');
    expect(written.every((f) => f.endsWith('.pdl'))).toBe(true);
    expect(readFileSync(join(pdlDir, 'com/example/photos/Photo.pdl'), 'utf8')).toContain('record Photo');
    const toPdsc = await runCli(['schema', pdlDir, '--format', 'pdsc', '--out', pdscDir]);
    expect(toPdsc.code).toBe(0);
    const a = new SchemaResolver({ resolverPath: [FIXTURES] });
    a.parseDirectory(FIXTURES);
    const b = new SchemaResolver({ resolverPath: [pdscDir] });
    b.parseDirectory(pdscDir);
    const json = (r: SchemaResolver): [string, string][] =>
      [...r.bindings()].map(([n, s]) => [
        n,
        schemaToJson(s, { namedByReference: true }).replace(/^\{"type":"error"/, '{"type":"record"'),
      ]);
    expect(new Map(json(b))).toEqual(new Map(json(a)));
    for (const d of [pdlDir, pdscDir]) rmSync(d, { recursive: true, force: true });
  });

  it('rejects --out without --format pdsc or pdl', async () => {
    const res = await runCli(['schema', FIXTURES, '--out', tmpdir()]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('--out needs --format pdsc or --format pdl');
  });

  it('takes .pdl schemas in svc avro, svc validate and svc generate like .pdsc ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-pdl-cmds-'));
    const pdl = join(dir, 'geo');
    const out = join(dir, 'out');
    mkdirSync(pdl, { recursive: true });
    writeFileSync(join(pdl, 'Point.pdl'), 'namespace geo\nrecord Point { x: int, tag: Tag }\n');
    writeFileSync(
      join(pdl, 'Tag.pdsc'),
      '{ "type": "enum", "name": "Tag", "namespace": "geo", "symbols": ["A"] }',
    );
    const avro = await runCli(['avro', 'to-avro', '--resolver-path', dir, 'geo.Point']);
    expect(avro.code).toBe(0);
    expect(JSON.parse(avro.stdout.toString('utf8'))).toMatchObject({ type: 'record', name: 'Point' });
    const doc = join(dir, 'point.json');
    writeFileSync(doc, '{"x": 1, "tag": "A"}');
    expect((await runCli(['validate', '-s', 'geo.Point', '-r', dir, doc])).code).toBe(0);
    writeFileSync(doc, '{"x": "no", "tag": "A"}');
    expect((await runCli(['validate', '-s', 'geo.Point', '-r', dir, doc])).code).not.toBe(0);
    const gen = await runCli(['generate', out, join(pdl, 'Point.pdl'), '--resolver-path', dir]);
    expect(gen.code).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });
});
