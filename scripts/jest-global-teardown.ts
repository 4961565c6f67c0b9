/** Jest globalTeardown: stops what the global setup started (scripts/jest-global-setup.ts). */
import { stopPostgresForTests } from './postgres-for-tests';
import stopRedisForTests from './redis-for-tests';

export default async function globalTeardown(): Promise<void> {
  await Promise.all([stopRedisForTests(), stopPostgresForTests()]);
}
