/**
 * The request logger fastify gets from `fastifyRequestIdOptions()`: made on first use, so that a request
 * that logs nothing costs no pino child, and one that logs writes its lines with the request id; given the
 * application's logger (`fastifyRequestIdOptions({ loggerInstance })`), through fastify's own child
 * factory, with every line the logger and its children write unchanged.
 */
import { Writable } from 'node:stream';
import fastify from 'fastify';
import pino from 'pino';
import { fastifyRequestIdOptions } from '../../src';

function capture(): { lines: Array<Record<string, unknown>>; stream: Writable } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l !== '') lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, stream };
}

it('makes no child logger for a request that logs nothing, and one with the request id for a request that does', async () => {
  const { lines, stream } = capture();
  const logger = pino({ level: 'info' }, stream);
  const child = jest.spyOn(logger, 'child');
  const app = fastify({ ...fastifyRequestIdOptions(), loggerInstance: logger });
  app.get('/quiet', () => ({ ok: true }));
  app.get('/chatty', (request) => {
    request.log.info({ extra: 1 }, 'handled');
    expect(request.log.level).toBe('info');
    expect(typeof request.log.child).toBe('function');
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    child.mockClear();
    expect((await fetch(`${base}/quiet`, { headers: { 'x-request-id': 'q-1' } })).status).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect((await fetch(`${base}/chatty`, { headers: { 'x-request-id': 'c-1' } })).status).toBe(200);
    expect(child).toHaveBeenCalledTimes(1);
    await new Promise((r) => setImmediate(r));
    expect(lines.filter((l) => l.msg === 'handled')).toEqual([
      expect.objectContaining({ reqId: 'c-1', extra: 1, level: 30 }),
    ]);
  } finally {
    await app.close();
  }
});

it('writes each stand-in with its own bindings through methods looked up before its child exists', () => {
  const { lines, stream } = capture();
  const logger = pino({ level: 'info' }, stream);
  const { childLoggerFactory } = fastifyRequestIdOptions();
  const a = childLoggerFactory(logger, { reqId: 'a-1' }, {});
  const b = childLoggerFactory(logger, { reqId: 'b-1' }, {});
  // looked up first (as fastify checks that they exist), called later
  const infoA = a.info;
  expect(typeof infoA).toBe('function');
  expect(b.info).toBe(infoA); // one method for every stand-in: nothing made per request
  b.warn('second');
  infoA.call(a, 'first');
  expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
    ['b-1', 'second'],
    ['a-1', 'first'],
  ]);
  // once the child exists, its own methods come bound to it; before, a method called without its logger
  // says so (pino's own methods need theirs too)
  const detachedLater = b.error;
  detachedLater('third');
  expect(lines.at(-1)).toMatchObject({ reqId: 'b-1', msg: 'third' });
  const detached = childLoggerFactory(logger, { reqId: 'c-1' }, {}).error;
  expect(() => detached('lost')).toThrow(new TypeError('request.log.error was called without its logger'));
});

it('answers whatever its class does not hold from its real child: a getter, a set, `in`, another method', () => {
  const { lines, stream } = capture();
  const logger = pino({ level: 'info' }, stream);
  const child = jest.spyOn(logger, 'child');
  const { childLoggerFactory } = fastifyRequestIdOptions();
  const log = childLoggerFactory(logger, { reqId: 'd-1' }, {});
  // what fastify checks of a factory's logger makes no child
  for (const name of ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'child'] as const)
    expect(typeof log[name]).toBe('function');
  expect('isLevelEnabled' in log).toBe(true);
  expect('noSuchThing' in log).toBe(false);
  expect(child).not.toHaveBeenCalled();
  expect(log.isLevelEnabled('debug')).toBe(false);
  expect(child).toHaveBeenCalledTimes(1);
  log.level = 'debug';
  expect(log.level).toBe('debug');
  expect(logger.level).toBe('info'); // set on the child, not its parent
  log.debug('now written');
  expect(log.bindings()).toEqual({ reqId: 'd-1' });
  expect(lines.map((l) => [l.reqId, l.level, l.msg])).toEqual([['d-1', 20, 'now written']]);
  expect(child).toHaveBeenCalledTimes(1);
});

it("given the logger, makes request loggers on first use through fastify's own factory, and leaves the logger as it was", async () => {
  const { lines, stream } = capture();
  const logger = pino({ level: 'info' }, stream);
  const childOfLogger = logger.child;
  const options = fastifyRequestIdOptions({ loggerInstance: logger });
  expect(options).not.toHaveProperty('childLoggerFactory');
  // pino's own child, as fastify's logger holds it
  const pinoChild = jest.spyOn(Object.getPrototypeOf(logger) as { child: () => unknown }, 'child');
  const app = fastify(options);
  let quietLog: unknown;
  app.get('/quiet', (request) => {
    quietLog = request.log;
    return { ok: true };
  });
  app.get('/chatty', (request) => {
    request.log.info({ extra: 1 }, 'handled');
    request.log.child({ step: 2 }).warn('deeper');
    expect(request.log.level).toBe('info');
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    pinoChild.mockClear();
    expect((await fetch(`${base}/quiet`, { headers: { 'x-request-id': 'q-2' } })).status).toBe(200);
    expect(pinoChild).not.toHaveBeenCalled();
    expect((await fetch(`${base}/chatty`, { headers: { 'x-request-id': 'c-2' } })).status).toBe(200);
    // the request's child, then the child of that child
    expect(pinoChild).toHaveBeenCalledTimes(2);
    app.log.info('from the app');
    app.log.child({ part: 'x' }).info('from a child of the app');
    await new Promise((r) => setImmediate(r));
    expect(
      lines
        .filter((l) => l.msg !== 'Server listening at ' + base)
        .map((l) => [l.msg, l.reqId, l.extra ?? l.step ?? l.part]),
    ).toEqual([
      ['handled', 'c-2', 1],
      ['deeper', 'c-2', 2],
      ['from the app', undefined, undefined],
      ['from a child of the app', undefined, 'x'],
    ]);
    // the request logger of a quiet request is still a logger, made when first used
    expect((quietLog as { bindings(): unknown }).bindings()).toEqual({ reqId: 'q-2' });
    // the application's own logger is untouched: its children are made at once, as pino makes them
    pinoChild.mockRestore();
    expect(logger.child).toBe(childOfLogger);
    expect(Object.getPrototypeOf(logger.child({ a: 1 }))).toBe(logger);
  } finally {
    pinoChild.mockRestore();
    await app.close();
  }
});
