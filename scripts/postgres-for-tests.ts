/**
 * The suite's one PostgreSQL (issue 27): started by the jest global setup when the run includes a test file
 * that needs one (a file importing `postgresForTests`, test/support/postgres-server.ts), exposed to the
 * test workers as `SVC_TEST_POSTGRES_PORT`; each file makes its own databases on it. One `initdb` and one
 * start for the run instead of one per file (five files: ~2-5 s each on a loaded 2-core machine). Stopped
 * by {@link stopPostgresForTests} (the jest global teardown), and killed and removed on process exit if
 * the teardown never runs. A run without such a file (`npx jest test/data`) starts nothing.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PostgresServer, SHARED_POSTGRES_ENV } from '../test/support/postgres-server';

// the global setup and teardown may load this module separately: the server lives on globalThis
const KEY = '__svcTestPostgresServer';
type Holder = { [KEY]?: PostgresServer };

/** What of jest's global config says which test files run (the fields jest 30 has). */
export interface TestRunConfig {
  readonly rootDir: string;
  readonly testPathPatterns?: {
    isSet(): boolean;
    toExecutor(options: { rootDir: string }): { isMatch(absolutePath: string): boolean };
  };
}

/** How a test file that needs PostgreSQL starts: it imports `postgresForTests` from the test support. */
const USES_POSTGRES =
  /import\s*\{[^}]*\bpostgresForTests\b[^}]*\}\s*from\s*'[./]*\/support\/postgres-server'/;

/** The test files (absolute paths) under `dir` that use a PostgreSQL. */
export function postgresTestFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'generated' && entry.name !== 'node_modules') found.push(...postgresTestFiles(file));
    } else if (entry.name.endsWith('.test.ts') && USES_POSTGRES.test(readFileSync(file, 'utf8'))) {
      found.push(file);
    }
  }
  return found;
}

/** Whether the run may include a file that needs PostgreSQL: no path patterns (all files), or one matches. */
export function runNeedsPostgres(config: TestRunConfig | undefined): boolean {
  const patterns = config?.testPathPatterns;
  if (config === undefined || patterns === undefined || !patterns.isSet()) return true;
  const executor = patterns.toExecutor({ rootDir: config.rootDir });
  return postgresTestFiles(path.join(config.rootDir, 'test')).some((f) => executor.isMatch(f));
}

export async function startPostgresForTests(config?: TestRunConfig): Promise<void> {
  const holder = globalThis as Holder;
  if (holder[KEY] !== undefined || !runNeedsPostgres(config)) return;
  const server = await PostgresServer.start();
  holder[KEY] = server;
  process.env[SHARED_POSTGRES_ENV] = String(server.port);
  process.once('exit', () => holder[KEY]?.disposeNow());
}

export async function stopPostgresForTests(): Promise<void> {
  const holder = globalThis as Holder;
  const server = holder[KEY];
  holder[KEY] = undefined;
  delete process.env[SHARED_POSTGRES_ENV];
  await server?.dispose();
}
