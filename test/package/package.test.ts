/**
 * The package as npm ships it and as consumers load it: the files `npm pack` takes, and
 * `require('svc-framework')`, `import ... from 'svc-framework'` and TypeScript's resolution going through
 * the `exports` map. Always the current sources: the package is staged in a temp directory this file owns
 * (the repository's files as git sees them, tracked or not ignored, so never a stale dist/), built there as
 * `npm install` would (`tsc -p tsconfig.build.json`), and removed afterwards; the repository's own dist/ is
 * neither read nor written. The consumer is a sibling directory whose node_modules/svc-framework links to
 * the staged package, as an installed package would sit there.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { blocksOf } from '../docs/doc-blocks';

const ROOT = path.join(__dirname, '../..');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
};

let stage: string;
/** The staged package: the repository's files and a dist/ built from them. */
let pkg: string;
let consumer: string;
/** The packed package (`npm pack`) and the files it holds. */
let tarball: string;
let packedFiles: string[];

/** npm as the tests run it: never asking the registry (no update check, no audit). */
const NPM_ENV = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_offline: 'true',
};

/**
 * The shells' stdin: Node's default pipes are socket pairs, and Debian's bash takes a socket on stdin (when
 * not started from another shell) for a remote shell's and reads /etc/bash.bashrc, whose `$PS1` test fails
 * under `-u` ("PS1: unbound variable" on stderr: seen when jest was started outside a shell).
 */
const NOT_A_SOCKET: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];

/** Copies the files git sees in the repository (tracked, or new and not ignored) into `to`. */
function copyRepository(to: string): void {
  const ls = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (ls.status !== 0) throw new Error(`git ls-files failed:\n${ls.stderr}`);
  for (const file of ls.stdout.split('\0').filter((f) => f !== '')) {
    const from = path.join(ROOT, file);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet in the index
    fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    fs.copyFileSync(from, path.join(to, file));
  }
}

beforeAll(() => {
  stage = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-package-')));
  pkg = path.join(stage, 'svc-framework');
  copyRepository(pkg);
  expect(fs.existsSync(path.join(pkg, 'dist'))).toBe(false);
  // the build and the package's own require() calls find the repository's dependencies
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'), 'dir');
  const build = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    { cwd: pkg, encoding: 'utf8' },
  );
  if (build.status !== 0)
    throw new Error(`tsc -p tsconfig.build.json failed:\n${build.stdout}${build.stderr}`);
  // the rest of `npm run build`: the ES module build of the client entry
  const esm = spawnSync(process.execPath, ['scripts/build-client-esm.mjs'], { cwd: pkg, encoding: 'utf8' });
  if (esm.status !== 0) throw new Error(`build-client-esm.mjs failed:\n${esm.stdout}${esm.stderr}`);
  // the tarball npm would publish (packed once: the file list below and the getting-started project use it)
  const pack = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', stage], {
    cwd: pkg,
    encoding: 'utf8',
    env: NPM_ENV,
  });
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  const [packed] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packedFiles = packed!.files.map((f) => f.path);
  tarball = path.join(stage, packed!.filename);
  consumer = path.join(stage, 'consumer');
  fs.mkdirSync(path.join(consumer, 'node_modules'), { recursive: true });
  fs.symlinkSync(pkg, path.join(consumer, 'node_modules/svc-framework'), 'dir');
  fs.writeFileSync(path.join(consumer, 'package.json'), '{ "name": "consumer", "private": true }');
}, 180_000);

afterAll(() => {
  if (stage !== undefined) fs.rmSync(stage, { recursive: true, force: true });
});

/** Runs node in the consumer directory. */
function node(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: consumer, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the packed package', () => {
  it('holds the compiled code, the command, the sources its maps point at, the docs, and no tests', () => {
    const files = packedFiles;
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'bin/svc.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/main.js',
    ]) {
      expect({ file: f, packed: files.includes(f) }).toEqual({ file: f, packed: true });
    }
    const tops = [...new Set(files.map((f) => f.split('/')[0]))].sort();
    expect(tops).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'bin',
      'dist',
      'docs',
      'package.json',
      'src',
    ]);
    // every source map points at a source the package ships
    const maps = files.filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(100);
    const missing = maps.flatMap((m) => {
      const { sources } = JSON.parse(fs.readFileSync(path.join(pkg, m), 'utf8')) as { sources: string[] };
      return sources
        .map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(m), s)))
        .filter((s) => !files.includes(s));
    });
    expect(missing).toEqual([]);
    // every document the README names (src/*/README.md, docs/*.md) travels with it
    const readme = fs.readFileSync(path.join(pkg, 'README.md'), 'utf8');
    const named = [...new Set(readme.match(/\b(?:src|docs)\/[\w/.-]+\.md\b/g) ?? [])];
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((f) => !files.includes(f))).toEqual([]);
  });

  it('ships a compiled module for every source file of the work tree', () => {
    const below = (dir: string): string[] =>
      (fs.readdirSync(dir, { recursive: true }) as string[]).map((f) => f.split(path.sep).join('/'));
    const sources = below(path.join(ROOT, 'src'))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    const compiled = below(path.join(pkg, 'dist'));
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.filter((f) => !compiled.includes(`${f}.js`) || !compiled.includes(`${f}.d.ts`))).toEqual(
      [],
    );
  });

  it('maps the package root to the compiled entry, types condition first, as TypeScript requires', () => {
    const manifest = PACKAGE as unknown as {
      exports: Record<string, unknown>;
      main: string;
      types: string;
      bin: Record<string, string>;
      files: string[];
    };
    expect(manifest.exports).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      // the client entry as an ES module for `import` (bundlers, <script type=module>), CommonJS for require
      './client': {
        import: { types: './dist/esm/client.d.mts', default: './dist/esm/client.mjs' },
        types: './dist/client/browser.d.ts',
        default: './dist/client/browser.js',
      },
      // PostgreSQL support on a subpath of its own, so that services without a database never load `pg`
      './postgres': { types: './dist/postgres/index.d.ts', default: './dist/postgres/index.js' },
      './package.json': './package.json',
    });
    expect(Object.keys(manifest.exports['.'] as object)[0]).toBe('types');
    // resolvers that predate exports (TypeScript's node10, old bundlers) read these
    expect([manifest.main, manifest.types, manifest.bin['svc']]).toEqual([
      'dist/index.js',
      'dist/index.d.ts',
      'bin/svc.js',
    ]);
    expect(manifest.files).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md']));
  });

  it('ships the Apache-2.0 license package.json names', () => {
    expect(PACKAGE.license).toBe('Apache-2.0');
    const text = fs.readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
    expect(text).toMatch(/^\s+Apache License\n\s+Version 2\.0, January 2004\n/);
    expect(text).toContain('TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION');
    expect(text).toContain('END OF TERMS AND CONDITIONS');
  });
});

describe('a consumer of the package', () => {
  it("require('svc-framework') loads dist/index.js through the exports map", () => {
    const r = node([
      '-e',
      "const svc = require('svc-framework');" +
        "console.log(require.resolve('svc-framework'), typeof svc.DataMap, typeof svc.createResourceClient," +
        "require('svc-framework/package.json').version)",
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${path.join(pkg, 'dist/index.js')} function function ${PACKAGE.version}\n`);
  });

  it("require('svc-framework/client') loads the browser client entry, whose default transport is fetch", () => {
    const r = node([
      '-e',
      "const c = require('svc-framework/client');" +
        "console.log(require.resolve('svc-framework/client'), typeof c.createResourceClient, c.clientPlatform().name," +
        "c.resolveClientOptions({ baseUrl: 'http://h' }).fetch === c.webFetch, typeof c.nodeHttpFetch)",
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${path.join(pkg, 'dist/client/browser.js')} function web true undefined\n`);
  });

  it('imports named exports from an ES module', () => {
    const r = node([
      '--input-type=module',
      '-e',
      "import { DataMap, JsonCodec, svcPlugin } from 'svc-framework';" +
        "console.log(import.meta.resolve('svc-framework'), new JsonCodec().mapToString(new DataMap({ a: 1 })), typeof svcPlugin)",
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`file://${path.join(pkg, 'dist/index.js')} {"a":1} function\n`);
  });

  it("import('svc-framework/client') loads the ES module build of the client entry", () => {
    const r = node([
      '--input-type=module',
      '-e',
      "const c = await import('svc-framework/client');" +
        "console.log(import.meta.resolve('svc-framework/client'), typeof c.createResourceClient, c.clientPlatform().name)",
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`file://${path.join(pkg, 'dist/esm/client.mjs')} function web\n`);
    // one module: nothing of the CommonJS build (and no Node built-in) is loaded
    const code = fs.readFileSync(path.join(pkg, 'dist/esm/client.mjs'), 'utf8');
    expect(code.match(/\brequire\(|from ["']node:/g)).toBeNull();
  });

  it('type-checks a browser project (no Node types, DOM lib) against the client entry and generated classes', () => {
    // the example's interfaces and generated classes, which import 'svc-framework', mapped to the client
    // entry's declarations as a browser project maps it (src/client/README.md, "In the browser")
    const dir = fs.mkdtempSync(path.join(consumer, 'browser-'));
    fs.cpSync(path.join(ROOT, 'examples/src/main/generated'), path.join(dir, 'src/main/generated'), {
      recursive: true,
    });
    fs.copyFileSync(path.join(ROOT, 'examples/interfaces.ts'), path.join(dir, 'interfaces.ts'));
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'esnext',
          moduleResolution: 'bundler',
          lib: ['dom', 'es2022'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          paths: { 'svc-framework': ['./node_modules/svc-framework/dist/client/browser.d.ts'] },
        },
        files: ['page.ts'],
      }),
    );
    fs.symlinkSync(path.join(consumer, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    fs.writeFileSync(
      path.join(dir, 'page.ts'),
      [
        "import { attachmentStreams, createResourceClient, writerFromBlob } from 'svc-framework/client';",
        "import { exampleInterfaces } from './interfaces';",
        "import { Photo } from './src/main/generated/com/example/photos/Photo';",
        "import { PhotoFormat } from './src/main/generated/com/example/photos/PhotoFormat';",
        'const api = createResourceClient({ baseUrl: location.origin }, exampleInterfaces);',
        'export async function run(file: Blob, signal: AbortSignal): Promise<string[]> {',
        '  const got = await api.photos.get(1, { signal, acceptResponseAttachments: true });',
        '  const out: string[] = [got.entity.getTitle()];',
        '  const reader = got.getAttachmentReader();',
        '  if (reader !== undefined)',
        '    for await (const { id, stream } of attachmentStreams(reader))',
        '      out.push(`${id}: ${(await new Response(stream).blob()).size}`);',
        '  const page = await api.photos.finders.titleAndOrFormat({ format: PhotoFormat.JPEG }, { count: 2 });',
        "  const photo = new Photo().setTitle('t').setFormat(PhotoFormat.PNG).setImage('cid:f');",
        "  const created = await api.photos.create(photo, { attachments: [writerFromBlob('f', file)] });",
        '  return [...out, String(page.elements.length), String(created.id)];',
        '}',
        '',
      ].join('\n'),
    );
    const r = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir, '--listFiles'],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(r.stdout.split('\n').filter((line) => line.includes('error TS'))).toEqual([]);
    expect(r.status).toBe(0);
    // through the exports map's import condition, and without a declaration of Node's
    expect(r.stdout).toContain(`${path.join(pkg, 'dist/esm/client.d.mts')}\n`);
    expect(r.stdout).not.toContain('@types/node');
  }, 60_000);

  it('cannot reach into dist/ past the exports map', () => {
    const r = node(['-e', "require('svc-framework/dist/data/index.js')"]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('runs the svc command from the package', () => {
    const r = node([path.join(consumer, 'node_modules/svc-framework/bin/svc.js'), '--version']);
    expect([r.status, r.stdout]).toEqual([0, `${PACKAGE.version}\n`]);
  });

  it("loads a .ts module through the project's TypeScript loader, and names the loaders when it has none", () => {
    const dir = fs.mkdtempSync(path.join(consumer, 'loader-'));
    const mod = path.join(dir, 'resources.ts');
    fs.writeFileSync(mod, 'export const answer: number = 42;\n');
    const svc = path.join(consumer, 'node_modules/svc-framework/bin/svc.js');
    const none = node([svc, 'idl', 'export', mod, path.join(dir, 'out')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('a TypeScript module needs a TypeScript loader and none is installed');
    expect(none.stderr).toContain('npm install -D @swc-node/register');
    // the consumer installs one: the same command loads the module (which exports no resource)
    fs.symlinkSync(
      path.join(ROOT, 'node_modules/@swc-node'),
      path.join(consumer, 'node_modules/@swc-node'),
      'dir',
    );
    try {
      const loaded = node([svc, 'idl', 'export', mod, path.join(dir, 'out')]);
      expect([loaded.status, loaded.stderr]).toEqual([
        2,
        expect.stringContaining('exports no resource definitions or interfaces'),
      ]);
    } finally {
      fs.unlinkSync(path.join(consumer, 'node_modules/@swc-node'));
    }
  });

  it.each([
    ['an ES module under nodenext', true, { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['CommonJS under nodenext', false, { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['an ES module under bundler', true, { module: 'esnext', moduleResolution: 'bundler' }],
    ['CommonJS under node10', false, { module: 'commonjs', moduleResolution: 'node10' }],
  ] as const)(
    'finds the types in dist/index.d.ts as %s',
    (_label, esm, options) => {
      const dir = fs.mkdtempSync(path.join(consumer, 'ts-'));
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: esm ? 'module' : 'commonjs' }));
      fs.writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            ...options,
            target: 'ES2022',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: ['node'],
            typeRoots: [path.join(ROOT, 'node_modules/@types')],
          },
          files: ['main.ts'],
        }),
      );
      fs.writeFileSync(
        path.join(dir, 'main.ts'),
        "import { DataMap, type DataValue } from 'svc-framework';\n" +
          "const value: DataValue | undefined = new DataMap({ a: 1 }).get('a');\n" +
          'console.log(value);\n',
      );
      const r = spawnSync(
        process.execPath,
        [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir, '--listFiles'],
        { cwd: dir, encoding: 'utf8' },
      );
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(`${path.join(pkg, 'dist/index.d.ts')}\n`);
      expect(r.stdout).not.toContain('error TS');
      expect(r.status).toBe(0);
    },
    60_000,
  );
});

/**
 * docs/getting-started.md, done as a new user would, from the page's own blocks (a page that drifts from
 * the package fails here): its shell blocks run in order in a fresh folder, its `<!-- file: ... -->` blocks
 * are written where they say, then each `<!-- start -->` command is started and the `<!-- request -->`
 * blocks are run against it. The one step not run as written is `npm install`: the tests never reach the
 * registry, so the install is done as npm lays it out: the tarball unpacked into
 * node_modules/svc-framework (its `bin` linked into node_modules/.bin), the dependencies (and the page's
 * dev dependencies, typescript and @types/node) linked from the repository's node_modules.
 */
describe('docs/getting-started.md, with the packed package', () => {
  const page = blocksOf('docs/getting-started.md');
  let project: string | undefined;

  /** Whether any process of the group `pgid` is left. */
  function groupAlive(pgid: number): boolean {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  }

  /** Stands in for the page's `npm install` lines, in `dir`. */
  function installFromTarball(dir: string): void {
    const modules = path.join(dir, 'node_modules');
    if (fs.existsSync(path.join(modules, 'svc-framework'))) return;
    fs.mkdirSync(path.join(modules, 'svc-framework'), { recursive: true });
    const untar = spawnSync('tar', [
      '-xzf',
      tarball,
      '-C',
      path.join(modules, 'svc-framework'),
      '--strip-components=1',
    ]);
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr.toString()}`);
    for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
      if (entry.startsWith('.')) continue;
      fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry), 'dir');
    }
    const bin = path.join(modules, '.bin');
    fs.mkdirSync(bin);
    for (const name of fs.readdirSync(path.join(ROOT, 'node_modules/.bin'))) {
      fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules/.bin', name)), path.join(bin, name));
    }
    fs.chmodSync(path.join(modules, 'svc-framework/bin/svc.js'), 0o755);
    fs.symlinkSync('../svc-framework/bin/svc.js', path.join(bin, 'svc'));
  }

  /** Runs shell text in `cwd`; returns the directory it ends in (the page's first block `cd`s). */
  function shell(code: string, cwd: string): string {
    const r = spawnSync('bash', ['-euo', 'pipefail', '-c', `${code}\necho "::cwd::$(pwd)"`], {
      cwd,
      encoding: 'utf8',
      env: NPM_ENV,
      stdio: NOT_A_SOCKET,
    });
    if (r.status !== 0) throw new Error(`${code}\nfailed (${String(r.status)}):\n${r.stdout}${r.stderr}`);
    return /::cwd::(.*)\n$/.exec(r.stdout)![1]!;
  }

  it('builds the project the page describes', () => {
    let cwd = fs.mkdtempSync(path.join(stage, 'getting-started-'));
    const steps: string[] = [];
    for (const block of page) {
      if (block.marker?.startsWith('file: ')) {
        const file = path.join(cwd, block.marker.slice('file: '.length));
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, block.code);
        steps.push(`file ${block.marker.slice('file: '.length)}`);
      } else if (block.lang === 'sh' && block.marker === undefined) {
        let pending: string[] = [];
        for (const line of block.code.split('\n')) {
          if (/^npm install\b/.test(line)) {
            if (pending.join('').trim() !== '') cwd = shell(pending.join('\n'), cwd);
            pending = [];
            installFromTarball(cwd);
            steps.push(`install (${line})`);
          } else pending.push(line);
        }
        if (pending.join('').trim() !== '') cwd = shell(pending.join('\n'), cwd);
        steps.push(`run ${block.code.split('\n')[0]}`);
      }
    }
    expect(steps).toEqual(
      expect.arrayContaining([
        'install (npm install svc-framework fastify@5)',
        'run npx svc generate src/generated schemas',
        'file src/resources.ts',
        'run npm run build',
      ]),
    );
    expect(fs.existsSync(path.join(cwd, 'src/generated/com/example/notes/Note.ts'))).toBe(true);
    expect(fs.existsSync(path.join(cwd, 'dist/client.js'))).toBe(true);
    project = cwd;
  }, 180_000);

  const starts = page.filter((b) => b.marker === 'start');
  const requests = page.filter((b) => b.marker === 'request');

  it('has three ways to start the service and requests to send it', () => {
    expect(starts.map((b) => b.code.trim())).toEqual([
      'node dist/server.js',
      'node dist/standalone.js',
      'npx svc serve dist/resources.js --workers 2',
    ]);
    expect(requests.length).toBe(2);
  });

  it.each(starts.map((b) => [b.code.trim()]))(
    'answers the requests when started with `%s`',
    async (command) => {
      expect(project).toBeDefined();
      const child = spawn('bash', ['-c', `exec ${command}`], {
        cwd: project,
        env: { ...NPM_ENV, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // its own process group: the runner's workers are stopped with it
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        let output = '';
        const port = await new Promise<string>((resolve, reject) => {
          const seen = (d: Buffer): void => {
            output += d.toString();
            const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
            if (m !== null) resolve(m[1]!);
          };
          child.stdout.on('data', seen);
          child.stderr.on('data', seen);
          child.once('exit', (code) =>
            reject(new Error(`${command} exited with ${String(code)}:\n${output}`)),
          );
        });
        // the curl lines against every server; the typed client (a process loading the whole package)
        // against the first only, to keep the file's time down
        const sent = command === starts[0]!.code.trim() ? requests : requests.slice(0, 1);
        const answers = sent.map((b) => {
          const code = b.code.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`);
          const r = spawnSync('bash', ['-euo', 'pipefail', '-c', code], {
            cwd: project,
            encoding: 'utf8',
            env: { ...NPM_ENV, PORT: port },
            stdio: NOT_A_SOCKET,
          });
          return { code: b.code, status: r.status, stdout: r.stdout, stderr: r.stderr };
        });
        expect(answers.map((a) => [a.status, a.stderr])).toEqual(answers.map(() => [0, '']));
        // the curl lines: a get, the finder's page, and the created note
        expect(answers[0]!.stdout).toContain('{"title":"Welcome","tags":["intro"],"id":1}');
        expect(answers[0]!.stdout).toContain('"elements":[{"title":"Welcome","tags":["intro"],"id":1}]');
        expect(answers[0]!.stdout).toMatch(/\{"title":"Buy milk","tags":\["home"\],"id":\d+\}/);
        // the typed client
        if (sent.length > 1)
          expect(answers[1]!.stdout).toMatch(
            /^created note \d+\nnote 1: Welcome\ntagged intro: Welcome\nnote 999: 404 Requested entity not found: get\n$/,
          );
      } finally {
        process.kill(-child.pid!, 'SIGTERM');
        await exited;
        // npx exits before the runner it started has stopped its workers: wait for the whole group (bounded)
        for (let i = 0; i < 200 && groupAlive(child.pid!); i++) await new Promise((r) => setTimeout(r, 50));
        expect(groupAlive(child.pid!)).toBe(false);
      }
    },
    60_000,
  );
});
