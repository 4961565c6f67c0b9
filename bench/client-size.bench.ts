/**
 * The size of the typed client in a browser page: a page that calls `photos` through the client entry
 * (`svc-framework/client`, with the example's `photos` interface imported from its restspec by `svc idl
 * import`, and its generated classes; see PHOTOS_MODULE; the per-method
 * `get`, and as a second row the same call through the facade `createResourceClient`), bundled by esbuild
 * for the browser and minified, then gzipped. Goal (issue 28): at most 40 KB gzipped. The anchor is the same
 * page written with a bare `fetch` (what any page pays anyway), so the ratio is what the typed client adds.
 * Each part's share comes from esbuild's metafile (bytes of minified output per source folder; gzip is
 * apportioned by those shares, as it is not additive). Sizes are deterministic: no noise.
 *
 *   npm run bench -- client-size
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Metafile, buildSync } from 'esbuild';
import type { BenchFile, Fact, FactSuite } from './harness';

const ROOT = path.join(__dirname, '..');
const CLIENT_ENTRY = path.join(ROOT, 'src/client/browser.ts');
const GOAL_BYTES = 40 * 1000;

/**
 * The photos interface as a browser user of the service gets it: `svc idl import` of the example's own
 * snapshot (examples/idl/snapshot, which the example's interfaces export and test/examples/idl-files.test.ts
 * keeps in step) writes one module per resource with its generated classes (`npm run generate` writes this
 * tree). A page that calls photos imports photos' module only; `examples/interfaces.ts`, which declares the
 * three interfaces of the server's own code, would also bring `Album` and `AlbumEntry` (generated modules
 * register their schemas, so a bundler keeps them once imported). The Chromium test
 * (test/client/browser-client.test.ts) makes this page's call, over this module, against the running example.
 */
const PHOTOS_MODULE = './test/generated/idl-example/com/example/photos/photos.interface';

/** The page: the per-method `get` (the modular form), typed from the example's generated interface. */
const PHOTOS_PAGE = `
  import { createCoreClient, get } from 'svc-framework';
  import { photosInterface } from '${PHOTOS_MODULE}';
  const client = createCoreClient({ baseUrl: location.origin });
  get(client, photosInterface, 1).then((r) => { document.title = r.entity.getTitle(); });
`;

/** The same call through the facade, which binds every method of the interface. */
const FACADE_PAGE = `
  import { createResourceClient } from 'svc-framework';
  import { photosInterface } from '${PHOTOS_MODULE}';
  const api = createResourceClient({ baseUrl: location.origin }, { photos: photosInterface });
  api.photos.get(1).then((r) => { document.title = r.entity.getTitle(); });
`;

/** The facade page with an opt-in of the browser entry, to print what each costs a page. */
const OPT_INS: ReadonlyArray<readonly [label: string, imports: string, option: string, forms: string]> = [
  ['attachments: webAttachments', 'webAttachments', ', attachments: webAttachments', ''],
  ['{ rx: rxForms }', 'rxForms', '', ', { rx: rxForms }'],
  [
    'codecs: createDefaultCodecRegistry() (PSON)',
    'createDefaultCodecRegistry',
    ', codecs: createDefaultCodecRegistry()',
    '',
  ],
];

function pageWith(imports: string, option: string, forms: string): string {
  return `
  import { createResourceClient, ${imports} } from 'svc-framework';
  import { photosInterface } from '${PHOTOS_MODULE}';
  const api = createResourceClient({ baseUrl: location.origin${option} }, { photos: photosInterface }${forms});
  api.photos.get(1).then((r) => { document.title = r.entity.getTitle(); });
`;
}

const FETCH_PAGE = `
  fetch(location.origin + '/photos/1', { headers: { 'X-Svc-Protocol-Version': '2.0.0' } })
    .then((r) => r.json())
    .then((p) => { document.title = p.title; });
`;

interface Page {
  readonly minified: number;
  readonly gzipped: number;
  readonly metafile: Metafile;
}

function bundle(contents: string): Page {
  const r = buildSync({
    stdin: { contents, resolveDir: ROOT, loader: 'ts', sourcefile: 'page.ts' },
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    alias: { 'svc-framework': CLIENT_ENTRY },
  });
  const code = r.outputFiles[0]!.contents;
  return {
    minified: code.byteLength,
    gzipped: gzipSync(code, { level: 9 }).byteLength,
    metafile: r.metafile,
  };
}

/** The part a source file belongs to: a layer of src/, a package of node_modules/, or the example's code. */
function partOf(file: string): string {
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (nm !== null) return nm[1]!;
  const src = /^src\/([^/]+)/.exec(file);
  if (src !== null) return `src/${src[1]}`;
  if (file.startsWith('test/generated/')) return 'photos interface, classes (svc idl import)';
  if (file.startsWith('examples/')) return 'examples (interfaces, generated classes)';
  return file;
}

function parts(page: Page): Array<[string, number]> {
  const bytes = new Map<string, number>();
  for (const output of Object.values(page.metafile.outputs)) {
    for (const [file, input] of Object.entries(output.inputs)) {
      const part = partOf(file);
      bytes.set(part, (bytes.get(part) ?? 0) + input.bytesInOutput);
    }
  }
  return [...bytes].sort((a, b) => b[1] - a[1]);
}

function suites(): FactSuite[] {
  const photos = bundle(PHOTOS_PAGE);
  const facade = bundle(FACADE_PAGE);
  const plain = bundle(FETCH_PAGE);
  const whole = bundle(`export * from 'svc-framework';`);
  const kb = (n: number): number => n / 1000;
  const shares = parts(photos);
  const total = shares.reduce((s, [, b]) => s + b, 0);
  const facts: Fact[] = [
    { label: 'page calling photos, minified + gzipped', value: kb(photos.gzipped), unit: 'KB' },
    { label: 'the same page with a bare fetch, minified + gzipped', value: kb(plain.gzipped), unit: 'KB' },
    { label: 'goal', value: kb(GOAL_BYTES), unit: 'KB' },
    { label: 'page calling photos, minified', value: kb(photos.minified), unit: 'KB' },
    {
      label: 'the same call through the facade (createResourceClient), minified + gzipped',
      value: kb(facade.gzipped),
      unit: 'KB',
    },
    {
      label: 'the whole client entry (every export), minified + gzipped',
      value: kb(whole.gzipped),
      unit: 'KB',
    },
  ];
  return [
    {
      title:
        'CLIENT SIZE: a browser page calling photos through svc-framework/client (esbuild, minified, gzip -9)',
      short: 'client page size',
      facts,
      ratios: [
        { name: 'page / goal (≤ 1 meets it)', of: 'page calling photos, minified + gzipped', to: 'goal' },
        {
          name: 'page / bare-fetch page',
          of: 'page calling photos, minified + gzipped',
          to: 'the same page with a bare fetch, minified + gzipped',
        },
      ],
      notes: [
        `goal ≤ ${kb(GOAL_BYTES)} KB gzipped: ${photos.gzipped <= GOAL_BYTES ? 'met' : 'NOT met'} (${kb(photos.gzipped).toFixed(1)} KB)`,
        `the same call through the facade (createResourceClient): ${kb(facade.gzipped).toFixed(1)} KB; every export of the entry: ${kb(whole.gzipped).toFixed(1)} KB`,
        'what each part costs (minified bytes in the page, share; gzipped ≈ share × total):',
        ...shares.map(
          ([part, b]) =>
            `  ${part.padEnd(44)} ${(b / 1000).toFixed(1).padStart(7)} KB  ${((100 * b) / total).toFixed(1).padStart(5)}%  ≈ ${((photos.gzipped * b) / total / 1000).toFixed(1)} KB gz`,
        ),
        'what an opt-in of the browser entry adds to the facade page (bundled with and without), gzipped:',
        ...OPT_INS.map(([label, imports, option, forms]) => {
          const more = bundle(pageWith(imports, option, forms)).gzipped - facade.gzipped;
          return `  ${label.padEnd(44)} +${(more / 1000).toFixed(1)} KB`;
        }),
        'deterministic sizes (no timing): no machine noise',
      ],
    },
  ];
}

export const benchmark: BenchFile = {
  title: 'CLIENT SIZE: the typed client in a browser page (svc-framework/client)',
  suites,
};
