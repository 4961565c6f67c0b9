import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/**
 * The cores a benchmark's processes run on, and the CPU time they used: the HTTP benchmarks pin their server
 * to one core and their load generator to the other (2-core machines), and read the server's CPU time from
 * Linux `/proc`. Builtins only, so that a server process loads nothing else through this module.
 */

let taskset: string | undefined | null = null;

/**
 * taskset's path, when there is one, more than one core to pin to, and this process may pin (a container
 * may refuse `sched_setaffinity`); looked up on first call, so that a server process never spawns it.
 */
export function tasksetPath(): string | undefined {
  if (taskset === null) {
    const found =
      os.cpus().length < 2 ? undefined : ['/usr/bin/taskset', '/bin/taskset'].find((p) => fs.existsSync(p));
    taskset =
      found !== undefined && spawnSync(found, ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0
        ? found
        : undefined;
  }
  return taskset;
}

/** A command line, and whether it runs pinned. */
export interface PinnedCommand {
  readonly cmd: string;
  readonly args: string[];
  readonly pinned: boolean;
}

/** Runs `argv` pinned to `cores` (a taskset CPU list: `1`, `0,1`) with taskset when there is one. */
export function pinned(cores: string | number, argv: readonly string[]): PinnedCommand {
  const path = tasksetPath();
  if (path === undefined) return { cmd: argv[0]!, args: argv.slice(1), pinned: false };
  return { cmd: path, args: ['-c', String(cores), ...argv], pinned: true };
}

/**
 * A process's CPU time so far (all its threads, user and system), ms, from Linux `/proc` (clock ticks of
 * 10 ms); undefined elsewhere, or when the process is gone. Beside requests/s: a server near what its load
 * generator can send (one autocannon process: ~30 000 gets/s on the 2-core machines; load-generator.ts)
 * shows only part of its cost in requests/s, and all of it in CPU time per request.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // the fields after the command name, which is in parentheses and may hold spaces
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}
