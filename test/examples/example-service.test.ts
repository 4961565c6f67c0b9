/**
 * The example service as a user meets it: `examples/server.ts` started as its own process (on a free
 * port), and every `curl` line it prints run as printed (parsed and sent with fetch), each answering 2xx
 * with the body the line is about.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { tempDirs } from '../support/temp-dirs';

const ROOT = path.join(__dirname, '../..');

interface Curl {
  readonly line: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

/** Splits a shell line into words: single quotes, spaces; stops at a pipe. */
function words(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  let any = false;
  for (const c of line) {
    if (quoted) {
      if (c === "'") quoted = false;
      else cur += c;
    } else if (c === "'") {
      quoted = true;
      any = true;
    } else if (c === ' ') {
      if (any || cur !== '') out.push(cur);
      cur = '';
      any = false;
    } else if (c === '|') {
      break;
    } else {
      cur += c;
    }
  }
  if (any || cur !== '') out.push(cur);
  return out;
}

function parseCurl(line: string): Curl {
  const w = words(line);
  expect(w[0]).toBe('curl');
  let method: string | undefined;
  let url = '';
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 1; i < w.length; i++) {
    const t = w[i]!;
    if (t === '-s') continue;
    if (t === '-X') method = w[++i];
    else if (t === '-H') {
      const h = w[++i]!;
      const colon = h.indexOf(':');
      headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
    } else if (t === '-d') body = w[++i];
    else if (t.startsWith('http')) url = t;
    else throw new Error(`unexpected curl word ${t} in ${line}`);
  }
  return { line, method: method ?? (body === undefined ? 'GET' : 'POST'), url, headers, body };
}

let child: ChildProcess;
let output = '';

beforeAll(async () => {
  child = spawn(process.execPath, ['-r', '@swc-node/register', 'examples/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the example service did not start:\n${output}`)),
      25_000,
    );
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('curl') && output.endsWith('\n\n')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) =>
      reject(new Error(`the example service exited with ${String(code)}:\n${output}`)),
    );
  });
}, 30_000);

afterAll(() => {
  child.kill('SIGTERM');
});

describe('the example service', () => {
  it('prints where it listens and a few curl lines', () => {
    expect(output).toMatch(/^Photo library listening on http:\/\/127\.0\.0\.1:\d+ /);
    expect(output.split('\n').filter((l) => l.trim().startsWith('curl ')).length).toBeGreaterThanOrEqual(5);
  });

  it('answers every printed curl line with a 2xx and the expected body', async () => {
    const lines = output
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('curl '));
    const results: Array<{ line: string; status: number; body: string }> = [];
    for (const line of lines) {
      const c = parseCurl(line);
      const r = await fetch(c.url, { method: c.method, headers: c.headers, body: c.body });
      const bytes = Buffer.from(await r.arrayBuffer());
      results.push({ line, status: r.status, body: bytes.toString('latin1') });
      expect({ line, ok: r.status >= 200 && r.status < 300 }).toEqual({ line, ok: true });
      // every line names protocol 2.0.0 (without it a request is taken as 1.0.0), and is answered in it
      expect({
        line,
        sent: c.headers['x-svc-protocol-version'],
        answered: r.headers.get('x-svc-protocol-version'),
      }).toEqual({ line, sent: '2.0.0', answered: '2.0.0' });
    }
    const body = (fragment: string): string => results.find((x) => x.line.includes(fragment))!.body;
    expect(JSON.parse(results[0]!.body)).toMatchObject({
      id: 1,
      title: 'Sunrise over the bay',
      format: 'JPEG',
    });
    expect(JSON.parse(body('ids=List(1,2)'))).toEqual({
      results: {
        1: { title: 'Sunrise over the bay', format: 'JPEG' },
        2: { title: 'Harbour lights', format: 'PNG' },
      },
      statuses: {},
      errors: {},
    });
    const finder = JSON.parse(body('q=titleAndOrFormat'));
    expect(finder.elements).toHaveLength(1);
    expect(finder.paging.links[0].rel).toBe('next');
    expect(JSON.parse(body('Harbour at dusk'))).toMatchObject({ id: 7, title: 'Harbour at dusk' });
    expect(JSON.parse(body('Sunrise, again'))).toMatchObject({ id: 1, title: 'Sunrise, again' });
    expect(JSON.parse(body('addTag'))).toEqual({ value: 3 });
    expect(JSON.parse(body('q=byAlbum')).elements).toHaveLength(4);
    expect(body('application/x-pson').startsWith('#!PSON1\n')).toBe(true);
  });
});

describe("the documented shell lines: the attachments recipe's scripts, examples/README.md's curl lines", () => {
  const work = tempDirs('svc-example-scripts-');
  const sample = path.join(ROOT, 'examples/data/sunrise.png');

  /** Runs one of the example's shell scripts against the service, as the recipe does. */
  function script(
    name: string,
    args: readonly string[],
  ): { status: number | null; stdout: string; stderr: string } {
    const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)![1]!;
    const r = spawnSync('sh', [path.join(ROOT, 'examples', name), ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PORT: port, BASE_URL: '', TMPDIR: work() },
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it('uploads an image with upload.sh, follows its job to COMPLETED and downloads it with download.sh', async () => {
    const up = script('upload.sh', [sample, 'Sunrise "at" sea', 'PNG']);
    expect([up.status, up.stderr]).toEqual([0, '']);
    const created = JSON.parse(up.stdout) as {
      id: number;
      title: string;
      status: string;
      processingJob: string;
    };
    expect(created).toMatchObject({ title: 'Sunrise "at" sea', status: 'PENDING' });
    // the job, as the recipe follows it (GET /jobs/<id>), bounded
    const base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!;
    let state = '';
    for (let i = 0; i < 200 && state !== 'COMPLETED' && state !== 'FAILED'; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      const job = await fetch(`${base}/jobs/${created.processingJob}`, {
        headers: { 'X-Svc-Protocol-Version': '2.0.0' },
      });
      state = ((await job.json()) as { state: string }).state;
    }
    expect(state).toBe('COMPLETED');
    const dir = work();
    const down = script('download.sh', [String(created.id), path.join(dir, 'image.png')]);
    expect([down.status, down.stderr]).toEqual([0, '']);
    expect(JSON.parse(down.stdout)).toMatchObject({
      id: created.id,
      status: 'READY',
      image: expect.stringMatching(/^cid:/),
    });
    expect(readFileSync(path.join(dir, 'image.png'))).toEqual(readFileSync(sample));
    // the scripts' temporary files are gone
    const left = readdirSync(dir).filter((f) => f !== 'image.png');
    expect(left).toEqual([]);
  }, 30_000);

  it("answers examples/README.md's curl lines as their comments say (2xx, or the 404 a line names)", () => {
    const readme = readFileSync(path.join(ROOT, 'examples/README.md'), 'utf8');
    const lines = readme.split('\n').filter((l) => l.startsWith('curl '));
    expect(lines.length).toBeGreaterThanOrEqual(6);
    const base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!;
    const answers = lines.map((line) => {
      const [command] = line.replaceAll('http://127.0.0.1:8080', base).split('    #');
      const r = spawnSync('bash', ['-c', `${command!} -o /dev/null -w '%{http_code}'`], { encoding: 'utf8' });
      return { line, exit: r.status, status: r.stdout };
    });
    expect(answers).toEqual(
      lines.map((line) => ({
        line,
        exit: 0,
        status: /# (\d{3}) /.exec(line)?.[1] ?? expect.stringMatching(/^2\d\d$/),
      })),
    );
  });

  it('download.sh says so, exit 1, for a photo without an image', () => {
    const r = script('download.sh', ['1', path.join(work(), 'none.png')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^photo 1 has no image to download \(yet\): \{"title":/);
  });
});
