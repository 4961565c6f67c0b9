/**
 * The example's secure mode as a user starts it (`SVC_SECURE=1 npm start` runs `examples/server.ts`; the
 * generate step is left out, the suite's global setup has run it): one server process for the file, with
 * its data directory (certificate, CA, signing key) in a temp dir. Checked over real TLS: HTTP/2 negotiated
 * by ALPN (HTTP/1.1 still offered), a write without a token → 401 with WWW-Authenticate, each demo role →
 * what the example's rules say (reads open, writes for editors, the jobs resource for any token), health
 * probes open, /metrics and OPTIONS behind a token, and every curl line the banner prints, run with curl.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http2 from 'node:http2';
import https from 'node:https';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.join(__dirname, '../..');
const run = promisify(execFile);
// removed by afterAll once the server has exited (it writes there until then)
const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-secure-example-'));

let server: ChildProcess | undefined;
let banner = '';
let base = '';
let ca = '';
let session: http2.ClientHttp2Session;
const tokens: Record<'viewer' | 'editor' | 'metrics', string> = { viewer: '', editor: '', metrics: '' };

beforeAll(async () => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SVC_SECURE: '1',
    SVC_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    ACCESS_LOG: 'off',
  };
  // the in-process queue and the in-memory library: nothing outside this process
  delete env.REDIS_URL;
  delete env.DATABASE_URL;
  delete env.WORKERS;
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'examples/server.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: afterAll ends whatever it started
  });
  server = child;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the secure example did not start:\n${output}`)), 60_000);
    const read = (d: Buffer): void => {
      output += d.toString();
      // the banner is written in one piece, its last line naming the probes
      if (/Probes stay open: .*\n/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => reject(new Error(`the secure example exited early:\n${output}`)));
  });
  banner = output;
  base = /listening on (https:\/\/localhost:\d+),/.exec(banner)![1]!;
  for (const role of ['viewer', 'editor', 'metrics'] as const)
    tokens[role] = new RegExp(`^  ${role}: +(\\S+)`, 'm').exec(banner)![1]!;
  ca = readFileSync(path.join(dataDir, 'tls', 'ca.crt'), 'utf8');
  session = http2.connect(base, { ca });
  session.on('error', () => {});
}, 90_000);

afterAll(async () => {
  session?.close();
  if (server?.pid !== undefined && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  readonly status: number;
  readonly headers: http2.IncomingHttpHeaders;
  readonly text: string;
}

/** One request as a stream on the HTTP/2 session. */
function h2(method: string, target: string, token?: string, json?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ':method': method,
      ':path': target,
      'x-restli-protocol-version': '2.0.0',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    });
    let text = '';
    let headers: http2.IncomingHttpHeaders = {};
    stream.setEncoding('utf8');
    stream.on('response', (h) => (headers = h));
    stream.on('data', (d: string) => (text += d));
    stream.on('end', () => resolve({ status: Number(headers[':status']), headers, text }));
    stream.on('error', reject);
    stream.end(json === undefined ? undefined : JSON.stringify(json));
  });
}

const PHOTO = { title: 'Harbour at dusk', format: 'JPEG', tags: ['bay'] };

describe('SVC_SECURE=1: the example over TLS', () => {
  it('negotiates HTTP/2 by ALPN, and still answers HTTPS over HTTP/1.1', async () => {
    await h2('GET', '/photos/1');
    expect(session.alpnProtocol).toBe('h2');
    const status = await new Promise<{ status: number; version: string }>((resolve, reject) =>
      https
        .get(`${base}/photos/1`, { ca, headers: { 'x-restli-protocol-version': '2.0.0' } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, version: res.httpVersion }));
        })
        .on('error', reject),
    );
    expect(status).toEqual({ status: 200, version: '1.1' });
  });

  it('answers a write without a token 401 with a WWW-Authenticate challenge, an ErrorResponse', async () => {
    const r = await h2('POST', '/photos', undefined, PHOTO);
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toMatch(/^Bearer realm="/);
    expect(JSON.parse(r.text)).toMatchObject({ status: 401 });
  });

  it.each([
    ['reads a photo', 'GET', '/photos/1', { none: 200, viewer: 200, editor: 200 }],
    ['creates a photo', 'POST', '/photos', { none: 401, viewer: 403, editor: 201 }],
    ['lists jobs', 'GET', '/jobs?q=byState&state=COMPLETED', { none: 401, viewer: 200, editor: 200 }],
    ['describes photos (OPTIONS)', 'OPTIONS', '/photos', { none: 401, viewer: 200, editor: 200 }],
    ['reads /metrics', 'GET', '/metrics', { none: 401, viewer: 403, editor: 403 }],
    ['probes liveness', 'GET', '/health/live', { none: 200, viewer: 200, editor: 200 }],
    ['probes readiness', 'GET', '/health/ready', { none: 200, viewer: 200, editor: 200 }],
  ] as const)(
    '%s as the rules declare: no token, viewer, editor',
    async (_name, method, target, expected) => {
      const got: Record<string, number> = {};
      for (const who of ['none', 'viewer', 'editor'] as const) {
        const token = who === 'none' ? undefined : tokens[who];
        got[who] = (await h2(method, target, token, method === 'POST' ? PHOTO : undefined)).status;
      }
      expect(got).toEqual(expected);
    },
  );

  it("admits the scraper's token to /metrics", async () => {
    const r = await h2('GET', '/metrics', tokens.metrics);
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/^# (HELP|TYPE) /m);
  });

  it('prints curl lines that work as printed', async () => {
    const lines = banner
      .split('\n')
      .filter((l) => l.startsWith('  curl '))
      .map((l) => l.trim());
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines) {
      // as printed (the shell drops the `# 401` comment); the status it claims, where it claims one
      const { stdout } = await run('sh', ['-c', line], { timeout: 15_000 });
      const claimed = /# (\d{3})$/.exec(line)?.[1];
      const measured = await run(
        'sh',
        ['-c', line.replace(/^curl -s /, "curl -s -o /dev/null -w '%{http_code} %{http_version}' ")],
        { timeout: 15_000 },
      );
      const [code, version] = measured.stdout.trim().split(/\s+/).slice(-2);
      if (claimed !== undefined) expect(`${line} → ${code}`).toBe(`${line} → ${claimed}`);
      else if (!line.includes('| head')) expect(`${line} → ${code}`).toBe(`${line} → 200`);
      if (line.includes('--http2')) expect(version).toBe('2');
      // what the line shows a user: JSON, or the metrics' text
      if (line.includes('/metrics')) expect(stdout).toMatch(/^# (HELP|TYPE) /);
      else if (code !== '201') expect(() => JSON.parse(stdout) as unknown).not.toThrow();
    }
  }, 60_000);
});
