import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliInProcess as runCli } from '../support/run-cli';
import { tempDirs } from '../support/temp-dirs';
import {
  compatExitCode,
  failsAt,
  parseCompatLevel,
  type CompatLevel,
} from '../../src/idl/compat/compat-level';

const tempDir = tempDirs('svc-compat-');

function snapshot(fields: readonly object[], symbols: readonly string[] = ['A', 'B']): string {
  return JSON.stringify({
    models: [
      { type: 'enum', name: 'Tone', namespace: 'com.example', symbols },
      { type: 'record', name: 'Photo', namespace: 'com.example', fields },
    ],
    schema: {
      name: 'photos',
      namespace: 'com.example',
      path: '/photos',
      schema: 'com.example.Photo',
      collection: {
        identifier: { name: 'photosId', type: 'long' },
        supports: ['get'],
        methods: [{ method: 'get' }],
        finders: [{ name: 'byTone', parameters: [{ name: 'tone', type: 'com.example.Tone' }] }],
        entity: { path: '/photos/{photosId}' },
      },
    },
  });
}

const title = { name: 'title', type: 'string' };
const FILE = 'com.example.photos.snapshot.json';

function dirWith(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('compat levels', () => {
  it.each([
    ['off', [false, false, false]],
    ['ignore', [false, false, false]],
    ['wire-compatible', [true, false, false]],
    ['backwards', [true, true, false]],
    ['equivalent', [true, true, true]],
  ] as const)('at %s, fails on [breaking, wire-compatible, compatible] = %j', (level, expected) => {
    expect([
      failsAt('breaking', level),
      failsAt('wire-compatible', level),
      failsAt('compatible', level),
    ]).toEqual(expected);
  });

  it('reads level names in any case, with _ or -', () => {
    expect(['BACKWARDS', 'Wire_Compatible', 'equivalent', 'nope'].map(parseCompatLevel)).toEqual([
      'backwards',
      'wire-compatible',
      'equivalent',
      undefined,
    ]);
  });

  it('exits 0 with no changes at any level', () => {
    expect((['equivalent', 'backwards'] as CompatLevel[]).map((l) => compatExitCode([], l))).toEqual([0, 0]);
  });
});

describe('svc compat', () => {
  const old = dirWith({ [FILE]: snapshot([title]) });
  const optionalAdded = dirWith({
    [FILE]: snapshot([title, { name: 'caption', type: 'string', optional: true }]),
  });
  const requiredAdded = dirWith({ [FILE]: snapshot([title, { name: 'owner', type: 'string' }]) });
  const symbolAdded = dirWith({ [FILE]: snapshot([title], ['A', 'B', 'C']) });

  const cases = [
    [
      'a compatible change',
      optionalAdded,
      { off: 0, ignore: 0, 'wire-compatible': 0, backwards: 0, equivalent: 1 },
    ],
    [
      'a wire-compatible change',
      symbolAdded,
      { off: 0, ignore: 0, 'wire-compatible': 0, backwards: 1, equivalent: 1 },
    ],
    [
      'a breaking change',
      requiredAdded,
      { off: 0, ignore: 0, 'wire-compatible': 1, backwards: 1, equivalent: 1 },
    ],
  ] as const;
  // One row per (change, level): each runs the CLI in its own process.
  it.each(
    cases.flatMap(([what, dir, codes]) =>
      Object.entries(codes).map(([level, code]) => [what, level, code, dir] as const),
    ),
  )('for %s at level %s, exits %d', async (_what, level, code, dir) => {
    const res = await runCli(['compat', join(old, FILE), join(dir, FILE), '--level', level]);
    expect(res.code).toBe(code);
  });

  it('prints the changes grouped by class and exits 1 on a breaking change at the default level', async () => {
    const res = await runCli(['compat', join(old, FILE), join(requiredAdded, FILE)]);
    expect(res.code).toBe(1);
    const out = res.stdout.toString('utf8');
    expect(out).toContain(
      'Breaking changes (1):\n  /models/com.example.Photo: new record added required fields owner, breaks new readers [TYPE_BREAKS_NEW_READER]',
    );
    expect(out).toContain('1 breaking, 0 wire-compatible, 0 compatible: check FAILED at level backwards.');
    expect(res.stderr).toContain('[SVC_ERR_COMPAT_FAILED]');
  });

  it('prints JSON with --json', async () => {
    const res = await runCli([
      'compat',
      join(old, FILE),
      join(symbolAdded, FILE),
      '--json',
      '--level',
      'ignore',
    ]);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout.toString('utf8')) as {
      passed: boolean;
      counts: object;
      changes: { kind: string; class: string }[];
    };
    expect(report.passed).toBe(true);
    expect(report.counts).toEqual({ breaking: 0, 'wire-compatible': 1, compatible: 0 });
    expect(report.changes.map((c) => [c.kind, c.class])).toEqual([['ENUM_VALUE_ADDED', 'wire-compatible']]);
  });

  it('pairs directories by file name and reports removed and added resources', async () => {
    const before = dirWith({
      [FILE]: snapshot([title]),
      'com.example.gone.snapshot.json': snapshot([title]),
    });
    const after = dirWith({
      [FILE]: snapshot([title]),
      'com.example.fresh.snapshot.json': snapshot([title]),
    });
    const res = await runCli(['compat', before, after, '--json']);
    const report = JSON.parse(res.stdout.toString('utf8')) as { changes: { path: string; kind: string }[] };
    expect(report.changes.map((c) => [c.path, c.kind])).toEqual([
      ['/com.example.gone.snapshot.json', 'RESOURCE_MISSING'],
      ['/com.example.fresh.snapshot.json', 'RESOURCE_NEW'],
    ]);
    expect(res.code).toBe(1);
  });

  it('compares two schema trees: removed schemas breaking, added compatible', async () => {
    const pdsc = (fields: object[]): string =>
      JSON.stringify({ type: 'record', name: 'Photo', namespace: 'com.example', fields });
    const before = dirWith({
      'com/example/Photo.pdsc': pdsc([title]),
      'com/example/Tone.pdl': 'namespace com.example\nenum Tone { A, B }\n',
    });
    const after = dirWith({
      'com/example/Photo.pdsc': pdsc([title, { name: 'caption', type: 'string', optional: true }]),
      'com/example/Album.pdl': 'namespace com.example\nrecord Album { name: string }\n',
    });
    const res = await runCli(['compat', before, after, '--json', '--level', 'ignore']);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout.toString('utf8')) as {
      input: string;
      changes: { path: string; kind: string; class: string }[];
    };
    expect(report.input).toBe('schema');
    expect(report.changes.map((c) => [c.path, c.kind, c.class])).toEqual([
      ['/com.example.Album', 'TYPE_INFO', 'compatible'],
      ['/com.example.Photo', 'TYPE_INFO', 'compatible'],
      ['/com.example.Tone', 'BREAK_OLD_CLIENTS', 'breaking'],
    ]);
  });

  it.each([
    [
      'a missing file',
      (d: string) => [join(d, 'nope.snapshot.json'), join(d, 'nope.snapshot.json')],
      /nope\.snapshot\.json: cannot be read/,
    ],
    [
      'a file that is not JSON',
      (d: string) => [join(d, 'bad.snapshot.json'), join(d, FILE)],
      /bad\.snapshot\.json at \/: not JSON/,
    ],
    [
      'a snapshot without its resource',
      (d: string) => [join(d, 'empty.snapshot.json'), join(d, FILE)],
      /empty\.snapshot\.json at \/schema: field is required/,
    ],
    ['a file with a directory', (d: string) => [join(d, FILE), d], /cannot compare a file with a directory/],
    [
      'an unknown level',
      (d: string) => [join(d, FILE), join(d, FILE), '--level', 'strict'],
      /Allowed: off, ignore/,
    ],
  ] as const)('exits 2 with a typed error for %s', async (_what, args, message) => {
    const d = dirWith({
      [FILE]: snapshot([title]),
      'bad.snapshot.json': '{ nope',
      'empty.snapshot.json': '{"models": []}',
    });
    const res = await runCli(['compat', ...args(d)]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });

  it('names the error code of malformed input', async () => {
    const d = dirWith({ 'bad.snapshot.json': '[]', [FILE]: snapshot([title]) });
    const res = await runCli(['compat', join(d, 'bad.snapshot.json'), join(d, FILE)]);
    expect(res.stderr).toMatch(/^svc: CompatInputError \[SVC_ERR_COMPAT_INPUT\]: /);
  });

  it('documents the exit codes in --help', async () => {
    const res = await runCli(['compat', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout.toString('utf8')).toContain('Exit codes:\n  0  the check passed');
  });
});
