/**
 * `svc generate`'s default output compiles in the projects users have: ES-module packages
 * (`"type": "module"`) under `moduleResolution` nodenext and bundler, and CommonJS packages under nodenext
 * and node10. Each consumer is a temp directory with its own package.json and tsconfig.json, the
 * generated tree, and a file using it; the repository's TypeScript compiles it (in process). The consumers
 * find `svc-framework` through `paths`, at declarations emitted from src/ once for this file (so the runtime
 * checked is the one in this tree rather than a possibly stale dist/, and the five compiles check their own
 * code rather than the whole framework five times: that took two minutes of the suite).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { runCli } from '../support/run-cli';

const ROOT = path.join(__dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/pegasus');

interface Consumer {
  readonly name: string;
  readonly esm: boolean;
  readonly compilerOptions: Readonly<Record<string, unknown>>;
}

const CONSUMERS: readonly Consumer[] = [
  { name: 'esm-nodenext', esm: true, compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } },
  { name: 'esm-bundler', esm: true, compilerOptions: { module: 'esnext', moduleResolution: 'bundler' } },
  { name: 'cjs-nodenext', esm: false, compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } },
  { name: 'cjs-node10', esm: false, compilerOptions: { module: 'commonjs', moduleResolution: 'node10' } },
];

let base: string;
/** The framework's declarations, emitted from src/ (index.d.ts and the rest). */
let declarations: string;

/** Parsed files shared by the compiles of this file (the lib files and the framework's declarations). */
const parsed = new Map<string, ts.SourceFile>();

function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, fresh) => {
    const shared = fileName.endsWith('.d.ts');
    const key = `${fileName}\0${JSON.stringify(language)}`;
    const hit = shared ? parsed.get(key) : undefined;
    if (hit !== undefined) return hit;
    const file = read(fileName, language, onError, fresh);
    if (shared && file !== undefined) parsed.set(key, file);
    return file;
  };
  return host;
}

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-consumers-'));
  declarations = path.join(base, 'declarations');
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.build.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  })!;
  const options: ts.CompilerOptions = {
    ...config.options,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    outDir: declarations,
    declarationDir: declarations,
  };
  const emitted = ts.createProgram(config.fileNames, options, cachingHost(options)).emit();
  const errors = emitted.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new Error(ts.formatDiagnostics(errors, formatHost));
}, 120_000);

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

/** A consumer project: package.json, tsconfig.json and src/main.ts using the generated Photo class. */
function makeConsumer(c: Consumer): string {
  const dir = path.join(base, c.name);
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: c.name, private: true, ...(c.esm ? { type: 'module' } : {}) }),
  );
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        ...c.compilerOptions,
        target: 'ES2022',
        lib: ['ES2022'],
        strict: true,
        esModuleInterop: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
        typeRoots: [path.join(ROOT, 'node_modules/@types')],
        paths: { 'svc-framework': [path.join(declarations, 'index.d.ts')] },
      },
      include: ['src'],
    }),
  );
  // a user's own imports follow their package's rules too: ES modules name the file
  const photos = `./generated/com/example/photos${c.esm ? '/index.js' : ''}`;
  fs.writeFileSync(
    path.join(dir, 'src/main.ts'),
    [
      `import { JsonCodec } from 'svc-framework';`,
      `import { Photo, PhotoFormat } from '${photos}';`,
      '',
      `const photo = new Photo().setTitle('Dusk').setFormat(PhotoFormat.JPEG);`,
      `const title: string = photo.getTitle();`,
      `console.log(title, new JsonCodec().mapToString(photo.data()));`,
      '',
    ].join('\n'),
  );
  return dir;
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
};

/** Compiles the consumer project in `dir` as `tsc -p dir/tsconfig.json` would; its status and messages. */
function tsc(dir: string): { status: number; output: string } {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(dir, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => undefined,
  })!;
  const program = ts.createProgram(config.fileNames, config.options, cachingHost(config.options));
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
  // tsc's own form: `file(line,col): error TS2835: ...`
  return { status: diagnostics.length === 0 ? 0 : 2, output: ts.formatDiagnostics(diagnostics, formatHost) };
}

describe('svc generate in a consumer project', () => {
  it.each(CONSUMERS.map((c) => [c.name, c] as const))(
    'writes code that compiles with zero errors in a %s project',
    async (_name, consumer) => {
      const dir = makeConsumer(consumer);
      const gen = await runCli([
        'generate',
        path.join(dir, 'src/generated'),
        'com.example.photos.Photo',
        '-r',
        FIXTURES,
      ]);
      expect({ code: gen.code, stderr: gen.stderr }).toEqual({ code: 0, stderr: '' });
      expect(gen.stdout.toString()).toContain(
        consumer.esm
          ? `Imports between generated files end in .js (${path.join(dir, 'package.json')} makes it an ES module;`
          : `Imports between generated files have no extension (${path.join(dir, 'package.json')} makes it CommonJS;`,
      );
      const photo = fs.readFileSync(path.join(dir, 'src/generated/com/example/photos/Photo.ts'), 'utf8');
      expect(photo).toContain(
        consumer.esm ? "import { Caption, Caption_Fields } from './Caption.js';" : "from './Caption';",
      );
      expect(tsc(dir)).toEqual({ status: 0, output: '' });
    },
    120_000,
  );

  it('writes code an ES-module project cannot compile when told to leave the extension out (TS2835)', async () => {
    const dir = makeConsumer({
      ...CONSUMERS[0]!,
      name: 'esm-nodenext-without-extensions',
    });
    const gen = await runCli([
      'generate',
      path.join(dir, 'src/generated'),
      'com.example.photos.Photo',
      '-r',
      FIXTURES,
      '--import-extension',
      '',
    ]);
    expect(gen.code).toBe(0);
    expect(gen.stdout.toString()).toContain(
      'Imports between generated files have no extension (--import-extension).',
    );
    const r = tsc(dir);
    expect(r.status).not.toBe(0);
    expect(r.output).toContain(
      "error TS2835: Relative import paths need explicit file extensions in ECMAScript imports when '--moduleResolution' is 'node16' or 'nodenext'. Did you mean './Caption.js'?",
    );
  }, 120_000);
});
