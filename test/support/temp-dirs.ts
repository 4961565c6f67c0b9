import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A maker of temp directories (`<os tmp>/<prefix>XXXXXX`) that removes every one it made after the test
 * file's tests (jest `afterAll`), so that a test file leaves nothing in the OS temp directory. Call it at
 * the top level of a test file or describe block.
 */
export function tempDirs(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
