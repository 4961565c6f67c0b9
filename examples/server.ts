/**
 * Starts the example service (`npm start`): the photo library on http://127.0.0.1:8080 (`PORT` and `HOST`
 * override; `PORT=0` picks a free port), and prints a few `curl` lines that work when pasted. A busy port
 * is a message naming `PORT`, not a stack trace. `WORKERS` (default 1) starts that many processes sharing
 * the port (`auto`: one per CPU) under a runner. SIGTERM and SIGINT shut down gracefully (in-flight
 * requests finish) and end the process; `npm start` execs this process (package.json), so the PID `npm
 * start` has is the one to signal.
 */
import { createAccessLog, serve } from 'svc-framework';
import path from 'node:path';
import { createExampleApp } from './app';
import { exampleSecurity, secureBanner } from './secure';

/**
 * Example requests against `base`, as shell lines. Each names protocol 2.0.0, as every Rest.li client does:
 * a request without a version header is taken as protocol 1.0.0 (Rest.li's rule for a client that names
 * none), whose URL grammar differs (`ids=1&ids=2`, `a=1&b=2` keys), and the reply says which version it
 * was answered in (`X-Svc-Protocol-Version`).
 */
export function curlLines(base: string): string[] {
  const v2 = "-H 'X-Svc-Protocol-Version: 2.0.0'";
  const json = `${v2} -H 'Content-Type: application/json'`;
  return [
    `curl -s ${v2} ${base}/photos/1`,
    `curl -s ${v2} '${base}/photos?ids=List(1,2)&fields=title,format'`,
    `curl -s ${v2} '${base}/photos?q=titleAndOrFormat&format=JPEG&count=1'`,
    `curl -s ${v2} '${base}/photos?bq=searchPhotos&criteria=List((title:Sunrise%20over%20the%20bay,format:JPEG),(title:Nowhere,format:PNG))'`,
    `curl -s -X POST ${json} -d '{"title":"Harbour at dusk","format":"JPEG","tags":["bay"]}' ${base}/photos`,
    `curl -s -X POST ${json} -d '{"patch":{"$set":{"title":"Sunrise, again"}}}' ${base}/photos/1`,
    `curl -s -X POST ${json} -d '{"tag":"favourite"}' '${base}/photos/1?action=addTag'`,
    `curl -s ${v2} '${base}/albumEntries/(albumId:1)?q=byAlbum&fields=photoId,addedAt'`,
    `curl -s ${v2} '${base}/jobs?q=byState&state=COMPLETED'`,
    `curl -s ${v2} -H 'Accept: application/x-pson' ${base}/albums/1 | od -c | head -3`,
  ];
}

/**
 * What to tell the user when the service cannot listen, or undefined for errors that deserve their stack.
 * A busy port is the usual first-run failure (another `npm start`, another service on 8080): say so and
 * how to pick another port, rather than print `EADDRINUSE` and a stack trace.
 */
export function listenFailureMessage(err: unknown, host: string, port: number): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const retry =
    `Start it on another port with PORT, e.g. \`PORT=${port === 8081 ? 8082 : 8081} npm start\` ` +
    '(PORT=0 picks a free one); the client takes the same PORT.';
  if (code === 'EADDRINUSE') {
    return `Cannot start the photo library: port ${port} on ${host} is already in use (another \`npm start\`, or another service).\n${retry}`;
  }
  if (code === 'EACCES') {
    return `Cannot start the photo library: this user may not listen on port ${port} of ${host}.\n${retry}`;
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return `Cannot start the photo library: ${host} is not an address of this machine; set HOST to one (default 127.0.0.1).`;
  }
  return undefined;
}

/** The port in `PORT` (default 8080); undefined when it is not a port number. */
export function portFrom(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return 8080;
  const port = Number(text);
  return /^\d+$/.test(text) && port <= 65535 ? port : undefined;
}

async function main(): Promise<void> {
  const port = portFrom(process.env.PORT);
  if (port === undefined) {
    process.stderr.write(
      `PORT must be a port number (0-65535; 0 picks a free one), got '${process.env.PORT}'.\n`,
    );
    process.exitCode = 1;
    return;
  }
  const host = process.env.HOST ?? '127.0.0.1';
  const upstream = process.env.UPSTREAM_URL;
  const workers = process.env.WORKERS === undefined || process.env.WORKERS === '' ? '1' : process.env.WORKERS;
  // SVC_SECURE=1: HTTPS, HTTP/2 and bearer tokens (secure.ts); its certificate and key live in the data dir
  const security =
    process.env.SVC_SECURE === '1'
      ? await exampleSecurity(path.resolve(process.env.SVC_DATA_DIR || '.svc-data'))
      : undefined;
  try {
    // serve(): health probes, load shedding and graceful shutdown in front of the app, and with WORKERS > 1
    // (or auto) a runner whose workers share the port; it handles SIGTERM/SIGINT (SIGHUP with workers)
    await serve({
      workers,
      port,
      host,
      app: (runtime) => {
        // one line per request on stdout, buffered (ACCESS_LOG=off turns it off), written out at shutdown;
        // fastify's logger for the rest
        const accessLog = process.env.ACCESS_LOG === 'off' ? undefined : createAccessLog();
        if (accessLog !== undefined) runtime.shutdown.addHook('access log', () => accessLog.flush());
        return createExampleApp({
          runtime,
          logLevel: process.env.LOG_LEVEL ?? 'warn',
          ...(accessLog === undefined ? {} : { accessLog }),
          ...(upstream === undefined || upstream === '' ? {} : { upstream }),
          ...(security === undefined ? {} : { security }),
        });
      },
      onListening: (info) =>
        security === undefined
          ? printBanner(`http://${host}:${info.port}`, info.port, info.pid, info.workers)
          : void secureBanner(security, `https://localhost:${info.port}`, info.pid).then((text) =>
              process.stdout.write(`${text}\n`),
            ),
    });
  } catch (err) {
    const message = listenFailureMessage(err, host, port);
    if (message === undefined) throw err;
    process.stderr.write(`${message}\n`);
    process.exitCode = 1;
  }
}

function printBanner(base: string, actualPort: number, pid: number, workers: number): void {
  const out = [
    // npm keeps its own process with the server as its child: this is the server's pid (kill it, or npm's,
    // which passes SIGTERM on)
    `Photo library listening on ${base} (pid ${pid}; Ctrl-C or \`kill ${pid}\` stops it). Try:`,
    '',
    ...curlLines(base).map((l) => `  ${l}`),
    '',
    'Each line names protocol 2.0.0; without X-Svc-Protocol-Version (or X-RestLi-Protocol-Version) a request is',
    'taken as 1.0.0, as Rest.li does, and the reply header says which version answered.',
    '',
    `or the typed client: PORT=${actualPort} node -r @swc-node/register examples/client.ts`,
    '',
    workers > 1
      ? `${workers} worker processes share the port (\`kill -HUP ${pid}\` replaces them one by one); ${process.env.DATABASE_URL ? 'they share the library in PostgreSQL' : 'each has its own in-memory store (set DATABASE_URL to share one in PostgreSQL)'}.`
      : 'One process (WORKERS=2, or auto, starts a runner with that many worker processes).',
    `Probes: ${base}/health/live and ${base}/health/ready. API docs: ${base}/docs (OpenAPI: ${base}/openapi.json).`,
    process.env.DATABASE_URL === undefined || process.env.DATABASE_URL === ''
      ? 'The library is in memory (set DATABASE_URL=postgres://... to keep it in PostgreSQL).'
      : `The library is in PostgreSQL (DATABASE_URL); try the streamed export: curl -s '${base}/photos?q=export&count=1000000'`,
    process.env.REDIS_URL === undefined || process.env.REDIS_URL === ''
      ? 'Uploaded images are processed in this process (the in-process queue; set REDIS_URL for BullMQ).'
      : `Uploaded images are queued on BullMQ at ${process.env.REDIS_URL}: run workers with ` +
        `SERVICE_URL=${base} SVC_DATA_DIR=<the same data dir> npx svc worker --processors examples/worker.ts`,
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
