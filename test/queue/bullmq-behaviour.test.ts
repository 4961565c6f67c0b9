/**
 * The BullMQ driver against the shared queue behaviour (the same table as the in-process driver), on the
 * suite's real redis-server (`SVC_TEST_REDIS_URL`), each test on a queue of its own.
 */
import { BullMqDriver } from '../../src/queue';
import { RedisServer } from '../support/redis-server';
import { describeDriverBehaviour } from './support/driver-behaviour';

let own: RedisServer | undefined;
let url: string;
let n = 0;

beforeAll(async () => {
  const shared = process.env.SVC_TEST_REDIS_URL;
  if (shared !== undefined && shared !== '') url = shared;
  else {
    own = await RedisServer.start();
    url = own.url;
  }
});
afterAll(async () => {
  await own?.dispose();
});

describeDriverBehaviour('BullMQ driver', {
  make: () =>
    Promise.resolve(
      new BullMqDriver({
        connection: url,
        queueName: `behaviour-${process.pid}-${++n}`,
        lockDurationMs: 5000,
        stalledIntervalMs: 5000,
      }),
    ),
});
