/**
 * The suite's one PostgreSQL (scripts/postgres-for-tests.ts) is started only for runs that include a file
 * needing it: which files those are, and which jest path patterns select one. No server is started here.
 */
import path from 'node:path';
import { TestPathPatterns } from '@jest/pattern';
import { postgresTestFiles, runNeedsPostgres } from '../../scripts/postgres-for-tests';

const rootDir = path.join(__dirname, '../..');

describe('the shared PostgreSQL of a test run', () => {
  it('is needed by the files that import postgresForTests', () => {
    const files = postgresTestFiles(path.join(rootDir, 'test')).map((f) => path.relative(rootDir, f));
    expect(files).toEqual(
      expect.arrayContaining([
        'test/postgres/cursor-streams.test.ts',
        'test/postgres/large-object-blob-store.test.ts',
        'test/examples/example-resources.test.ts',
      ]),
    );
    // this file names the function without importing it
    expect(files).not.toContain('test/postgres/shared-server.test.ts');
  });

  it.each([
    ['the whole suite', [], true],
    ['a folder of postgres tests', ['test/postgres'], true],
    ['one example file on PostgreSQL', ['example-resources'], true],
    ['a folder holding one', ['test/examples'], true],
    ['files that need none', ['test/data', 'test/resources/streamed'], false],
  ])('is started for %s', (_name, patterns: string[], started) => {
    expect(runNeedsPostgres({ rootDir, testPathPatterns: new TestPathPatterns(patterns) })).toBe(started);
  });
});
