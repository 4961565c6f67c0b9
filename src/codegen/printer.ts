/**
 * The source file printer: body lines plus the imports they need. Emitters never write an import line;
 * they ask the file for a name (`value`, `type`) and get back the local identifier to print, aliased when
 * it would clash with a local class or another import (`StringMap$1`). Rendering sorts the imports, so the
 * output is deterministic.
 */
import * as posix from 'node:path/posix';

/** Where an imported name comes from. */
export type ModuleTarget =
  /** The Svc runtime (the generator's `runtimeModule` option). */
  | { readonly kind: 'runtime' }
  /** Another generated file, by its path in the output tree without extension (`com/example/Foo`). */
  | { readonly kind: 'file'; readonly path: string }
  /** A module named by a binding attribute; a relative specifier is relative to the output root. */
  | { readonly kind: 'module'; readonly specifier: string };

export const RUNTIME: ModuleTarget = { kind: 'runtime' };

interface ModuleImports {
  /** Exported name to local name and whether it is used as a value. */
  readonly names: Map<string, { local: string; value: boolean }>;
  /** The module must be loaded for its side effects (schema registration). */
  load: boolean;
}

export interface SourceFileOptions {
  /** Module specifier of the runtime (`svc-framework`), or a path relative to the output root (`./rt`). */
  readonly runtimeModule: string;
  /** Header comment lines (without `//`). */
  readonly header: readonly string[];
  /** Appended to imports of generated files (`.js` for ESM under `moduleResolution: nodenext`); default ''. */
  readonly importExtension?: string;
}

export class SourceFile {
  /** Output-tree path without extension (`com/example/photos/Photo`). */
  readonly path: string;
  readonly #options: SourceFileOptions;
  readonly #locals = new Set<string>();
  readonly #imports = new Map<string, ModuleImports>();
  readonly #taken = new Set<string>();
  readonly #lines: string[] = [];

  constructor(path: string, options: SourceFileOptions) {
    this.path = path;
    this.#options = options;
  }

  /** Declares a name this file defines; imports that clash with it get aliased. Call before any import. */
  declareLocal(name: string): void {
    this.#locals.add(name);
    this.#taken.add(name);
  }

  /** True when this file defines `name`. */
  hasLocal(name: string): boolean {
    return this.#locals.has(name);
  }

  /** The local identifier of `name` from `from`, imported for use as a value. */
  value(name: string, from: ModuleTarget): string {
    return this.#import(name, from, true);
  }

  /** The local identifier of `name` from `from`, imported for use as a type only. */
  type(name: string, from: ModuleTarget): string {
    return this.#import(name, from, false);
  }

  /** Makes sure `from` is loaded (imported for its side effects if nothing is imported from it as a value). */
  load(from: ModuleTarget): void {
    const specifier = this.#specifier(from);
    if (specifier === undefined) return;
    this.#module(specifier).load = true;
  }

  /** A global of the JS environment (`Date`), qualified when a local name shadows it. */
  global(name: string): string {
    return this.#taken.has(name) ? `globalThis.${name}` : name;
  }

  /** Appends body lines. */
  push(...lines: string[]): void {
    this.#lines.push(...lines);
  }

  /** The file text. */
  render(): string {
    const out: string[] = this.#options.header.map((h) => (h === '' ? '//' : `// ${h}`));
    out.push('/* eslint-disable */');
    const specifiers = [...this.#imports.keys()].sort((a, b) => {
      const ra = a.startsWith('.') ? 1 : 0;
      const rb = b.startsWith('.') ? 1 : 0;
      return ra - rb || compare(a, b);
    });
    if (specifiers.length > 0) out.push('');
    for (const specifier of specifiers) {
      const m = this.#imports.get(specifier)!;
      const names = [...m.names].sort(([a], [b]) => compare(a, b));
      const anyValue = names.some(([, n]) => n.value);
      const spec = (exported: string, local: string): string =>
        exported === local ? exported : `${exported} as ${local}`;
      if (anyValue) {
        const list = names.map(([e, n]) => (n.value ? spec(e, n.local) : `type ${spec(e, n.local)}`));
        out.push(importLine('import', list, specifier));
      } else if (names.length > 0) {
        out.push(
          importLine(
            'import type',
            names.map(([e, n]) => spec(e, n.local)),
            specifier,
          ),
        );
      }
      if (m.load && !anyValue) out.push(`import '${specifier}';`);
    }
    out.push('');
    out.push(...this.#lines);
    while (out.length > 0 && out[out.length - 1] === '') out.pop();
    return `${out.join('\n')}\n`;
  }

  #import(name: string, from: ModuleTarget, value: boolean): string {
    const specifier = this.#specifier(from);
    if (specifier === undefined) return name; // this file itself
    const m = this.#module(specifier);
    const known = m.names.get(name);
    if (known !== undefined) {
      known.value ||= value;
      return known.local;
    }
    let local = name;
    for (let n = 1; this.#taken.has(local); n++) local = `${name}$${n}`;
    this.#taken.add(local);
    m.names.set(name, { local, value });
    return local;
  }

  #module(specifier: string): ModuleImports {
    let m = this.#imports.get(specifier);
    if (m === undefined) {
      m = { names: new Map(), load: false };
      this.#imports.set(specifier, m);
    }
    return m;
  }

  /** The specifier of `from` as seen from this file; undefined for this file itself. */
  #specifier(from: ModuleTarget): string | undefined {
    switch (from.kind) {
      case 'runtime':
        return this.#relativeToRoot(this.#options.runtimeModule);
      case 'module':
        return this.#relativeToRoot(from.specifier);
      case 'file':
        return from.path === this.path
          ? undefined
          : this.#relative(from.path) + (this.#options.importExtension ?? '');
    }
  }

  #relativeToRoot(specifier: string): string {
    return specifier.startsWith('./') || specifier.startsWith('../')
      ? this.#relative(posix.normalize(specifier))
      : specifier;
  }

  #relative(target: string): string {
    const rel = posix.relative(posix.dirname(this.path), target);
    return rel.startsWith('.') ? rel : `./${rel}`;
  }
}

/** One import statement, one name per line when it would be longer than 100 characters. */
function importLine(keyword: string, names: readonly string[], specifier: string): string {
  const line = `${keyword} { ${names.join(', ')} } from '${specifier}';`;
  if (line.length <= 100) return line;
  return `${keyword} {\n${names.map((n) => `  ${n},\n`).join('')}} from '${specifier}';`;
}

/** Code-unit order, independent of locale (determinism). */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
