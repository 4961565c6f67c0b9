/**
 * What security costs on the get benchmark (`GET /photos/3`, the standalone server, 10 requests in flight),
 * each variant in the same run against plain HTTP/1.1 without authentication:
 *
 * - JWT on (an ES256 bearer token, static key set, the verified-token cache on: the default) vs off
 *   (goal: ≤ 10% fewer requests/s);
 * - JWT with the token cache off (a signature check per request; reported);
 * - HTTPS over HTTP/1.1 vs HTTP (reported);
 * - HTTP/2 over TLS vs HTTPS over HTTP/1.1 (reported).
 *
 * One server process (pinned to core 0 with `taskset` when there is one) holds every variant on its own
 * port; the driver (core 1) is a closed loop of its own over node:http, node:https and node:http2 (autocannon
 * speaks no HTTP/2), the same code for every variant. Rounds of 1 s per variant, the order rotated each
 * round; the verdict reads the median of the rounds' ratios (the machine is shared: expect noise).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type * as SvcModule from '../src';
import type * as JoseModule from 'jose';
import type * as PhotosModule from '../test/resources/support/photos';
import type * as PhotoModule from '../test/generated/fixtures/com/example/photos/Photo';
import type { BenchFile, Fact, Suite } from './harness';
import { roleFromFlags, runRole } from './process-role';

const ROUNDS = 5;
const RUN_MS = 1000;
const WARMUP_MS = 500;
const IN_FLIGHT = 10;
const PATH = '/photos/3';

type Variant = 'http' | 'http-jwt' | 'http-jwt-nocache' | 'https-h1' | 'https-h2';
const VARIANTS: readonly Variant[] = ['http', 'http-jwt', 'http-jwt-nocache', 'https-h1', 'https-h2'];

const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

interface Ready {
  readonly ports: Record<Variant, number>;
  readonly ca: string;
  readonly token: string;
}

// ---------------------------------------------------------------------------------------------------------
// Server process

async function runServer(): Promise<void> {
  const load = createRequire(__filename);
  const svc = load('../src') as typeof SvcModule;
  const jose = load('jose') as typeof JoseModule;
  const { makePhoto } = load('../test/resources/support/photos') as typeof PhotosModule;
  const { Photo } = load('../test/generated/fixtures/com/example/photos/Photo') as typeof PhotoModule;
  const photos = svc.collection({
    name: 'photos',
    key: svc.LONG_KEY,
    value: Photo,
    methods: { get: (id) => makePhoto(id, 'Dusk') },
  });
  const { ca, server: pair } = svc.localhostCertificates();
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256');
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'k', alg: 'ES256' };
  const token = await new jose.SignJWT({ roles: ['reader'] })
    .setProtectedHeader({ alg: 'ES256', kid: 'k' })
    .setSubject('bench')
    .setIssuer('https://issuer.bench')
    .setAudience('bench')
    .setExpirationTime('1h')
    .sign(privateKey);
  const auth = (cacheTtlMs?: number) =>
    svc.authentication({
      jwt: {
        jwks: { keys: [jwk] },
        issuer: 'https://issuer.bench',
        audience: 'bench',
        ...(cacheTtlMs === undefined ? {} : { cacheTtlMs }),
      },
    });
  const options = { resources: [photos], validation: false } as const;
  const servers: Record<
    Variant,
    { listen(port: number, host: string, cb: () => void): unknown; address(): unknown; close(): unknown }
  > = {
    http: svc.createSvcServer(options),
    'http-jwt': svc.createSvcServer({ ...options, filters: [auth().filter] }),
    'http-jwt-nocache': svc.createSvcServer({ ...options, filters: [auth(0).filter] }),
    'https-h1': svc.createSvcSecureServer(options, { ...pair, http2: false }),
    'https-h2': svc.createSvcSecureServer(options, pair),
  };
  const ports = {} as Record<Variant, number>;
  for (const v of VARIANTS) {
    await new Promise<void>((resolve) => servers[v].listen(0, '127.0.0.1', resolve));
    ports[v] = (servers[v].address() as AddressInfo).port;
  }
  const ready: Ready = { ports, ca: ca.cert, token };
  process.send!(ready);
  await new Promise<void>((resolve) => process.on('message', (m) => m === 'stop' && resolve()));
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------------
// Driver process: a closed loop of IN_FLIGHT requests per variant

type Send = () => Promise<number>;

function h1Sender(variant: Variant, ready: Ready): { send: Send; close(): void } {
  const secure = variant === 'https-h1';
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: IN_FLIGHT, ca: ready.ca })
    : new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const headers: Record<string, string> = variant.startsWith('http-jwt')
    ? { authorization: `Bearer ${ready.token}` }
    : {};
  const send: Send = () =>
    new Promise((resolve, reject) => {
      const req = (secure ? https : http).request(
        { agent, host: 'localhost', port: ready.ports[variant], path: PATH, headers },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
  return { send, close: () => agent.destroy() };
}

function h2Sender(ready: Ready): { send: Send; close(): void } {
  const session = http2.connect(`https://localhost:${ready.ports['https-h2']}`, { ca: ready.ca });
  const send: Send = () =>
    new Promise((resolve, reject) => {
      const stream = session.request({ ':path': PATH, ':method': 'GET' });
      let status = 0;
      stream.on('response', (h) => (status = Number(h[':status'])));
      stream.on('error', reject);
      stream.resume();
      stream.on('end', () => resolve(status));
      stream.end();
    });
  return { send, close: () => session.close() };
}

async function drive(send: Send, ms: number): Promise<{ rps: number; bad: number }> {
  const until = Date.now() + ms;
  let done = 0;
  let bad = 0;
  const loop = async (): Promise<void> => {
    while (Date.now() < until) {
      const status = await send();
      if (status === 200) done++;
      else bad++;
    }
  };
  const start = Date.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, loop));
  return { rps: (done * 1000) / (Date.now() - start), bad };
}

// ---------------------------------------------------------------------------------------------------------
// In process: the pipeline handling the get with and without the authentication filter (no HTTP, so the
// filter's share is not drowned by the kernel and the machine's noise; an upper bound of its cost)

const IN_PROCESS_CALLS = 50_000;

interface InProcess {
  /** Nanoseconds per request, one figure per round: without authentication, with it (token remembered). */
  readonly off: number[];
  readonly on: number[];
}

async function measureInProcess(): Promise<InProcess> {
  const load = createRequire(__filename);
  const svc = load('../src') as typeof SvcModule;
  const jose = load('jose') as typeof JoseModule;
  const { makePhoto } = load('../test/resources/support/photos') as typeof PhotosModule;
  const { Photo } = load('../test/generated/fixtures/com/example/photos/Photo') as typeof PhotoModule;
  const photos = svc.collection({
    name: 'photos',
    key: svc.LONG_KEY,
    value: Photo,
    methods: { get: (id) => makePhoto(id, 'Dusk') },
  });
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256');
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'k', alg: 'ES256' };
  const token = await new jose.SignJWT({ roles: ['reader'] })
    .setProtectedHeader({ alg: 'ES256', kid: 'k' })
    .setSubject('bench')
    .setIssuer('https://issuer.bench')
    .setAudience('bench')
    .setExpirationTime('1h')
    .sign(privateKey);
  const auth = svc.authentication({
    jwt: { jwks: { keys: [jwk] }, issuer: 'https://issuer.bench', audience: 'bench' },
  });
  const log = { error() {}, warn() {}, info() {}, debug() {} };
  const pipeline = (filters: SvcModule.RequestFilter[]): SvcModule.ResourcePipeline =>
    svc.createResourcePipeline(svc.resolveSvcOptions({ resources: [photos], validation: false, filters }));
  // each request a new header string, as a parser makes it (a map keyed by one string object would hash once)
  const request = (authorization: string | undefined): SvcModule.ResourceRequest => ({
    method: 'GET',
    url: '/photos/3',
    path: '/photos/3',
    query: undefined,
    headers: {
      host: 'x',
      'x-svc-protocol-version': '2.0.0',
      ...(authorization === undefined ? {} : { authorization: `Bearer ${authorization}`.slice(0) }),
    },
    body: undefined,
    attributes: new Map(),
  });
  const variants = { off: pipeline([]), on: pipeline([auth.filter]) };
  // the first use verifies the signature (a promise); after that the token is remembered
  const first = variants.on.handle(request(token), log, true);
  if ((await first).status !== 200) throw new Error('the authenticated get failed');
  const run = (which: 'off' | 'on'): number => {
    const p = variants[which];
    const t = which === 'on' ? token : undefined;
    const start = process.hrtime.bigint();
    for (let i = 0; i < IN_PROCESS_CALLS; i++) {
      const out = p.handle(request(t), log, true);
      if (out instanceof Promise || out.status !== 200) throw new Error('expected a synchronous 200');
    }
    return Number(process.hrtime.bigint() - start) / IN_PROCESS_CALLS;
  };
  run('off');
  run('on');
  const out: InProcess = { off: [], on: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order: Array<'off' | 'on'> = r % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
    for (const w of order) out[w].push(run(w));
  }
  return out;
}

async function runDriver(): Promise<void> {
  const inProcess = await measureInProcess();
  const args = ['-r', '@swc-node/register', __filename, '--server'];
  const server: ChildProcess = hasTaskset
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      })
    : spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ready = await new Promise<Ready>((resolve) => server.once('message', (m) => resolve(m as Ready)));
  const senders = Object.fromEntries(
    VARIANTS.map((v) => [v, v === 'https-h2' ? h2Sender(ready) : h1Sender(v, ready)]),
  ) as Record<Variant, { send: Send; close(): void }>;
  const rounds: Record<Variant, number[]> = Object.fromEntries(VARIANTS.map((v) => [v, []])) as never;
  let bad = 0;
  for (const v of VARIANTS) await drive(senders[v].send, WARMUP_MS);
  for (let r = 0; r < ROUNDS; r++) {
    const order = VARIANTS.map((_, i) => VARIANTS[(i + r) % VARIANTS.length]!);
    for (const v of order) {
      const out = await drive(senders[v].send, RUN_MS);
      rounds[v].push(out.rps);
      bad += out.bad;
    }
  }
  for (const s of Object.values(senders)) s.close();
  server.send('stop');
  process.stdout.write(`${JSON.stringify({ rounds, bad, inProcess })}\n`);
}

// ---------------------------------------------------------------------------------------------------------
// Parent: the suites

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
}

function suites(): Suite[] {
  const args = ['-r', '@swc-node/register', __filename, '--driver'];
  const budget = (VARIANTS.length * (ROUNDS * RUN_MS + WARMUP_MS) + 60_000) * 1;
  const out = hasTaskset
    ? spawnSync('taskset', ['-c', '1', process.execPath, ...args], { encoding: 'utf8', timeout: budget })
    : spawnSync(process.execPath, args, { encoding: 'utf8', timeout: budget });
  if (out.status !== 0)
    throw new Error(`security bench driver failed (${String(out.status ?? out.signal)}):\n${out.stderr}`);
  const lines = out.stdout.trim().split('\n');
  const { rounds, bad, inProcess } = JSON.parse(lines[lines.length - 1]!) as {
    rounds: Record<Variant, number[]>;
    bad: number;
    inProcess: InProcess;
  };
  const ratio = (a: Variant, b: Variant): { median: number; all: number[] } => {
    const all = rounds[a].map((x, i) => x / rounds[b][i]!);
    return { median: median(all), all };
  };
  const label: Record<Variant, string> = {
    http: 'HTTP/1.1, no auth',
    'http-jwt': 'HTTP/1.1, JWT (token cache on)',
    'http-jwt-nocache': 'HTTP/1.1, JWT (token cache off)',
    'https-h1': 'HTTPS, HTTP/1.1',
    'https-h2': 'HTTPS, HTTP/2',
  };
  const facts: Fact[] = VARIANTS.map((v) => ({
    label: `${label[v]} requests/s`,
    value: median(rounds[v]),
    unit: 'req/s',
  }));
  const line = (name: string, r: { median: number; all: number[] }, goal?: number): string =>
    `${name}: median ${r.median.toFixed(3)}× (rounds ${r.all.map((x) => x.toFixed(2)).join(' ')})` +
    (goal === undefined
      ? ' (reported)'
      : ` — goal ≥ ${goal.toFixed(2)}×: ${r.median >= goal ? 'meets' : 'misses'}`);
  return [
    {
      title: `Security on the get benchmark (standalone server, ${IN_FLIGHT} in flight, ${ROUNDS} rounds × ${RUN_MS} ms)`,
      short: 'security get',
      facts,
      ratios: [
        { name: 'JWT on / off', of: `${label['http-jwt']} requests/s`, to: `${label.http} requests/s` },
        {
          name: 'JWT no cache / off',
          of: `${label['http-jwt-nocache']} requests/s`,
          to: `${label.http} requests/s`,
        },
        { name: 'HTTPS / HTTP', of: `${label['https-h1']} requests/s`, to: `${label.http} requests/s` },
        {
          name: 'HTTP/2 / HTTP/1.1 (TLS)',
          of: `${label['https-h2']} requests/s`,
          to: `${label['https-h1']} requests/s`,
        },
      ],
      notes: [
        line('JWT on vs off', ratio('http-jwt', 'http'), 0.9),
        line('JWT, signature checked every request, vs off', ratio('http-jwt-nocache', 'http')),
        line('HTTPS vs HTTP (HTTP/1.1)', ratio('https-h1', 'http')),
        line('HTTP/2 vs HTTP/1.1 (both TLS)', ratio('https-h2', 'https-h1')),
        hasTaskset ? 'server on core 0, driver on core 1 (taskset)' : 'no taskset: cores not pinned',
        'a shared 2-core machine: the rounds spread is the noise',
        ...(bad > 0 ? [`non-200 answers or errors: ${bad}`] : []),
      ],
    },
    inProcessSuite(inProcess),
  ];
}

/** The in-process figures: the filter's own cost per request, and what it would take of a get over HTTP. */
function inProcessSuite(m: InProcess): Suite {
  const off = median(m.off);
  const on = median(m.on);
  const perRound = m.on.map((x, i) => x - m.off[i]!);
  return {
    title: `In process, per request: the get through the pipeline with the authentication filter (token remembered) vs without (${ROUNDS} rounds × ${IN_PROCESS_CALLS} requests)`,
    short: 'security in process',
    facts: [
      { label: 'pipeline without authentication, ns/request', value: off, unit: 'ns' },
      { label: 'pipeline with JWT authentication, ns/request', value: on, unit: 'ns' },
      { label: 'the JWT filter, ns/request', value: on - off, unit: 'ns' },
    ],
    ratios: [
      {
        name: 'pipeline throughput, JWT on / off',
        of: 'pipeline without authentication, ns/request',
        to: 'pipeline with JWT authentication, ns/request',
      },
    ],
    notes: [
      `the filter per round: ${perRound.map((x) => `${Math.round(x)} ns`).join(', ')}`,
      'no HTTP here: over HTTP a get costs ~100–150 µs of CPU on this machine (parsing, sockets, the kernel), ' +
        'so the filter is ~1–2 % of it; the ratio above is the bound where the pipeline were all the work',
    ],
  };
}

export const benchmark: BenchFile = {
  title: 'Security cost on the get benchmark: JWT on/off, HTTPS vs HTTP, HTTP/2 vs HTTP/1.1',
  suites,
};

if (require.main === module) runRole(roleFromFlags({ server: runServer, driver: runDriver }));
