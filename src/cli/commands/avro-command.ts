import { Command, CommanderError, Option } from 'commander';
import { isSvcError } from '../../errors/svc-error';
import type { DataSchema } from '../../schema/data-schema';
import type { SchemaResolver } from '../../schema/schema-resolver';
import { schemaToJson } from '../../schema/schema-to-json';
import {
  AvroToDataSchemaTranslationMode,
  type AvroJsonStyle,
  DefaultFieldTranslationMode,
  EmbedSchemaMode,
  OptionalDefaultMode,
} from '../../schema/avro/avro-options';
import { avroToDataSchema } from '../../schema/avro/avro-to-data-schema';
import { dataToAvroSchemaJson } from '../../schema/avro/data-to-avro-schema';
import { CliUsageError, EXIT_USAGE } from '../cli-error';
import { readInput, writeError, writeOutput } from '../io';
import { loadSchemas, RESOLVER_PATH_HELP, resolverFor, resolverPathOption } from './schema-command';

interface ToAvroOptions {
  resolverPath?: string;
  optionalDefaultMode: OptionalDefaultMode;
  defaultFieldMode: DefaultFieldTranslationMode;
  embedSchema: EmbedSchemaMode;
  style: 'compact' | 'spaces' | 'indented';
  overrideNamespace: boolean;
  excludeTyperefProperties?: string;
}

interface FromAvroOptions {
  mode: AvroToDataSchemaTranslationMode;
  avroPath?: string;
  pretty: boolean;
}

/** `svc avro to-avro|from-avro`: translate schemas to and from Avro 1.4.1 schema JSON. */
export function avroCommand(): Command {
  const cmd = new Command('avro').description('translate schemas to and from Avro 1.4.1 schema JSON');

  cmd
    .command('to-avro')
    .exitOverride()
    .description(
      'print the Avro schema JSON of a schema: a .pdsc or .pdl file, - for standard input (.pdsc), or a full name',
    )
    .argument(
      '<name-or-file>',
      'a schema file, - for standard input, or a full name found on --resolver-path',
    )
    .addOption(resolverPathOption())
    .addHelpText('after', RESOLVER_PATH_HELP)
    .addOption(
      new Option('--optional-default-mode <mode>', 'how optional fields with a default are translated')
        .choices(Object.values(OptionalDefaultMode))
        .default(OptionalDefaultMode.TRANSLATE_DEFAULT),
    )
    .addOption(
      new Option(
        '--default-field-mode <mode>',
        'DO_NOT_TRANSLATE makes every defaulted field nullable with default null',
      )
        .choices(Object.values(DefaultFieldTranslationMode))
        .default(DefaultFieldTranslationMode.TRANSLATE),
    )
    .addOption(
      new Option('--embed-schema <mode>', 'ROOT_ONLY embeds the schema in the root under "com.linkedin.data"')
        .choices(Object.values(EmbedSchemaMode))
        .default(EmbedSchemaMode.NONE),
    )
    .addOption(
      new Option('--style <style>', 'JSON layout')
        .choices(['compact', 'spaces', 'indented'])
        .default('compact'),
    )
    .option('--override-namespace', 'prefix every namespace with "avro."', false)
    .option(
      '--exclude-typeref-properties <names>',
      'comma-separated typeref properties not copied onto fields',
    )
    .action(async (target: string, opts: ToAvroOptions) => {
      const resolver = resolverFor(opts.resolverPath);
      const schema = await loadSchema(resolver, target);
      const json = translating(() =>
        dataToAvroSchemaJson(schema, {
          optionalDefaultMode: opts.optionalDefaultMode,
          defaultFieldTranslationMode: opts.defaultFieldMode,
          embedSchemaMode: opts.embedSchema,
          style: opts.style.toUpperCase() as AvroJsonStyle,
          overrideNamespace: opts.overrideNamespace,
          typerefPropertiesExcludeSet: (opts.excludeTyperefProperties ?? '')
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== ''),
        }),
      );
      await writeOutput(`${json}\n`);
    });

  cmd
    .command('from-avro')
    .exitOverride()
    .description('print, as canonical schema JSON, the schema an Avro schema (.avsc) translates to')
    .argument('<file>', 'an .avsc file, or - for standard input')
    .addOption(
      new Option('--mode <mode>', 'what to do with a schema embedded under "com.linkedin.data"')
        .choices(Object.values(AvroToDataSchemaTranslationMode))
        .default(AvroToDataSchemaTranslationMode.RETURN_EMBEDDED_SCHEMA),
    )
    .option(
      '--avro-path <dirs>',
      'colon-separated directories searched for named Avro schemas (<dir>/a/b/Name.avsc)',
    )
    .option('--pretty', 'indent the output', false)
    .action(async (file: string, opts: FromAvroOptions) => {
      const text = Buffer.from(await readInput(file)).toString('utf8');
      const schema = translating(() =>
        avroToDataSchema(text, { translationMode: opts.mode, fileResolutionPaths: opts.avroPath ?? [] }),
      );
      await writeOutput(`${schemaToJson(schema, { indent: opts.pretty ? 2 : 0 })}\n`);
    });

  return cmd;
}

/** A schema file, standard input (`-`), or a full name looked up on the resolver path. */
async function loadSchema(resolver: SchemaResolver, target: string): Promise<DataSchema> {
  if (target === '-') {
    const text = Buffer.from(await readInput('-')).toString('utf8');
    return last(resolver.parseText(text, '<stdin>'), target);
  }
  return last(loadSchemas(target, resolver), target);
}

function last(schemas: readonly DataSchema[], target: string): DataSchema {
  const schema = schemas[schemas.length - 1];
  if (schema === undefined) throw new CliUsageError(`${target} holds no schema`);
  return schema;
}

/**
 * Runs a translation; an Avro translation error is reported like other errors and exits with the usage/schema
 * code (2), as schema errors do.
 */
function translating<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (isSvcError(err) && err.code.startsWith('SVC_ERR_AVRO_')) {
      writeError(`svc: ${err.name} [${err.code}]: ${err.message}\n`);
      throw new CommanderError(EXIT_USAGE, 'svc.avro.failed', err.message);
    }
    throw err;
  }
}
