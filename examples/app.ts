/**
 * The example service as a fastify app: the photo library's resources served by `svcPlugin`, with
 * embedded defaults (an in-memory store, no Redis). `server.ts` starts it; tests and the benchmark build
 * it here.
 */
import fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { svcPlugin, svcServerOptions, type SvcPluginOptions } from 'svc-framework';
import { exampleResources } from './resources';
import { type PhotoLibrary, seededLibrary } from './store';

/** Options of {@link createExampleApp}. */
export interface ExampleAppOptions {
  /** The store; default a freshly seeded one. */
  readonly library?: PhotoLibrary;
  /** fastify's options (logger...). */
  readonly fastify?: FastifyServerOptions;
  /** Base URL of another instance, for `photos?action=relay`. Default: none. */
  readonly upstream?: string;
  /** svcPlugin options besides the resources (mode, validation, prefix...). */
  readonly svc?: Omit<SvcPluginOptions, 'resources'> & { readonly prefix?: string };
}

/** Builds (but does not start) the example service. */
export async function createExampleApp(options: ExampleAppOptions = {}): Promise<FastifyInstance> {
  const library = options.library ?? seededLibrary();
  // request and connection timeouts (a stalled upload is answered 408 and closed), and the errors raised
  // before any plugin runs (malformed framing, unknown methods, huge headers) answered as ErrorResponses
  const { prefix: _prefix, ...svc } = options.svc ?? {};
  const app = fastify({ ...svcServerOptions(svc), ...options.fastify });
  await app.register(svcPlugin, {
    ...options.svc,
    resources: exampleResources(
      library,
      options.upstream === undefined ? {} : { upstream: options.upstream },
    ),
  });
  return app;
}
