import { Command } from 'commander';
import { type ModuleFormat, detectModuleFormat, generateTemplates, writeGeneratedFiles } from '../../codegen';
import { generateFromIdl } from '../../idl/import';
import { CliUsageError } from '../cli-error';
import { writeError, writeOutput } from '../io';

/** The environment variable read for the resolver path when no option gives one. */
export const RESOLVER_PATH_ENV = 'GENERATOR_RESOLVER_PATH';
/** The resolver path variable of the other `svc` commands, read last. */
export const SVC_RESOLVER_PATH_ENV = 'SVC_RESOLVER_PATH';
/** The property (`-Dgenerator.resolver.path=...`) of the reference generator, accepted as is. */
export const RESOLVER_PATH_PROPERTY = 'generator.resolver.path';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * The resolver path: `--resolver-path`, else `-Dgenerator.resolver.path=...` (the reference generator's
 * property), else the environment variable GENERATOR_RESOLVER_PATH, else SVC_RESOLVER_PATH (shared with the
 * other `svc` commands); colon-separated directories in each case.
 */
export function resolverPathFrom(
  option: string | undefined,
  defines: readonly string[],
  env: NodeJS.ProcessEnv,
): string | undefined {
  let property: string | undefined;
  for (const d of defines) {
    const eq = d.indexOf('=');
    const name = eq < 0 ? d : d.slice(0, eq);
    if (name !== RESOLVER_PATH_PROPERTY || eq < 0) {
      throw new CliUsageError(`-D${d}: the only property is ${RESOLVER_PATH_PROPERTY}=<dir>:<dir>...`);
    }
    property = d.slice(eq + 1);
  }
  return option ?? property ?? env[RESOLVER_PATH_ENV] ?? env[SVC_RESOLVER_PATH_ENV];
}

/**
 * The line saying how imports between generated files end, and why: an ES-module consumer whose code
 * does not compile should see at once which package.json decided it and which option overrides it.
 */
function importsLine(used: string, detected: ModuleFormat | undefined): string {
  const ending = used === '' ? 'have no extension' : `end in ${used}`;
  if (detected === undefined) return `Imports between generated files ${ending} (--import-extension).`;
  const why =
    detected.packageJson === undefined
      ? 'no package.json above the target: CommonJS'
      : `${detected.packageJson} makes it ${detected.format === 'module' ? 'an ES module' : 'CommonJS'}`;
  return `Imports between generated files ${ending} (${why}; --import-extension overrides).`;
}

/** `svc generate <targetDir> <schemas...>`: data templates from schemas; `--idl`: and interface modules. */
export function generateCommand(): Command {
  return new Command('generate')
    .description(
      'generate TypeScript data templates: one class per schema, in a source tree by package under targetDir',
    )
    .argument('<targetDir>', 'directory of the generated source tree')
    .argument(
      '[schemas...]',
      'schema files (any extension), directories (every .pdl and .pdsc below) or full schema names (com.example.Photo)',
    )
    .option(
      '--idl <path>',
      'a .restspec.json or .snapshot.json file, or a directory of them (repeatable): generate a typed interface ' +
        'module per resource (<namespace dirs>/<name>.interface.ts) and the templates of every schema it uses',
      collect,
      [],
    )
    .option(
      '-r, --resolver-path <dirs>',
      `colon-separated directories searched for named schemas (.pdl and .pdsc files); else -D${RESOLVER_PATH_PROPERTY}=<dirs>, else $${RESOLVER_PATH_ENV}, else $${SVC_RESOLVER_PATH_ENV}`,
    )
    .option(
      '-D, --define <property=value>',
      `a generator property; only ${RESOLVER_PATH_PROPERTY}`,
      collect,
      [],
    )
    .option(
      '--runtime-module <module>',
      'the module generated code imports the runtime from',
      'svc-framework',
    )
    .option(
      '--import-extension <ext>',
      "appended to imports between generated files: .js, or '' for none; default .js when the nearest " +
        'package.json above targetDir has "type": "module" (ES modules need extensions), else none',
    )
    .option('--clean', 'remove .ts files under targetDir that this run does not generate', false)
    .action(
      async (
        targetDir: string,
        schemas: string[],
        opts: {
          resolverPath?: string;
          define: string[];
          runtimeModule: string;
          importExtension?: string;
          clean: boolean;
          idl: string[];
        },
      ) => {
        const resolverPath = resolverPathFrom(opts.resolverPath, opts.define, process.env);
        if (opts.idl.length > 0 && schemas.length > 0)
          throw new CliUsageError(
            'give schemas or --idl, not both (an IDL import generates the schemas it uses)',
          );
        if (opts.idl.length === 0 && schemas.length === 0)
          throw new CliUsageError('nothing to generate: name schemas, or IDL files with --idl');
        const started = performance.now();
        const detected = opts.importExtension === undefined ? detectModuleFormat(targetDir) : undefined;
        const importExtension = opts.importExtension ?? detected?.importExtension ?? '';
        let files;
        let interfaces = '';
        if (opts.idl.length > 0) {
          const imported = generateFromIdl({
            sources: opts.idl,
            resolverPath: resolverPath ?? [],
            runtimeModule: opts.runtimeModule,
            importExtension,
          });
          for (const w of imported.warnings)
            writeError(`warning: ${w.file}${w.path === '' ? '' : ` at ${w.path}`}: ${w.message}\n`);
          files = imported.files;
          interfaces = `Interfaces: ${imported.interfaces.join(', ')}\n`;
        } else {
          files = generateTemplates({
            sources: schemas,
            resolverPath: resolverPath ?? [],
            runtimeModule: opts.runtimeModule,
            importExtension,
          });
        }
        const r = writeGeneratedFiles(targetDir, files, { clean: opts.clean });
        const ms = (performance.now() - started).toFixed(0);
        await writeOutput(
          `Generated ${files.length} files into ${targetDir} (${r.written} written, ${r.unchanged} unchanged` +
            `${opts.clean ? `, ${r.removed} removed` : ''}) in ${ms} ms\n` +
            `${importsLine(importExtension, detected)}\n` +
            interfaces,
        );
      },
    );
}
