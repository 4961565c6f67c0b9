/**
 * Real services the tests need (redis-server, prometheus, chromium, postgres) come from Debian's packages:
 * found on the PATH (or in the given extra directories), and installed with apt-get when missing and
 * possible (as root, or with `sudo -n`), as a fresh CI machine needs them.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** The absolute path of an executable, or undefined. */
export function which(cmd: string, extraDirs: readonly string[] = []): string | undefined {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).concat(['/usr/bin', '/usr/sbin'], extraDirs);
  for (const dir of dirs) {
    if (dir === '') continue;
    const p = path.join(dir, cmd);
    if (spawnSync('test', ['-x', p]).status === 0) return p;
  }
  return undefined;
}

/**
 * Finds `cmd`, installing Debian's `pkg` when it is missing; undefined when that fails (no root, no sudo,
 * no network to the mirror), so the caller decides whether to fail or to skip with a message.
 */
export function ensureDebianCommand(
  cmd: string,
  pkg: string,
  options: { extraDirs?: readonly string[]; noRecommends?: boolean } = {},
): string | undefined {
  const extra = options.extraDirs ?? [];
  const found = which(cmd, extra);
  if (found !== undefined) return found;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const install = root ? ['apt-get'] : ['sudo', '-n', 'apt-get'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const recommends = options.noRecommends === true ? ['--no-install-recommends'] : [];
  for (const args of [
    ['update', '-q'],
    ['install', '-y', '-q', ...recommends, pkg],
  ]) {
    const r = spawnSync(install[0]!, [...install.slice(1), ...args], { stdio: 'ignore', env });
    if (r.status !== 0) break;
  }
  return which(cmd, extra);
}
