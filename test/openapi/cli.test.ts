import { readFileSync } from 'node:fs';
import path from 'node:path';
import { exampleInterfaces } from '../../examples/interfaces';
import { main } from '../../src/cli/main';
import { openApiDocument } from '../../src/openapi';
import { tempDirs } from '../support/temp-dirs';

/** `svc openapi`, run in this process (the CLI's spawn is what `svc idl export`'s tests prove already). */

type Write = (chunk: string | Uint8Array, encoding?: unknown, done?: unknown) => boolean;

/** Collects what is written, calling back as a stream does (the CLI waits for its output to be written). */
function collect(into: string[]): Write {
  return (chunk, encoding, done) => {
    into.push(String(chunk));
    const callback = typeof encoding === 'function' ? encoding : done;
    if (typeof callback === 'function') (callback as () => void)();
    return true;
  };
}

const tempDir = tempDirs('svc-openapi-cli-');

describe('svc openapi', () => {
  it("writes the document of a module's interfaces, as openApiDocument makes it", async () => {
    const out = path.join(tempDir(), 'api', 'openapi.json');
    const written: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(collect(written));
    try {
      const module = path.resolve(__dirname, '../../examples/interfaces.ts');
      const code = await main([
        'node',
        'svc',
        'openapi',
        module,
        out,
        '--title',
        'Photos',
        '--api-version',
        '1.2.3',
      ]);
      expect(code).toBe(0);
    } finally {
      write.mockRestore();
    }
    expect(written.join('')).toBe(`${out}\n`);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(
      JSON.parse(
        JSON.stringify(
          openApiDocument(Object.values(exampleInterfaces), { title: 'Photos', version: '1.2.3' }),
        ),
      ),
    );
  });

  it('refuses a module that exports no resources (exit 2)', async () => {
    const errors: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(collect(errors));
    try {
      expect(await main(['node', 'svc', 'openapi', path.resolve(__dirname, '../../examples/store.ts')])).toBe(
        2,
      );
    } finally {
      write.mockRestore();
    }
    expect(errors.join('')).toMatch(/exports no resource definitions or interfaces/);
  });
});
