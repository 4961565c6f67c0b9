import { types } from 'node:util';

/**
 * File-system faults as clients and job records may show them: what happened and its errno code, never a
 * path (Node's own messages name the file).
 */

const FAULTS: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exceeded',
  EFBIG: 'the file is too large for the file system',
  EACCES: 'the blob directory may not be written',
  EPERM: 'the blob directory may not be written',
  EROFS: 'the blob directory is on a read-only file system',
  ENOTDIR: 'the blob directory is missing or not a directory',
  ENOENT: 'the blob directory is missing or not a directory',
  EIO: 'the disk reported an I/O error',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
};

/** A fault as clients may read it: what happened and its errno code, never a path. */
export function describeFault(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string') return `${FAULTS[code] ?? 'the file system refused the write'} (${code})`;
  return 'the file system refused the write';
}

/** True for an error Node raised for a system call (it has an errno code such as ENOSPC and a syscall). */
export function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  // Node's own errors may come from another realm (a vm context, a test runner): not `instanceof Error`
  if (!(err instanceof Error) && !types.isNativeError(err)) return false;
  const e = err as NodeJS.ErrnoException;
  return typeof e.code === 'string' && /^E[A-Z0-9]+$/.test(e.code) && typeof e.syscall === 'string';
}
