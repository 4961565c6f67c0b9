import { Command, InvalidArgumentError, Option } from 'commander';
import {
  COMPAT_LEVELS,
  DEFAULT_COMPAT_LEVEL,
  failingCount,
  parseCompatLevel,
  type CompatLevel,
} from '../../idl/compat/compat-level';
import { compareInputs, compatReportJson, formatCompatReport } from '../../idl/compat/compare-inputs';
import { CompatCheckFailedError } from '../../idl/compat/errors';
import { SchemaResolver } from '../../schema/schema-resolver';
import { writeOutput } from '../io';
import { RESOLVER_PATH_ENV, RESOLVER_PATH_HELP, resolverPathOption } from './schema-command';

interface CompatOptions {
  level: CompatLevel;
  resolverPath?: string;
  json: boolean;
  directional: boolean;
  allowPromotions: boolean;
}

const HELP = `
Inputs:
  two .snapshot.json (or .restspec.json) files; two directories of them, paired by file name (a file
  only in <old> is a removed resource: breaking; only in <new>: compatible); or two schema trees
  (directories of .pdsc/.pdl files: every named schema in both is compared; removed: breaking).

Levels (Rest.li's CompatibilityLevel):
  off              do not check; exit 0
  ignore           check and report; exit 0
  wire-compatible  fail on breaking changes
  backwards        fail on breaking and wire-compatible changes (default)
  equivalent       fail on any change

Exit codes:
  0  the check passed at the level (always for off and ignore)
  1  changes the level does not allow were found (the report is still printed)
  2  usage error, or an input that is missing, unreadable or malformed`;

/**
 * `svc compat <old> <new>`: the release gate. Prints every change grouped by class (or `--json`) on
 * standard output, then exits by the level (see {@link HELP}).
 */
export function compatCommand(): Command {
  return new Command('compat')
    .description(
      'report every change between two IDL snapshots (or schema trees), classified as Rest.li does ' +
        '(compatible / wire-compatible / breaking); the exit code follows --level',
    )
    .argument('<old>', 'the released .snapshot.json / .restspec.json file, or directory')
    .argument('<new>', 'the candidate file or directory')
    .addOption(
      new Option('-l, --level <level>', `how strict the gate is: ${COMPAT_LEVELS.join(', ')}`)
        .default(DEFAULT_COMPAT_LEVEL)
        .argParser((value: string): CompatLevel => {
          const level = parseCompatLevel(value);
          if (level === undefined) throw new InvalidArgumentError(`Allowed: ${COMPAT_LEVELS.join(', ')}.`);
          return level;
        }),
    )
    .addOption(resolverPathOption())
    .option('--json', 'print the report as JSON', false)
    .option(
      '--directional',
      'judge type changes by who reads the data (request: the server, response: the client); default: as Rest.li',
      false,
    )
    .option('--allow-promotions', 'numeric promotions (int to long ...) are not breaking', false)
    .addHelpText('after', HELP + RESOLVER_PATH_HELP)
    .action(async (older: string, newer: string, opts: CompatOptions) => {
      if (opts.level === 'off') {
        await writeOutput(
          opts.json ? '{"level":"off","passed":true,"changes":[]}\n' : 'compatibility check is off\n',
        );
        return;
      }
      const resolverPath =
        opts.resolverPath !== undefined
          ? SchemaResolver.parseResolverPath(opts.resolverPath)
          : SchemaResolver.parseResolverPath(process.env[RESOLVER_PATH_ENV] ?? '');
      const report = compareInputs(older, newer, {
        resolverPath,
        directional: opts.directional,
        allowPromotions: opts.allowPromotions,
      });
      await writeOutput(
        opts.json ? compatReportJson(report, opts.level) : formatCompatReport(report, opts.level),
      );
      const failing = failingCount(report.changes, opts.level);
      if (failing > 0) throw new CompatCheckFailedError(opts.level, failing);
    });
}
