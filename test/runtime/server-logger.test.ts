/**
 * The server's own logger (the `logger` option of svcPlugin and createSvcServer), over real HTTP: the
 * pipeline's error lines and handlers' `ctx.log` lines go to it, each with the request's id as `reqId`
 * when `requestIds` keeps ids (fastify itself without a logger); the request's child logger is made on its
 * first line only; a logger that cannot bind still gets the lines; a bad logger is refused by name.
 */
import type { Server } from 'node:http';
import fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import {
  type RequestObserver,
  type SvcLogger,
  SvcPluginOptionsError,
  createSvcServer,
  listenOn,
  requestIds,
  svcPlugin,
} from '../../src';
import { things } from './support/things';

type Line = Record<string, unknown>;


/** A pino logger writing into `lines`, counting the children made of it. */
function capturingLogger(): { logger: SvcLogger; lines: Line[]; children: () => number } {
  const lines: Line[] = [];
  let children = 0;
  const logger = pino({ level: 'info' }, { write: (s: string) => lines.push(JSON.parse(s) as Line) });
  const child = logger.child.bind(logger);
  logger.child = ((bindings: pino.Bindings) => {
    children++;
    return child(bindings);
  }) as unknown as typeof logger.child;
  return { logger, lines, children: () => children };
}

interface Running {
  readonly base: string;
  close(): Promise<void>;
}

async function plugin(logger: SvcLogger, observers: RequestObserver[]): Promise<Running> {
  // fastify without a logger of its own: the plugin's lines go to the plugin's
  const app = fastify() as unknown as FastifyInstance;
  await app.register(svcPlugin, { resources: [things], logger, observers });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`,
    close: () => app.close(),
  };
}

async function standalone(logger: SvcLogger, observers: RequestObserver[]): Promise<Running> {
  const server: Server = createSvcServer({ resources: [things], logger, observers });
  const base = `http://127.0.0.1:${(await listenOn(server)).port}`;
  return {
    base,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describe.each([
  ['svcPlugin', plugin],
  ['createSvcServer', standalone],
])('the server logger of %s', (_name, start) => {
  it.each([
    ['the id the client sent', 'sent-1'],
    ['a new id (none sent)', undefined],
  ])("writes an error response's line with %s as reqId", async (_what, sent) => {
    const { logger, lines } = capturingLogger();
    const server = await start(logger, [requestIds()]);
    try {
      const res = await fetch(`${server.base}/things/500`, {
        headers: sent === undefined ? {} : { 'x-request-id': sent },
      });
      expect(res.status).toBe(500);
      const id = res.headers.get('x-request-id');
      expect(id).toEqual(sent ?? expect.stringMatching(/^[0-9a-f-]{36}$/));
      expect(lines).toEqual([
        expect.objectContaining({ level: 50, msg: 'resource request failed', reqId: id }),
      ]);
    } finally {
      await server.close();
    }
  });

  it("gives handlers the request's logger (ctx.log), its lines with reqId", async () => {
    const { logger, lines } = capturingLogger();
    const server = await start(logger, [requestIds()]);
    try {
      const res = await fetch(`${server.base}/things/42`, { headers: { 'x-request-id': 'h-1' } });
      expect(res.status).toBe(200);
      expect(lines).toEqual([expect.objectContaining({ msg: 'handler line', answer: 42, reqId: 'h-1' })]);
    } finally {
      await server.close();
    }
  });

  it('makes a child logger only for a request that writes a line', async () => {
    const { logger, lines, children } = capturingLogger();
    const server = await start(logger, [requestIds()]);
    try {
      for (let i = 1; i <= 20; i++) expect((await fetch(`${server.base}/things/${i}`)).status).toBe(200);
      expect(children()).toBe(0);
      expect((await fetch(`${server.base}/things/500`)).status).toBe(500);
      expect(children()).toBe(1);
      expect(lines).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('writes lines without reqId when no observer keeps ids', async () => {
    const { logger, lines, children } = capturingLogger();
    const server = await start(logger, []);
    try {
      expect((await fetch(`${server.base}/things/500`, { headers: { 'x-request-id': 'x-1' } })).status).toBe(
        500,
      );
      expect(lines).toEqual([expect.objectContaining({ msg: 'resource request failed' })]);
      expect(lines[0]).not.toHaveProperty('reqId');
      expect(children()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('writes to a logger that cannot bind (no child) as it is', async () => {
    const seen: Array<[string, unknown, string | undefined]> = [];
    const plain: SvcLogger = {
      error: (obj, msg) => seen.push(['error', obj, msg]),
      warn: (obj, msg) => seen.push(['warn', obj, msg]),
      info: (obj, msg) => seen.push(['info', obj, msg]),
      debug: (obj, msg) => seen.push(['debug', obj, msg]),
    };
    const server = await start(plain, [requestIds()]);
    try {
      expect((await fetch(`${server.base}/things/500`)).status).toBe(500);
      expect(seen).toEqual([['error', { err: expect.any(Error) }, 'resource request failed']]);
    } finally {
      await server.close();
    }
  });
});

describe('a bad logger option', () => {
  it.each([
    ['a string', 'stdout'],
    ['an object without debug', { error() {}, warn() {}, info() {} }],
    ['null', null],
  ])('is refused by createSvcServer, naming the option (%s)', (_what, logger) => {
    const create = (): unknown =>
      createSvcServer({ resources: [things], logger: logger as unknown as SvcLogger });
    expect(create).toThrow(SvcPluginOptionsError);
    expect(create).toThrow(/logger/);
  });

  it('fails the plugin at ready, naming the option', async () => {
    const app = fastify();
    await app
      .register(svcPlugin, { resources: [things], logger: 'stdout' as unknown as SvcLogger })
      .ready()
      .then(
        () => {
          throw new Error('expected the plugin to fail');
        },
        (err: unknown) => {
          expect(err).toBeInstanceOf(SvcPluginOptionsError);
          expect((err as Error).message).toMatch(/logger/);
        },
      );
    await app.close();
  });
});
