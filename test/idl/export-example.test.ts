/**
 * The example service's interface description: `exportIdl` over its interfaces, and `svc idl export` over
 * its module (a separate file from export.test.ts: the example's generated classes and the fixtures' share
 * schema names).
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportIdl, idlFileTexts, validateRestSpec, validateSnapshot } from '../../src';
import { exampleInterfaces } from '../../examples/interfaces';
import { runCliInProcess as runCli } from '../support/run-cli';
import { tempDirs } from '../support/temp-dirs';

const tempDir = tempDirs('svc-idl-');

describe('exportIdl over the example service', () => {
  it('exports files that validate against the format schemas', () => {
    const out = exportIdl(Object.values(exampleInterfaces));
    expect(out.restspecs.size).toBe(3);
    for (const [file, spec] of out.restspecs) expect(validateRestSpec(spec, file).warnings).toEqual([]);
    for (const [file, snap] of out.snapshots) expect(validateSnapshot(snap, file).warnings).toEqual([]);
    for (const [file, text] of idlFileTexts(out)) {
      const json: unknown = JSON.parse(text);
      if (file.startsWith('idl/')) validateRestSpec(json, file);
      else validateSnapshot(json, file);
    }
  });
});

describe('svc idl export', () => {
  it('writes the restspec and snapshot of every resource a module exports, and prints their paths', async () => {
    const out = tempDir();
    const res = await runCli(['idl', 'export', 'examples/interfaces.ts', out]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(readdirSync(join(out, 'idl')).sort()).toEqual([
      'com.example.photos.albumEntries.restspec.json',
      'com.example.photos.albums.restspec.json',
      'com.example.photos.photos.restspec.json',
    ]);
    expect(readdirSync(join(out, 'snapshot')).sort()).toEqual([
      'com.example.photos.albumEntries.snapshot.json',
      'com.example.photos.albums.snapshot.json',
      'com.example.photos.photos.snapshot.json',
    ]);
    expect(res.stdout.toString('utf8').trim().split('\n')).toHaveLength(6);
    const text = readFileSync(join(out, 'idl/com.example.photos.photos.restspec.json'), 'utf8');
    expect(validateRestSpec(JSON.parse(text), 'photos').warnings).toEqual([]);
    expect(text).toBe(
      idlFileTexts(exportIdl([exampleInterfaces.photos])).get('idl/com.example.photos.photos.restspec.json'),
    );
  });

  it('exports only the export --export names', async () => {
    const out = tempDir();
    const res = await runCli(['idl', 'export', 'examples/interfaces.ts', out, '--export', 'albumsInterface']);
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(readdirSync(join(out, 'idl'))).toEqual(['com.example.photos.albums.restspec.json']);
    expect(readdirSync(join(out, 'snapshot'))).toEqual(['com.example.photos.albums.snapshot.json']);
  });

  it('exits 2 naming the module when it exports no resources', async () => {
    const dir = tempDir();
    const module = join(dir, 'empty.js');
    writeFileSync(module, 'exports.answer = 42;\n');
    const res = await runCli(['idl', 'export', module, join(dir, 'out')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /CliUsageError \[SVC_ERR_CLI_USAGE\]: .*empty\.js exports no resource definitions or interfaces/,
    );
  });
});
