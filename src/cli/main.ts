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
import { replayCommand } from './commands/replay';

/** The `svc` program; each layer adds its subcommand here. */
export function buildProgram(): Command {
  const program = new Command('svc')
    .description('Svc: typed HTTP resource services, wire-compatible with Rest.li 2.0')
    .version(version(), '-V, --version')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  program.addCommand(psonCommand());
  program.addCommand(generateCommand());
  program.addCommand(avroCommand());
  program.addCommand(validateCommand());
  program.addCommand(schemaCommand());
  program.addCommand(serveCommand());
  program.addCommand(workerCommand());
  program.addCommand(idlCommand());
  program.addCommand(compatCommand());
  program.addCommand(replayCommand());
  for (const sub of program.commands) sub.exitOverride();
  return program;
}

function version(): string {
  // dist/cli/main.js and src/cli/main.ts are both two levels below the package root
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../../package.json') as { version: string }).version;
}

/** Runs the CLI and returns the exit code: 0 ok, 1 invalid input, 2 usage or schema error. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT_OK;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (isSvcError(err)) {
      process.stderr.write(`svc: ${err.name} [${err.code}]: ${err.message}\n`);
      return err.code === 'SVC_ERR_CLI_USAGE' ||
        err.code === 'SVC_ERR_COMPAT_INPUT' ||
        err.code === 'SVC_ERR_REPLAY_INPUT' ||
        err.code.startsWith('SVC_ERR_SCHEMA_')
        ? EXIT_USAGE
        : EXIT_INVALID;
    }
    if (err instanceof Error && 'code' in err && (err as NodeJS.ErrnoException).syscall !== undefined) {
      process.stderr.write(`svc: ${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
}
