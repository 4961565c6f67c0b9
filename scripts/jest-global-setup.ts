/**
 * Jest globalSetup: generates the test trees before any test runs, so `npx jest <anything>` works on a
 * fresh clone, and starts the suite's redis-server (scripts/redis-for-tests.ts) and, when the run includes
 * a file that needs one, its PostgreSQL (scripts/postgres-for-tests.ts). Writes only files whose text
 * changed, so runs in parallel checkouts do not disturb each other.
 */
import { generateAll } from './generate';
import { type TestRunConfig, startPostgresForTests } from './postgres-for-tests';
import { startRedisForTests } from './redis-for-tests';

export default async function globalSetup(globalConfig?: TestRunConfig): Promise<void> {
  generateAll();
  await Promise.all([startRedisForTests(), startPostgresForTests(globalConfig)]);
}
