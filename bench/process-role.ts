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
