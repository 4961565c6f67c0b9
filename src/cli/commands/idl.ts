import { mkdirSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { Command } from 'commander';
import { exportIdl, idlFileTexts } from '../../idl/export';
import { interfaceOf } from '../../resources/interface';
import { CliUsageError } from '../cli-error';
import { writeOutput } from '../io';
import { TYPESCRIPT_MODULES_HELP, ensureTypeScriptLoader } from '../load-module';

const KINDS: ReadonlySet<unknown> = new Set(['collection', 'association', 'simple', 'actionsSet']);

function isResourceLike(v: unknown): v is { readonly name: string; readonly kind: string } {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as { name?: unknown; kind?: unknown };
  return typeof r.name === 'string' && KINDS.has(r.kind);
}

/** What an implementation describes: its interface (two exports of one resource are one resource). */
function identity(v: object): object {
  try {
    return interfaceOf(v as Parameters<typeof interfaceOf>[0]);
  } catch {
    return v;
  }
}

/**
 * The root resources a module exports: definitions and interfaces exported one by one, in arrays, or as the
 * values of an object (`export const api = { photos, albums }`); each resource once. Factory functions are
 * passed over (they need their arguments): export what they return, or the interfaces.
 */
export function resourcesOfModule(exports: Record<string, unknown>, only?: string): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<object>();
  const add = (v: unknown): void => {
    if (!isResourceLike(v)) return;
    const id = identity(v);
    if (seen.has(id)) return;
    seen.add(id);
    out.push(v);
  };
  const names = only === undefined ? Object.keys(exports) : [only];
  for (const name of names) {
    const value = exports[name];
    if (only !== undefined && value === undefined)
      throw new CliUsageError(`the module exports nothing named '${only}'`);
    if (isResourceLike(value)) add(value);
    else if (Array.isArray(value)) value.forEach(add);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(add);
  }
  return out;
}

/** Loads the module (a `.ts` one through the project's TypeScript loader, see load-module.ts). */
function loadModule(file: string): Record<string, unknown> {
  const path = nodePath.resolve(file);
  ensureTypeScriptLoader(path, 'svc idl export');
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(path) as Record<string, unknown>;
  } catch (err) {
    throw new CliUsageError(`cannot load ${file}: ${(err as Error).message}`, { cause: err });
  }
}

interface IdlExportOptions {
  namespace?: string;
  export?: string;
}

/**
 * `svc idl export <module> <outDir>`: writes `<outDir>/idl/<namespace>.<name>.restspec.json` and
 * `<outDir>/snapshot/<namespace>.<name>.snapshot.json` for every root resource (definition or interface) the
 * module exports, and prints the paths written. Exit 2 when the module cannot be loaded or exports none.
 */
export function idlCommand(): Command {
  const idl = new Command('idl').description(
    "interface descriptions (Rest.li's .restspec.json and .snapshot.json)",
  );
  idl.addCommand(
    new Command('export')
      .description(
        'write the .restspec.json and .snapshot.json of every root resource a module exports ' +
          '(resource definitions or interfaces, alone, in arrays or in objects)',
      )
      .argument('<module>', 'a .ts or .js module')
      .argument('<outDir>', 'output directory: files go to <outDir>/idl/ and <outDir>/snapshot/')
      .option('--namespace <namespace>', 'namespace of root resources that declare none (default: none)')
      .option('--export <name>', 'use only this export of the module')
      .addHelpText('after', `\n${TYPESCRIPT_MODULES_HELP}\n`)
      .action(async (module: string, outDir: string, opts: IdlExportOptions) => {
        const resources = resourcesOfModule(loadModule(module), opts.export);
        if (resources.length === 0) {
          throw new CliUsageError(
            `${module} exports no resource definitions or interfaces (factory functions are not called: export their results or the interfaces)`,
          );
        }
        const exported = exportIdl(resources, {
          validate: true,
          ...(opts.namespace === undefined ? {} : { namespace: opts.namespace }),
        });
        const written: string[] = [];
        for (const [relative, text] of idlFileTexts(exported)) {
          const file = nodePath.join(outDir, relative);
          mkdirSync(nodePath.dirname(file), { recursive: true });
          writeFileSync(file, text);
          written.push(file);
        }
        await writeOutput(written.map((f) => `${f}\n`).join(''));
      }),
  );
  for (const sub of idl.commands) sub.exitOverride();
  return idl;
}
