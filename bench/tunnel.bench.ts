/**
 * Query tunneling (issue 12): what sending a long request tunneled costs, end to end and on the server.
 *
 * 1. A `batch_get` of 500 ids through the core client over loopback against the example service, sent
 *    tunneled (`POST` + `X-HTTP-Method-Override`, the query as a form body) vs sent directly (the ids in
 *    the URI, ≈ 1.9 K characters: under the default threshold, so tunneling is forced; under Node's header limit, so both work). Goal: tunneled ≥ 0.8× direct.
 * 2. The server's decode cost per request, in-process: the tunneling filter on a form-encoded request and
 *    on a `multipart/mixed` one (query + JSON body), vs a request without the override (the filter's
 *    pass-through), in µs per request.
 *
 * How: the harness times synchronous functions and both measurements await, so `suites()` runs this file
 * as a *driver* (`--driver`) in its own process (server and client share it: the ratio compares two
 * requests under the same conditions) and reports its JSON as facts; goals are printed as notes (measured,
 * never asserted).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type * as SvcModule from '../src';
import type * as AppModule from '../examples/app';
import type * as StoreModule from '../examples/store';
import type { BenchFile, Suite } from './harness';

const IDS = 500;
const ROUNDS = 3;
const SECONDS = 1.5;
const WARMUP_SECONDS = 0.4;
const DECODE_ROUNDS = 5;
const DECODE_MS = 300;

interface DriverResult {
  readonly direct: number[];
  readonly tunneled: number[];
  readonly queryChars: number;
  /** µs per request, per round. */
  readonly decode: { readonly passThrough: number[]; readonly form: number[]; readonly mixed: number[] };
}

async function rate(task: () => Promise<unknown>, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let n = 0;
  const start = performance.now();
  while (performance.now() < end) {
    await task();
    n++;
  }
  return n / ((performance.now() - start) / 1000);
}

async function microsPerCall(task: () => unknown, ms: number): Promise<number> {
  const end = performance.now() + ms;
  let n = 0;
  const start = performance.now();
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) await task();
    n += 100;
  }
  return ((performance.now() - start) * 1000) / n;
}

async function runDriver(): Promise<void> {
  const load = createRequire(__filename);
  const svc = load('../src') as typeof SvcModule;
  const { createExampleApp } = load('../examples/app') as typeof AppModule;
  const { seededLibrary } = load('../examples/store') as typeof StoreModule;
  const app = await createExampleApp({ library: seededLibrary(), fastify: { logger: false } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const ids = Array.from({ length: IDS }, (_, i) => i + 1);
  const desc = { method: 'batch_get', resource: 'photos', ids, keySpec: svc.LONG_KEY.spec } as const;
  const direct = svc.createClient({ baseUrl, queryTunnelThreshold: false });
  const tunneled = svc.createClient({ baseUrl });
  // 500 ids make ≈ 1.9 K characters, under the default threshold: forced, as a user keeping ids out of URIs does
  const forced = { ...desc, forceQueryTunnel: true };
  const probe = tunneled.buildRequest(forced);
  if (probe.headers['X-HTTP-Method-Override'] !== 'GET')
    throw new Error('the 500-id batch_get is not tunneled');
  const queryChars = direct.buildRequest(desc).url.split('?')[1]!.length;
  const tasks = { direct: () => direct.send(desc), tunneled: () => tunneled.send(forced) };
  for (const t of Object.values(tasks)) await rate(t, WARMUP_SECONDS);
  const out: { direct: number[]; tunneled: number[] } = { direct: [], tunneled: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? (['direct', 'tunneled'] as const) : (['tunneled', 'direct'] as const);
    for (const name of order) out[name].push(await rate(tasks[name], SECONDS));
  }
  await app.close();

  // decode, in-process: the filter alone
  const filter = svc.tunnelingFilter();
  const query = probe.body === undefined ? '' : Buffer.from(probe.body).toString('latin1');
  const base = {
    url: '/photos',
    path: '/photos',
    query: undefined,
    attributes: new Map<string | symbol, unknown>(),
  };
  const passThrough = {
    ...base,
    method: 'GET',
    url: `/photos?${query}`,
    query,
    headers: { 'x-svc-protocol-version': '2.0.0' },
    body: undefined,
  };
  const form = {
    ...base,
    method: 'POST',
    headers: {
      'x-svc-protocol-version': '2.0.0',
      'x-http-method-override': 'GET',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: probe.body,
  };
  const withBody = svc.tunnelRequest(
    {
      resourceMethod: 'batch_update',
      method: 'PUT',
      url: `${baseUrl}/photos?${query}`,
      uri: `photos?${query}`,
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from(JSON.stringify({ entities: { '1': { title: 'x' } } })),
      bodyData: undefined,
    },
    { force: true, threshold: false },
  );
  const mixed = {
    ...base,
    method: 'POST',
    headers: {
      'x-http-method-override': 'PUT',
      'content-type': withBody.headers['Content-Type']!,
    },
    body: withBody.body,
  };
  const run = filter.request!;
  const decode = { passThrough: [] as number[], form: [] as number[], mixed: [] as number[] };
  const decodeTasks = {
    passThrough: () => run(passThrough),
    form: () => run(form),
    mixed: () => run(mixed),
  };
  for (const t of Object.values(decodeTasks)) await microsPerCall(t, DECODE_MS);
  for (let r = 0; r < DECODE_ROUNDS; r++)
    for (const name of ['passThrough', 'form', 'mixed'] as const)
      decode[name].push(await microsPerCall(decodeTasks[name], DECODE_MS));
  const result: DriverResult = { ...out, queryChars, decode };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');

function suites(): Suite[] {
  const budget =
    (2 * (WARMUP_SECONDS + ROUNDS * SECONDS) + 3 * (DECODE_ROUNDS + 1) * (DECODE_MS / 1000) + 60) * 1000;
  const out = spawnSync(process.execPath, ['-r', '@swc-node/register', __filename, '--driver'], {
    encoding: 'utf8',
    timeout: budget,
    maxBuffer: 1 << 20,
  });
  if (out.status !== 0)
    throw new Error(`tunnel bench driver failed (${String(out.status ?? out.signal)}):\n${out.stderr}`);
  const lines = out.stdout.trim().split('\n');
  const r = JSON.parse(lines[lines.length - 1]!) as DriverResult;
  const direct = mean(r.direct);
  const tunneled = mean(r.tunneled);
  const ratios = r.tunneled.map((t, i) => t / r.direct[i]!);
  const form = median(r.decode.form);
  const mixed = median(r.decode.mixed);
  const pass = median(r.decode.passThrough);
  return [
    {
      title: `A batch_get of ${IDS} ids through the core client, tunneled vs direct (example service, HTTP on loopback)`,
      short: `tunneled vs direct batch_get of ${IDS}`,
      facts: [
        { label: 'direct per second', value: direct, unit: 'req/s' },
        { label: 'tunneled per second', value: tunneled, unit: 'req/s' },
        { label: 'query length', value: r.queryChars, unit: 'chars' },
      ],
      ratios: [{ name: 'tunneled / direct', of: 'tunneled per second', to: 'direct per second' }],
      notes: [
        `${ROUNDS} rounds × ${SECONDS} s per task (order alternated) after ${WARMUP_SECONDS} s warmup each; one request in flight; client and server in one process`,
        `goal: tunneled ≥ 0.80× direct: ${verdict(tunneled >= 0.8 * direct)} at ${(tunneled / direct).toFixed(2)}× [rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]`,
      ],
    },
    {
      title: 'Server decode cost per request: the tunneling filter alone, in-process',
      short: 'tunnel decode per request',
      facts: [
        { label: 'pass-through (no override)', value: pass, unit: 'µs' },
        { label: `form body (${r.queryChars}-char query)`, value: form, unit: 'µs' },
        { label: 'multipart/mixed (query + JSON body)', value: mixed, unit: 'µs' },
        { label: 'form decode cost', value: form - pass, unit: 'µs' },
        { label: 'multipart/mixed decode cost', value: mixed - pass, unit: 'µs' },
      ],
      notes: [
        `median of ${DECODE_ROUNDS} rounds × ${DECODE_MS} ms per task; each call awaited`,
        `goal (informational): decode cost a small share of a request: form ${(form - pass).toFixed(1)} µs, multipart ${(mixed - pass).toFixed(1)} µs vs ${(1e6 / direct).toFixed(0)} µs per direct request: ${verdict(mixed - pass < 0.1 * (1e6 / direct))} (< 10%)`,
      ],
    },
  ];
}

export const benchmark: BenchFile = {
  title: 'Query tunneling: a tunneled batch_get of 500 ids vs direct, and the server decode cost per request',
  suites,
};

if (require.main === module && process.argv.includes('--driver')) {
  runDriver().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
