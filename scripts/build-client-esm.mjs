/**
 * The ES module build of the client entry (`svc-framework/client` under the `import` condition), run by
 * `npm run build` after tsc: src/client/browser.ts bundled by esbuild into one ES module,
 * dist/esm/client.mjs (dependencies such as rxjs stay imports, for the consumer's bundler to share), with
 * dist/esm/client.d.mts re-exporting the declarations tsc wrote. Bundlers and `<script type="module">`
 * get ESM; `require` keeps the CommonJS build (dist/client/browser.js). Run from the package root.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = process.cwd();
const out = path.join(root, 'dist/esm');
await build({
  entryPoints: [path.join(root, 'src/client/browser.ts')],
  outfile: path.join(out, 'client.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
fs.writeFileSync(
  path.join(out, 'client.d.mts'),
  "// the declarations of svc-framework/client (tsc's, shared by both builds)\nexport * from '../client/browser.js';\n",
);
