import { existsSync, statSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { DataSchema } from '../../schema/data-schema';
import { formatSchemaProblem } from '../../schema/schema-parse-error';
import { SchemaResolver, type SchemaResolverOptions } from '../../schema/schema-resolver';
import { schemasToJson } from '../../schema/schema-to-json';
import { writeOutput } from '../io';

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
  for (const w of resolver.warnings()) process.stderr.write(`WARNING ${formatSchemaProblem(w)}\n`);
}

/** True when `nameOrFile` should be read as a file: it exists as one, or it looks like a path or a .pdsc name. */
function isFileArgument(nameOrFile: string): boolean {
  if (existsSync(nameOrFile) && statSync(nameOrFile).isFile()) return true;
  return /\.(pdsc|json)$/i.test(nameOrFile) || nameOrFile.includes('/') || nameOrFile.includes('\\');
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
      'parse a schema (a full name on the resolver path, or a .pdsc file) and print it as canonical JSON; ' +
        'on problems print every one of them and exit with 2; warnings go to standard error',
    )
    .argument('<name-or-file>', 'full name of a named schema (com.example.Photo), or a schema file')
    .addOption(resolverPathOption())
    .option('--pretty', 'indent the JSON by two spaces', false)
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
      const schemas = loadSchemas(nameOrFile, resolver);
      printSchemaWarnings(resolver);
      await writeOutput(`${schemasToJson(schemas, { indent: opts.pretty ? 2 : 0 })}\n`);
    });
}
