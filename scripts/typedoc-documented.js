'use strict';
/**
 * A TypeDoc plugin (typedoc.json `plugin`): every symbol the package's entry points export has a doc
 * comment. TypeDoc's own `validation.notDocumented` also asks it of every method, property and parameter
 * of every exported class and interface; this asks it of what a user imports, which is the promise
 * `npm run docs` keeps (each a short true sentence). A missing one is a warning, and `treatWarningsAsErrors`
 * fails the build.
 */

/** ReflectionKind bits (typedoc's `ReflectionKind`) of what is checked and how. */
const MODULE = 0x2;
const REFERENCE = 0x400000; // a re-export of a symbol documented where it is declared
const FUNCTION = 0x40;

/**
 * @param {import('typedoc').Application} app
 */
function load(app) {
  app.on('validateProject', (project) => {
    const modules = project.children?.some((c) => (c.kind & MODULE) !== 0)
      ? project.children.filter((c) => (c.kind & MODULE) !== 0)
      : [project];
    const seen = new Set();
    for (const mod of modules) {
      for (const symbol of mod.children ?? []) {
        if ((symbol.kind & REFERENCE) !== 0 || seen.has(symbol)) continue;
        seen.add(symbol);
        const documented =
          symbol.hasComment() ||
          ((symbol.kind & FUNCTION) !== 0 && (symbol.signatures ?? []).some((s) => s.hasComment()));
        if (!documented) {
          const source = symbol.sources?.[0];
          const where = source === undefined ? '' : ` (${source.fileName}:${source.line})`;
          app.logger.warn(`${mod.name}: the export ${symbol.name} has no doc comment${where}`);
        }
      }
    }
  });
}

module.exports = { load };
