/**
 * Every TypeScript block of the documentation compiles under `--strict` against the package's public
 * entry points, as a user's module would: `svc-framework`, `svc-framework/client` and
 * `svc-framework/postgres` are mapped to src/ (tsconfig `paths`), and `./generated/...` is the example's
 * generated data templates (the photo library's schemas, which the pages use); `./store` and
 * `./resources` are the application's own modules (block-context/). One TypeScript program for
 * all blocks, so the whole check costs one compilation. Blocks marked `<!-- fragment -->` are excerpts and
 * skipped; `<!-- file: ... -->` blocks are the getting-started project, compiled against the packed package
 * by test/package/package.test.ts.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { type DocBlock, ROOT, blocksOf, documentedPages, isTypeScript } from './doc-blocks';

/**
 * The application's own modules the pages import (`./store`, `./resources`): declared in block-context/,
 * beside each block as a user's project has them beside its code.
 */
const CONTEXT = ['store.ts', 'resources.ts'];

const blocks = documentedPages().flatMap(blocksOf).filter(isTypeScript);
const checked = blocks.filter((b) => b.marker === undefined);

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-doc-blocks-'));
  // the blocks import the package's dependencies (fastify, rxjs...) as a user's project would
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  // what `svc generate --idl` makes of the example's snapshots (templates and typed interface modules), for
  // the blocks that show a client generated from an interface description
  const generate = spawnSync(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      'src/cli/run.ts',
      'generate',
      '--idl',
      'examples/idl/snapshot',
      path.join(dir, 'idl'),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (generate.status !== 0) throw new Error(`svc generate --idl failed:\n${generate.stderr}`);
}, 30_000);

afterAll(() => {
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
});

/** Writes each block as a module of its own directory (beside a `generated` link); returns file → block. */
function writeBlocks(): Map<string, DocBlock> {
  const files = new Map<string, DocBlock>();
  checked.forEach((block, i) => {
    const blockDir = path.join(dir, `block-${i}`);
    fs.mkdirSync(blockDir);
    const generated = block.code.includes('.interface')
      ? path.join(dir, 'idl')
      : path.join(ROOT, 'examples/src/main/generated');
    fs.symlinkSync(generated, path.join(blockDir, 'generated'), 'dir');
    for (const context of CONTEXT) {
      fs.symlinkSync(path.join(__dirname, 'block-context', context), path.join(blockDir, context));
    }
    const file = path.join(blockDir, 'main.ts');
    // a block without import or export is a script to TypeScript; each is a module of its own here
    const isModule = /^\s*(import|export)\b/m.test(block.code);
    fs.writeFileSync(file, isModule ? block.code : `${block.code}export {};\n`);
    files.set(file, block);
  });
  return files;
}

describe('the TypeScript blocks of README.md, docs/ and the folder READMEs', () => {
  it('are many, and few are fragments', () => {
    expect(blocks.length).toBeGreaterThan(25);
    const fragments = blocks.filter((b) => b.marker?.startsWith('fragment'));
    expect(fragments.length).toBeLessThanOrEqual(Math.ceil(blocks.length / 5));
    // a marker is one of the known ones: a typo would skip a block silently
    expect(blocks.filter((b) => b.marker !== undefined && !/^(fragment|file: \S+)/.test(b.marker))).toEqual(
      [],
    );
  });

  it('compile under --strict against the public entry points', () => {
    const files = writeBlocks();
    const program = ts.createProgram([...files.keys()], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts'], // a Node project's: the browser block declares what it takes from the page
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      esModuleInterop: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [path.join(ROOT, 'node_modules/@types')],
      baseUrl: ROOT,
      paths: {
        'svc-framework': ['src/index.ts'],
        'svc-framework/client': ['src/client/browser.ts'],
        'svc-framework/postgres': ['src/postgres/index.ts'],
      },
    });
    // diagnostics of the blocks only: the sources they reach are type-checked by `npm run typecheck`, and
    // asking for theirs would check all of src/ again
    const problems = program
      .getSourceFiles()
      .filter((f) => files.has(f.fileName))
      .flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)])
      .map((d) => {
        const block = files.get(d.file!.fileName)!;
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        return `${block.page}:${block.line + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    if (process.env['DOC_BLOCKS_OUT']) fs.writeFileSync(process.env['DOC_BLOCKS_OUT'], problems.join('\n'));
    expect(problems).toEqual([]);
  }, 60_000);
});
