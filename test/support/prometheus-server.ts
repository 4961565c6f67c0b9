/**
 * A real Prometheus server for tests (Debian's `prometheus` package, installed with apt-get when missing
 * and possible), on a free loopback port, scraping the given targets every second, its data in a temp
 * directory removed when it stops.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDebianCommand } from './debian-package';
import { freePort } from './redis-server';

/** Finds `prometheus`, installing it with apt-get when it is missing; undefined when that fails. */
export function ensurePrometheus(): string | undefined {
  return ensureDebianCommand('prometheus', 'prometheus', { noRecommends: true });
}

export class PrometheusServer {
  readonly #child: ChildProcess;
  readonly #dir: string;
  #output = '';
  private constructor(
    child: ChildProcess,
    dir: string,
    readonly url: string,
  ) {
    this.#child = child;
    this.#dir = dir;
    const keep = (d: Buffer): void => {
      this.#output = (this.#output + d.toString('utf8')).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /** Starts Prometheus scraping `targets` (`host:port`) at `metricsPath` every second; waits until ready. */
  static async start(
    bin: string,
    targets: readonly string[],
    metricsPath = '/metrics',
  ): Promise<PrometheusServer> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-prometheus-'));
    const config = [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: svc',
      `    metrics_path: ${metricsPath}`,
      '    static_configs:',
      `      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]`,
      '',
    ].join('\n');
    writeFileSync(path.join(dir, 'prometheus.yml'), config);
    const port = await freePort();
    const child = spawn(
      bin,
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const server = new PrometheusServer(child, dir, `http://127.0.0.1:${port}`);
    const until = Date.now() + 30_000;
    for (;;) {
      const ready = await fetch(`${server.url}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return server;
      if (child.exitCode !== null || Date.now() > until) {
        await server.stop();
        throw new Error(`prometheus did not start: ${server.#output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** An instant query's vector: labels and value of each series. */
  async query(promql: string): Promise<Array<{ metric: Record<string, string>; value: number }>> {
    const res = await fetch(`${this.url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await res.json()) as {
      status: string;
      data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
    };
    if (body.status !== 'success') throw new Error(`query failed: ${JSON.stringify(body)}`);
    return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  }

  async stop(): Promise<void> {
    const child = this.#child;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
