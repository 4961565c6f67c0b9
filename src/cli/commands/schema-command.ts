import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { Command, Option } from 'commander';
import type { DataSchema } from '../../schema/data-schema';
import { NamedDataSchema } from '../../schema/named-schema';
import { formatSchemaProblem } from '../../schema/schema-parse-error';
import { SchemaResolver, type SchemaResolverOptions } from '../../schema/schema-resolver';
import { schemasToJson } from '../../schema/schema-to-json';
import { schemaToPdl } from '../../schema/pdl/pdl-writer';
import { translateSchemaTree } from '../../schema/pdl/schema-tree-translation';
import { CliUsageError } from '../cli-error';
import { writeError, writeOutput } from '../io';

/** The environment variable that gives the resolver path when `--resolver-path` is absent. */
export const RESOLVER_PATH_ENV = 'SVC_RESOLVER_PATH';

/** The `--resolver-path` option, shared by the commands that load schemas. */
export function resolverPathOption(): Option {
  return new Option(
    '-r, --resolver-path <dirs>',
    `colon-separated directories searched for named schemas (default: $${RESOLVER_PATH_ENV})`,
  );
}

/** Help text naming the environment variable. */
export const RESOLVER_PATH_HELP = `
Environment:
  ${RESOLVER_PATH_ENV}  resolver path used when --resolver-path is not given (a:b:c)`;

/** A resolver over `--resolver-path`, else `$SVC_RESOLVER_PATH`, else no directory. */
export function resolverFor(
  resolverPath: string | undefined,
  leniency: Pick<SchemaResolverOptions, 'strict' | 'allowForwardReferences'> = {},
): SchemaResolver {
  return new SchemaResolver({
    ...leniency,
    resolverPath: resolverPath ?? process.env[RESOLVER_PATH_ENV] ?? '',
  });
}

/** Writes each warning of the resolver's parses to standard error, one line each: `WARNING <file:line:col> ...`. */
export function printSchemaWarnings(resolver: SchemaResolver): void {
  for (const w of resolver.warnings()) writeError(`WARNING ${formatSchemaProblem(w)}\n`);
}

/** True when `nameOrFile` should be read as a file: it exists as one, or it looks like a path or a schema file name. */
function isFileArgument(nameOrFile: string): boolean {
  if (existsSync(nameOrFile) && statSync(nameOrFile).isFile()) return true;
  return /\.(pdsc|pdl|json)$/i.test(nameOrFile) || nameOrFile.includes('/') || nameOrFile.includes('\\');
}

/**
 * The schemas a command argument names: the top-level schemas of a file, or the named schema with that
 * full name on the resolver path.
 * @throws SchemaParseError with every problem (`SVC_ERR_SCHEMA_PARSE`) or `SVC_ERR_SCHEMA_NOT_FOUND`
 */
export function loadSchemas(nameOrFile: string, resolver: SchemaResolver): DataSchema[] {
  return isFileArgument(nameOrFile) ? resolver.parseFile(nameOrFile) : [resolver.resolve(nameOrFile)];
}

interface SchemaCommandOptions {
  readonly resolverPath?: string;
  readonly pretty: boolean;
  readonly strict: boolean;
  readonly allowForwardReferences: boolean;
  readonly format: 'json' | 'pdsc' | 'pdl';
  readonly out?: string;
}

/** The named schemas declared in the same file as `schema` (written in full; the others by name). */
function declaredBeside(schema: DataSchema, resolver: SchemaResolver): Set<DataSchema> {
  const out = new Set<DataSchema>([schema]);
  const file = schema instanceof NamedDataSchema ? schema.getLocation()?.file : undefined;
  if (file === undefined) return out;
  const absolute = nodePath.resolve(file);
  for (const s of resolver.bindings().values()) {
    const f = s.getLocation()?.file;
    if (f !== undefined && nodePath.resolve(f) === absolute) out.add(s);
  }
  return out;
}

/**
 * `svc schema <name-or-file>`: parses a schema and prints it as canonical JSON (a file's top-level schemas one
 * per line), or every problem found (exit 2). What Rest.li accepts but is most likely a mistake is printed as
 * a warning on standard error (`WARNING <file>:<line>:<column> <path>: <message>`), or refused with
 * `--strict`.
 */
export function schemaCommand(): Command {
  return new Command('schema')
    .description(
      'parse a schema (a full name on the resolver path, or a .pdsc or .pdl file) and print it as canonical ' +
        'JSON, .pdsc or PDL (--format), or translate a directory (--out); ' +
        'on problems print every one of them and exit with 2; warnings go to standard error',
    )
    .argument(
      '<name-or-file>',
      'full name of a named schema (com.example.Photo), a schema file (.pdsc or .pdl), or with --out a directory',
    )
    .addOption(resolverPathOption())
    .option('--pretty', 'indent the JSON by two spaces', false)
    .addOption(
      new Option(
        '--format <format>',
        'json: canonical JSON, every named schema in full once; pdsc: a .pdsc file (types declared in other ' +
          'files by name, indented); pdl: the same as PDL',
      )
        .choices(['json', 'pdsc', 'pdl'])
        .default('json'),
    )
    .option(
      '--out <dir>',
      'with a directory argument and --format pdsc|pdl: translate every schema file below it into <dir>, same layout',
    )
    .option(
      '--strict',
      'refuse what Rest.li accepts but is most likely a mistake (a fractional int default, a record default ' +
        'with an undeclared field, deprecatedSymbols naming a missing symbol) instead of warning',
      false,
    )
    .option(
      '--allow-forward-references',
      'accept a name that refers to a schema defined later in the same file (Rest.li refuses it)',
      false,
    )
    .addHelpText('after', RESOLVER_PATH_HELP)
    .action(async (nameOrFile: string, opts: SchemaCommandOptions) => {
      const resolver = resolverFor(opts.resolverPath, {
        strict: opts.strict,
        allowForwardReferences: opts.allowForwardReferences,
      });
      if (opts.out !== undefined) {
        if (opts.format === 'json') throw new CliUsageError('--out needs --format pdsc or --format pdl');
        const files = translateSchemaTree(resolver, nameOrFile, opts.format);
        printSchemaWarnings(resolver);
        for (const f of files) {
          const target = nodePath.join(opts.out, f.target);
          mkdirSync(nodePath.dirname(target), { recursive: true });
          writeFileSync(target, f.text);
        }
        await writeOutput(`${files.map((f) => nodePath.join(opts.out!, f.target)).join('\n')}\n`);
        return;
      }
      const schemas = loadSchemas(nameOrFile, resolver);
      printSchemaWarnings(resolver);
      if (opts.format === 'json') {
        await writeOutput(`${schemasToJson(schemas, { indent: opts.pretty ? 2 : 0 })}\n`);
        return;
      }
      const inFull = new Set(schemas.flatMap((s) => [...declaredBeside(s, resolver)]));
      await writeOutput(
        opts.format === 'pdl'
          ? schemas.map((s) => schemaToPdl(s, { inFull })).join('\n')
          : `${schemasToJson(schemas, { inFull, indent: 2 })}\n`,
      );
    });
}
