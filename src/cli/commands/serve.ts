import { Command, InvalidArgumentError } from 'commander';
import fastify from 'fastify';
import type { ResourceDefinition } from '../../resources/definition';
import { svcPlugin } from '../../server/fastify-plugin';
import { svcServerOptions } from '../../server/server-options';
import { type AppFactory, type ServedApp, type ServiceContext, serve } from '../../runtime/serve';
import { workerCount } from '../../runtime/runner';
import { CliUsageError } from '../cli-error';
import { TYPESCRIPT_MODULES_HELP, loadUserModule } from '../load-module';

interface ServeCommandOptions {
  readonly workers: string;
  readonly port?: number;
  readonly host?: string;
  readonly prefix?: string;
  readonly shutdownTimeout: number;
  readonly loadShedding: boolean;
  readonly maxEventLoopDelay?: number;
  readonly livePath?: string;
  readonly readyPath?: string;
  readonly metricsPort?: number;
}

function wholeNumber(what: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max)
      throw new InvalidArgumentError(`${what}: give a whole number from ${min} to ${max}.`);
    return n;
  };
}

const HELP = `
The module (.js, or .ts through the project's TypeScript loader: see the end) exports one of
  - an app factory, as its default export or as 'createApp': (context) => app | Promise<app>, where app is
    a fastify instance (or anything with a node:http 'server' and a 'close()'); context.health.addCheck(name,
    check) adds readiness checks, context.shutdown.addHook(name, fn) adds shutdown steps
  - resources, as its default export or as 'resources': an array of resource definitions, served by
    svcPlugin on fastify(svcServerOptions()) under --prefix

Every process answers GET /health/live (200 while its event loop turns) and GET /health/ready (200 when every
readiness check passes and it is not shutting down, else 503 naming the failing checks), and sheds load
(503 with Retry-After) while its event loop runs late.

With --workers above 1 a runner forks that many workers sharing the port and replaces one that dies (a
crash loop ends it with exit code 1); SIGHUP replaces the workers one by one without refusing a request.
SIGTERM or SIGINT: readiness turns 503, the listener closes, in-flight requests get --shutdown-timeout to
finish, then the rest are aborted, the app is closed and the process exits 0. A second signal exits at once
(one within 0.5 s of the first is the same stop relayed, as npm passes a terminal's Ctrl-C on, and is ignored).

Metrics: an app that serves createMetrics().route answers, under the runner, the totals of every worker
(the primary sums them on request), whichever worker the scraper reached; --metrics-port serves the same
from the primary on a port of its own.`;

/** `svc serve`: serves a module's app or resources with the production runtime (issue 24). */
export function serveCommand(): Command {
  return new Command('serve')
    .description(
      'serve a module exporting resources or an app factory: runner, health, shedding, graceful shutdown',
    )
    .argument('<module>', 'the module to serve (see below)')
    .option('--workers <n|auto>', "worker processes ('auto': one per CPU)", process.env.WORKERS ?? '1')
    .option(
      '--port <port>',
      'port to listen on (default: PORT, else 8080; 0 picks a free one)',
      wholeNumber('--port', 0, 65535),
    )
    .option('--host <host>', 'address to listen on (default: HOST, else 127.0.0.1)')
    .option('--prefix <prefix>', 'URL prefix of the resources (resources modules only)')
    .option(
      '--shutdown-timeout <ms>',
      'on SIGTERM, how long in-flight requests may take before they are aborted',
      wholeNumber('--shutdown-timeout', 0, 86_400_000),
      30_000,
    )
    .option('--no-load-shedding', 'never refuse requests for overload')
    .option(
      '--max-event-loop-delay <ms>',
      'shed load while the event loop runs this late (default 50)',
      wholeNumber('--max-event-loop-delay', 1, 60_000),
    )
    .option('--live-path <path>', 'path of the liveness probe (default /health/live)')
    .option('--ready-path <path>', 'path of the readiness probe (default /health/ready)')
    .option(
      '--metrics-port <port>',
      "with --workers: the runner also serves every worker's metrics on this port (GET /metrics)",
      wholeNumber('--metrics-port', 0, 65535),
    )
    .addHelpText('after', `${HELP}\n${TYPESCRIPT_MODULES_HELP}\n`)
    .action((specifier: string, options: ServeCommandOptions) => runServe(specifier, options));
}

async function runServe(specifier: string, options: ServeCommandOptions): Promise<void> {
  let workers: number;
  try {
    workers = workerCount(options.workers);
  } catch (err) {
    throw new CliUsageError(`--workers: ${(err as Error).message}`);
  }
  const port = options.port ?? portFromEnv();
  const host =
    options.host ??
    (process.env.HOST !== undefined && process.env.HOST !== '' ? process.env.HOST : '127.0.0.1');
  // the runner's primary never loads the module: each worker does (a module that fails to load is then a
  // crash loop, reported as one); a single process loads it here, so a bad path is a usage error at once
  const factory: AppFactory = async (context) =>
    appFrom(await loadUserModule(specifier, 'svc serve'), specifier, options, context);
  await serve({
    app: factory,
    workers,
    port,
    host,
    shutdownTimeoutMs: options.shutdownTimeout,
    ...(options.metricsPort === undefined ? {} : { metricsPort: options.metricsPort }),
    loadShedding:
      options.loadShedding === false
        ? false
        : options.maxEventLoopDelay === undefined
          ? {}
          : { maxEventLoopDelayMs: options.maxEventLoopDelay },
    health: {
      ...(options.livePath === undefined ? {} : { livePath: options.livePath }),
      ...(options.readyPath === undefined ? {} : { readyPath: options.readyPath }),
    },
    onListening: (info) =>
      process.stderr.write(
        `svc serve: ${specifier} listening on http://${info.host}:${info.port} ` +
          `(pid ${info.pid}${info.workers > 1 ? `, ${info.workers} workers` : ''})\n`,
      ),
  });
  // serve() owns the process from here: it exits it when the service stops
  await new Promise<never>(() => undefined);
}

function portFromEnv(): number {
  const text = process.env.PORT;
  if (text === undefined || text === '') return 8080;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535) throw new CliUsageError(`PORT must be a port number, got '${text}'`);
  return n;
}

async function appFrom(
  mod: unknown,
  specifier: string,
  options: ServeCommandOptions,
  context: ServiceContext,
): Promise<ServedApp> {
  const m = (typeof mod === 'object' && mod !== null ? mod : {}) as Record<string, unknown>;
  const candidate = m.createApp ?? m.resources ?? m.default ?? (typeof mod === 'function' ? mod : undefined);
  if (typeof candidate === 'function') return await (candidate as AppFactory)(context);
  if (Array.isArray(candidate)) {
    const app = fastify({ ...svcServerOptions() });
    await app.register(svcPlugin, {
      resources: candidate as ResourceDefinition[],
      ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
    });
    return app;
  }
  throw new CliUsageError(
    `svc serve ${specifier}: export an app factory (default or 'createApp': (context) => fastify app) or resources (default or 'resources': an array of resource definitions)`,
  );
}
