/**
 * The multi-process runner over real processes and real HTTP: `svc serve --workers 2` forks two workers
 * sharing one port, replaces one that is killed, gives up on a crash loop, and replaces every worker on
 * SIGHUP (sent to the process group, as a closed terminal does) without failing a request of a continuous
 * load.
 */
import { ServiceProcess, accepting, get, killAll } from './support/service-process';

const PID_SERVICE = 'test/runtime/fixtures/pid-service.ts';

afterEach(() => killAll());

/** The pids that answer `GET /pid`, over `n` fresh connections (the runner hands them out round-robin). */
async function pids(port: number, n: number): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) seen.add((JSON.parse((await get(port, '/pid')).body) as { pid: number }).pid);
  return seen;
}

/** The pids of both workers: asks until two have answered (bounded; the runner hands connections out in turn). */
async function bothPids(port: number): Promise<Set<number>> {
  let seen = new Set<number>();
  for (let tries = 0; tries < 50 && seen.size < 2; tries++)
    seen = new Set([...seen, ...(await pids(port, 4))]);
  return seen;
}

describe('svc serve --workers 2', () => {
  it('serves from two worker processes on one port, and replaces a worker that is killed', async () => {
    const svc = await ServiceProcess.serve(['--workers', '2', PID_SERVICE]);
    const before = await bothPids(svc.port);
    expect(before.size).toBe(2);
    expect(before.has(svc.pid)).toBe(false);

    const [victim] = [...before];
    process.kill(victim!, 'SIGKILL');
    await svc.waitFor(new RegExp(`worker ${victim} died \\(killed by SIGKILL\\); starting a replacement`));
    // the replacement listens: two pids answer again, the victim's not among them
    const [, replacement] = await svc.waitFor(/worker (\d+) listening \(a replacement\)/, 60_000);
    const after = await bothPids(svc.port);
    expect(after).toEqual(new Set([...before].filter((p) => p !== victim).concat(Number(replacement))));
    expect(after.has(victim!)).toBe(false);

    svc.signal('SIGTERM');
    expect(await svc.exited).toEqual({ code: 0, signal: null });
    expect(await accepting(svc.port)).toBe(false);
  }, 90_000);

  it('ends with a non-zero exit and says why when its workers keep crashing', async () => {
    const svc = ServiceProcess.run([
      'src/cli/run.ts',
      'serve',
      '--port',
      '0',
      '--workers',
      '2',
      'test/runtime/fixtures/crashing-service.ts',
    ]);
    const { code } = await svc.exited;
    expect(code).toBe(1);
    expect(svc.output).toMatch(/workers died 6 times within 60 s \(the last: exit code 1\); giving up/);
    // each worker's own reason is printed too
    expect(svc.output).toContain('crashing-service: DATABASE_URL is not set');
  }, 120_000);

  it('replaces every worker on SIGHUP to its process group without failing a request of a continuous load', async () => {
    // without load shedding: on a machine this busy a worker's loop can run late enough to shed, which is
    // that policy's business, not the reload's
    const svc = await ServiceProcess.serve(['--workers', '2', '--no-load-shedding', PID_SERVICE]);
    const before = await bothPids(svc.port);
    let stop = false;
    const failures: string[] = [];
    const served = new Set<number>();
    let count = 0;
    // four clients, each sending its next request a moment after the last is answered, on fresh
    // connections (paced so that the replacement workers get a core to start on)
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!stop) {
          try {
            const r = await get(svc.port, '/pid');
            if (r.status !== 200) failures.push(`${r.status} ${r.body}`);
            else served.add((JSON.parse(r.body) as { pid: number }).pid);
            count++;
          } catch (err) {
            failures.push(String(err));
          }
          await new Promise((r) => setTimeout(r, 5));
        }
      }),
    );
    let after: Set<number>;
    try {
      // to the whole process group, as a closed terminal sends it: the workers leave it to the runner
      process.kill(-svc.pid, 'SIGHUP');
      await svc.waitFor(/svc runner: reload complete/, 150_000);
      after = await bothPids(svc.port);
    } finally {
      // the load ends however the reload went (a load left running kept jest alive after a failure)
      stop = true;
      await load;
    }
    if (failures.length > 0) process.stderr.write(svc.output);
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThan(0);
    // the old workers are gone, two new ones serve
    expect(after.size).toBe(2);
    for (const pid of before) expect(after.has(pid)).toBe(false);
    svc.signal('SIGTERM');
    expect((await svc.exited).code).toBe(0);
  }, 240_000);
});
