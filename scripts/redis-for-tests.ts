/**
 * The suite's own redis-server (the BullMQ driver's tests need a real one): started by the jest global
 * setup on a free loopback port, exposed to the test workers as `SVC_TEST_REDIS_URL`, stopped by this
 * module's default export (the jest global teardown), and killed with its directory removed on process exit
 * if teardown never runs.
 */
import { RedisServer } from '../test/support/redis-server';

// the global setup and teardown may load this module separately: the server lives on globalThis
const KEY = '__svcTestRedisServer';
type Holder = { [KEY]?: RedisServer };

export async function startRedisForTests(): Promise<void> {
  const holder = globalThis as Holder;
  if (holder[KEY] !== undefined) return;
  const server = await RedisServer.start();
  holder[KEY] = server;
  process.env.SVC_TEST_REDIS_URL = server.url;
  process.once('exit', () => server.disposeNow());
}

export default async function stopRedisForTests(): Promise<void> {
  const holder = globalThis as Holder;
  const server = holder[KEY];
  holder[KEY] = undefined;
  await server?.dispose();
}
