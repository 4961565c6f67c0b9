/**
 * Starts the example service (`npm start`): the photo library on http://127.0.0.1:8080 (`PORT` and `HOST`
 * override; `PORT=0` picks a free port), and prints a few `curl` lines that work when pasted.
 */
import { createExampleApp } from './app';

/** Example requests against `base`, as shell lines. */
export function curlLines(base: string): string[] {
  const json = "-H 'Content-Type: application/json'";
  return [
    `curl -s ${base}/photos/1`,
    `curl -s '${base}/photos?ids=List(1,2)&fields=title,format'`,
    `curl -s '${base}/photos?q=titleAndOrFormat&format=JPEG&count=1'`,
    `curl -s -X POST ${json} -d '{"title":"Harbour at dusk","format":"JPEG","tags":["bay"]}' ${base}/photos`,
    `curl -s -X POST ${json} -d '{"patch":{"$set":{"title":"Sunrise, again"}}}' ${base}/photos/1`,
    `curl -s -X POST ${json} -d '{"tag":"favourite"}' '${base}/photos/1?action=addTag'`,
    `curl -s '${base}/albumEntries/(albumId:1)?q=byAlbum&fields=photoId,addedAt'`,
    `curl -s -H 'Accept: application/x-pson' ${base}/albums/1 | od -c | head -3`,
  ];
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8080);
  const host = process.env.HOST ?? '127.0.0.1';
  const app = await createExampleApp({ fastify: { logger: { level: process.env.LOG_LEVEL ?? 'warn' } } });
  await app.listen({ port, host });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  const base = `http://${host}:${actualPort}`;
  const out = [
    `Photo library listening on ${base} (Ctrl-C stops it). Try:`,
    '',
    ...curlLines(base).map((l) => `  ${l}`),
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  const stop = (): void => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
