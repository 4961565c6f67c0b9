/**
 * The processes a benchmark spawns of itself (a server pinned to one core, a load driver on the other) run
 * the same file with a role flag. This module picks and runs the role; it imports nothing, so a server
 * process loads no more than what it serves (the harness and tinybench stay in the parent).
 */

/** What a role does: resolves when the process may exit, rejects on failure. */
export type Role = () => Promise<void>;

/** The role whose `--<name>` flag this process was started with, if any. */
export function roleFromFlags(roles: Readonly<Record<string, Role>>): Role | undefined {
  const name = Object.keys(roles).find((r) => process.argv.includes(`--${r}`));
  return name === undefined ? undefined : roles[name];
}

/** Runs `role` (when there is one); a failure prints its stack and exits 1. */
export function runRole(role: Role | undefined): void {
  role?.().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}

/**
 * A server role's way out when nobody drives it: `stop` runs once, when the driver is gone (the IPC channel
 * closes: the harness stops a driver at its time budget) or on SIGTERM. Servers were left running, with
 * their apps' data dirs in the temp dir, when a driver was killed.
 */
export function stopWhenUndriven(stop: () => void): void {
  let stopping = false;
  const once = (): void => {
    if (stopping) return;
    stopping = true;
    stop();
  };
  process.on('disconnect', once);
  process.on('SIGTERM', once);
}

/** A driver role stopped (the harness's budget, Ctrl-C, a hang-up) stops its servers (SIGTERM) and exits 1. */
export function stopServersWhenStopped(servers: Iterable<{ kill(signal: NodeJS.Signals): boolean }>): void {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
    process.once(signal, () => {
      for (const server of servers) server.kill('SIGTERM');
      process.exit(1);
    });
}

/** What {@link stopServer} needs of a server's child process (a `ChildProcess`). */
interface StoppableServer {
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  readonly connected: boolean;
  send(message: string): boolean;
  kill(signal: NodeJS.Signals): boolean;
  once(event: 'exit', listener: () => void): unknown;
}

/**
 * Stops a server role (its `stop` message: it closes and removes what it made) and resolves once it has
 * exited; one that has exited already resolves at once, one whose channel is gone gets SIGTERM.
 */
export async function stopServer(server: StoppableServer): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  if (server.connected) server.send('stop');
  else server.kill('SIGTERM');
  await exited;
}
