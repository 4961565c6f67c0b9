import { Command, CommanderError } from 'commander';
import { isSvcError } from '../errors/svc-error';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE } from './cli-error';
import { avroCommand } from './commands/avro-command';
import { compatCommand } from './commands/compat';
import { psonCommand } from './commands/pson-command';
import { generateCommand } from './commands/generate-command';
import { schemaCommand } from './commands/schema-command';
import { validateCommand } from './commands/validate-command';
import { workerCommand } from './commands/worker';
import { serveCommand } from './commands/serve';
import { idlCommand } from './commands/idl';
import { openapiCommand } from './commands/openapi';
import { replayCommand } from './commands/replay';
import { endQuietlyOnClosedPipe, writeError, writeOutput } from './io';

/** The `svc` program; each layer adds its subcommand here. */
export function buildProgram(): Command {
  const program = new Command('svc')
    .description('Svc: typed HTTP resource services, wire-compatible with Rest.li 2.0')
    .version(version(), '-V, --version')
    .exitOverride();
  program.addCommand(psonCommand());
  program.addCommand(generateCommand());
  program.addCommand(avroCommand());
  program.addCommand(validateCommand());
  program.addCommand(schemaCommand());
  program.addCommand(serveCommand());
  program.addCommand(workerCommand());
  program.addCommand(idlCommand());
  program.addCommand(compatCommand());
  program.addCommand(openapiCommand());
  program.addCommand(replayCommand());
  // help and usage errors go where the run's output goes (commander's addCommand copies no settings)
  const output = { writeOut: (s: string) => void writeOutput(s), writeErr: (s: string) => writeError(s) };
  const configure = (cmd: Command): void => {
    cmd.exitOverride().configureOutput(output);
    cmd.commands.forEach(configure);
  };
  configure(program);
  return program;
}

function version(): string {
  // dist/cli/main.js and src/cli/main.ts are both two levels below the package root
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../../package.json') as { version: string }).version;
}

/** Runs the CLI and returns the exit code: 0 ok, 1 invalid input, 2 usage or schema error. */
export async function main(argv: readonly string[]): Promise<number> {
  endQuietlyOnClosedPipe();
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT_OK;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (isSvcError(err)) {
      writeError(`svc: ${err.name} [${err.code}]: ${err.message}\n`);
      return err.code === 'SVC_ERR_CLI_USAGE' ||
        err.code === 'SVC_ERR_COMPAT_INPUT' ||
        err.code === 'SVC_ERR_REPLAY_INPUT' ||
        err.code.startsWith('SVC_ERR_SCHEMA_')
        ? EXIT_USAGE
        : EXIT_INVALID;
    }
    // a system error (no such file, ...); not `instanceof Error`: an embedding program may run the CLI in
    // another realm (a vm context, jest), whose Error is not this one's
    if (isSystemError(err)) {
      writeError(`svc: ${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
}

function isSystemError(err: unknown): err is NodeJS.ErrnoException & { message: string } {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as NodeJS.ErrnoException).syscall === 'string' &&
    typeof (err as Error).message === 'string'
  );
}
