import { readFileSync } from 'node:fs';

/** Reads a whole input: a file path, or standard input for `-` or no path. */
export async function readInput(path: string | undefined): Promise<Uint8Array> {
  if (path !== undefined && path !== '-') return readFileSync(path);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Writes bytes or text to standard output and resolves once they are flushed. */
export function writeOutput(data: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(data, (err) => (err ? reject(err) : resolve()));
  });
}
