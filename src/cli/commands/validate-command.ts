import { Command, InvalidArgumentError, Option } from 'commander';
import { JsonCodec } from '../../data/codecs/json-codec';
import { isSvcError } from '../../errors/svc-error';
import type { DataValue } from '../../data/data-value';
import { DataList } from '../../data/data-list';
import { DataMap } from '../../data/data-map';
import { dataToJson } from '../../schema/value-text';
import { CoercionMode, COERCION_MODES } from '../../schema/validation/coercion-mode';
import { RequiredMode, REQUIRED_MODES } from '../../schema/validation/required-mode';
import {
  UnrecognizedFieldMode,
  UNRECOGNIZED_FIELD_MODES,
} from '../../schema/validation/unrecognized-field-mode';
import { validate } from '../../schema/validation/validate';
import { DataValidationError } from '../../schema/validation/validation-error';
import { CliUsageError } from '../cli-error';
import { readInput, writeOutput } from '../io';
import { prettyJson } from './pson-command';
import { loadSchemas, RESOLVER_PATH_HELP, resolverFor, resolverPathOption } from './schema-command';

const json = new JsonCodec();

/** A mode option: any case, `-` for `_` (`--required-mode must-be-present`). */
function modeOption<T extends string>(flags: string, what: string, modes: readonly T[], fallback: T): Option {
  return new Option(flags, `${what}: ${modes.join(', ')}`).default(fallback).argParser((value: string): T => {
    const mode = modes.find((m) => m === value.toUpperCase().replace(/-/g, '_'));
    if (mode === undefined) throw new InvalidArgumentError(`Allowed: ${modes.join(', ')}.`);
    return mode;
  });
}

/**
 * The JSON document as data, longs exact: an object or array through the codec; any other JSON value (a
 * string for a bytes schema, say) through a one-entry wrapper object. Input that is not JSON is an input
 * error (exit 2), not invalid data (exit 1): exit 1 must mean "read, and the schema says no".
 *
 * @throws CliUsageError for empty input or input that is not JSON (the decoder's error as `cause`)
 */
function parseData(bytes: Uint8Array, what: string): DataValue {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('utf8')
    .replace(/^\ufeff/, '');
  const first = /\S/.exec(text)?.[0];
  if (first === undefined) throw new CliUsageError('the input is empty; expected a JSON document');
  try {
    if (first === '{') return json.stringToMap(text);
    if (first === '[') return json.stringToList(text);
    return json.stringToMap(`{"value":${text}\n}`).get('value')!;
  } catch (err) {
    if (!isSvcError(err)) throw err;
    throw new CliUsageError(`${what} is not JSON: ${err.name} [${err.code}]: ${err.message}`, { cause: err });
  }
}

function toJson(value: DataValue): string {
  if (value instanceof DataMap) return json.mapToString(value);
  if (value instanceof DataList) return json.listToString(value);
  return dataToJson(value);
}

interface ValidateOptions {
  schema: string;
  resolverPath?: string;
  requiredMode: RequiredMode;
  coercionMode: CoercionMode;
  unrecognizedFieldMode: UnrecognizedFieldMode;
  pretty: boolean;
}

/**
 * `svc validate --schema <name-or-file> [file|-]`: validates a JSON document and prints the fixed data as
 * JSON on standard output (always, so that it can be piped on). The messages go to standard error, one per
 * line, after a summary line; exit 0 when valid, 1 when not, 2 on usage or input errors (unreadable,
 * empty or malformed input, schema errors).
 */
export function validateCommand(): Command {
  return new Command('validate')
    .description(
      'validate a JSON document against a schema; print the fixed data (stdout) and the validation messages ' +
        '(stderr); exit 0 when valid, 1 when not, 2 on usage or input errors (unreadable or malformed ' +
        'input, schema errors)',
    )
    .argument('[file]', 'JSON data file, or - for standard input', '-')
    .requiredOption(
      '-s, --schema <name-or-file>',
      'full name of a named schema on the resolver path, or a .pdsc or .pdl file (its last top-level schema)',
    )
    .addOption(resolverPathOption())
    .addOption(
      modeOption(
        '--required-mode <mode>',
        'absent required fields',
        REQUIRED_MODES,
        RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT,
      ),
    )
    .addOption(
      modeOption('--coercion-mode <mode>', 'coercion of primitives', COERCION_MODES, CoercionMode.NORMAL),
    )
    .addOption(
      modeOption(
        '--unrecognized-field-mode <mode>',
        'record fields the schema does not declare',
        UNRECOGNIZED_FIELD_MODES,
        UnrecognizedFieldMode.IGNORE,
      ),
    )
    .option('--pretty', 'indent the printed data (longs beyond 2^53 stay exact)', false)
    .addHelpText('after', RESOLVER_PATH_HELP)
    .action(async (file: string, opts: ValidateOptions) => {
      const schemas = loadSchemas(opts.schema, resolverFor(opts.resolverPath));
      const schema = schemas[schemas.length - 1];
      if (schema === undefined) throw new CliUsageError(`${opts.schema} defines no schema`);
      const what = `the data (${file === '-' ? 'standard input' : file})`;
      const data = parseData(await readInput(file), what);
      const result = validate(data, schema, {
        requiredMode: opts.requiredMode,
        coercionMode: opts.coercionMode,
        unrecognizedFieldMode: opts.unrecognizedFieldMode,
      });
      const text = toJson(result.getFixed());
      await writeOutput(`${opts.pretty ? prettyJson(text) : text}\n`);
      if (!result.isValid()) throw new DataValidationError(result, what);
    });
}
