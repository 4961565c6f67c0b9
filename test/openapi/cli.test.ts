import { readFileSync } from 'node:fs';
import path from 'node:path';
import { exampleInterfaces } from '../../examples/interfaces';
import { openApiDocument } from '../../src/openapi';
import { runCli } from '../support/run-cli';
import { tempDirs } from '../support/temp-dirs';

const tempDir = tempDirs('svc-openapi-cli-');

describe('svc openapi', () => {
  it("writes the document of a module's interfaces, as openApiDocument makes it", async () => {
    const out = path.join(tempDir(), 'api', 'openapi.json');
    const run = await runCli([
      'openapi',
      'examples/interfaces.ts',
      out,
      '--title',
      'Photos',
      '--api-version',
      '1.2.3',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.toString()).toBe(`${out}\n`);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(
      JSON.parse(
        JSON.stringify(
          openApiDocument(Object.values(exampleInterfaces), { title: 'Photos', version: '1.2.3' }),
        ),
      ),
    );
  });
});
