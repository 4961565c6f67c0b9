import { existsSync, statSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { DataSchema } from '../../schema/data-schema';
import { SchemaResolver } from '../../schema/schema-resolver';
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
export function resolverFor(resolverPath: string | undefined): SchemaResolver {
  return new SchemaResolver({ resolverPath: resolverPath ?? process.env[RESOLVER_PATH_ENV] ?? '' });
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

/**
 * `svc schema <name-or-file>`: parses a schema and prints it as canonical JSON (a file's top-level schemas one
 * per line), or every problem found (exit 2).
 */
export function schemaCommand(): Command {
  return new Command('schema')
    .description(
      'parse a schema (a full name on the resolver path, or a .pdsc file) and print it as canonical JSON; ' +
        'on problems print every one of them and exit with 2',
    )
    .argument('<name-or-file>', 'full name of a named schema (com.example.Photo), or a schema file')
    .addOption(resolverPathOption())
    .option('--pretty', 'indent the JSON by two spaces', false)
    .addHelpText('after', RESOLVER_PATH_HELP)
    .action(async (nameOrFile: string, opts: { resolverPath?: string; pretty: boolean }) => {
      const schemas = loadSchemas(nameOrFile, resolverFor(opts.resolverPath));
      await writeOutput(`${schemasToJson(schemas, { indent: opts.pretty ? 2 : 0 })}\n`);
    });
}
