/**
 * Runs the benchmarks in bench/*.bench.ts.
 *
 *   npm run bench                   all of them
 *   npm run bench -- json pson      those whose file name contains `json` or `pson`
 *   npm run bench -- --time=600 --rounds=2 json   shorter budget per task (ms, all rounds together)
 *
 * Prints per suite ops/s, mean, ±rme and throughput ratios to the suite's anchor, then a summary, which is
 * also written as JSON to .bench-out/<timestamp>.json. Exit code 0 unless a benchmark crashes.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  type BenchFile,
  DEFAULT_OPTIONS,
  factSuiteResult,
  gcAvailable,
  isTimed,
  machineInfo,
  printFactSuite,
  printSummary,
  printTimedSuite,
  type RunOptions,
  runSuite,
  sinkValue,
  type SuiteResult,
} from './harness';

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

function parseArgs(argv: readonly string[]): { filters: string[]; opts: RunOptions } {
  const filters: string[] = [];
  let opts: RunOptions = { ...DEFAULT_OPTIONS };
  for (const arg of argv) {
    const m = /^--(time|rounds|warmup)=(\d+)$/.exec(arg);
    if (m !== null) {
      const n = Number(m[2]);
      if (m[1] === 'time') opts = { ...opts, timeMs: n };
      else if (m[1] === 'rounds') opts = { ...opts, rounds: Math.max(1, n) };
      else opts = { ...opts, warmupMs: n };
    } else if (arg.startsWith('--')) {
      throw new Error(`unknown option ${arg} (known: --time=<ms>, --rounds=<n>, --warmup=<ms>)`);
    } else {
      filters.push(arg);
    }
  }
  return { filters, opts };
}

function isBenchFile(v: unknown): v is BenchFile {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as BenchFile).title === 'string' &&
    typeof (v as BenchFile).suites === 'function'
  );
}

function main(): number {
  const { filters, opts } = parseArgs(process.argv.slice(2));
  const benchDir = __dirname;
  const files = fs
    .readdirSync(benchDir)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort();

  const m = machineInfo();
  log(
    `Node ${m.node} (V8 ${m.v8}) on ${m.platform}; CPU: ${m.cpu} × ${m.cores}; load average ${m.loadavg.join(' ')}`,
  );
  log(
    `Budget per task: ${opts.timeMs} ms in ${opts.rounds} interleaved rounds (+${opts.warmupMs} ms warmup); ops/s = 1 / mean;`,
  );
  log(
    `task order rotates each round; full GC before each task: ${gcAvailable() ? 'yes' : 'no (gc not available)'}.`,
  );
  log(
    'Ratios are throughput of the task / throughput of the anchor measured in this run; a ratio within its',
  );
  log('± noise (the two rme combined) of 1.00× is a tie. ±rme is the 95% margin of error of the mean.');
  if (files.length === 0) {
    log(`No bench/*.bench.ts matches ${filters.join(', ')}.`);
    return 0;
  }

  const load = createRequire(__filename);
  const results: SuiteResult[] = [];
  const crashes: string[] = [];
  const started = Date.now();
  for (const file of files) {
    const name = file.replace(/\.bench\.ts$/, '');
    const t0 = Date.now();
    log('');
    log(`━━ ${file}`);
    try {
      const mod = load(path.join(benchDir, file)) as { benchmark?: unknown };
      if (!isBenchFile(mod.benchmark)) throw new Error(`${file} does not export 'benchmark: BenchFile'`);
      log(mod.benchmark.title);
      for (const suite of mod.benchmark.suites()) {
        if (isTimed(suite)) {
          const res = runSuite(name, suite, opts);
          printTimedSuite(suite, res, log);
          results.push(res);
        } else {
          const res = factSuiteResult(name, suite);
          printFactSuite(suite, res, log);
          results.push(res);
        }
      }
      log(`   (${file}: ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (err) {
      crashes.push(file);
      log(`!! ${file} crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }

  printSummary(results, log);
  const out = {
    date: new Date(started).toISOString(),
    args: process.argv.slice(2),
    options: opts,
    machine: m,
    seconds: (Date.now() - started) / 1000,
    crashed: crashes,
    ratios: results.flatMap((s) => s.ratios),
    sizes: results.flatMap((s) => s.factRatios),
    tasks: results.flatMap((s) => s.tasks.map((t) => ({ file: s.file, suite: s.title, ...t }))),
  };
  const outDir = path.resolve(benchDir, '..', '.bench-out');
  fs.mkdirSync(outDir, { recursive: true });
  const outFile = path.join(outDir, `${out.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(outFile, `${JSON.stringify(out, null, 2)}\n`);
  log('');
  log(
    `Total ${out.seconds.toFixed(1)} s; summary written to ${path.relative(process.cwd(), outFile)} (sink ${sinkValue()}).`,
  );
  if (crashes.length > 0) log(`Crashed: ${crashes.join(', ')}`);
  return crashes.length > 0 ? 1 : 0;
}

try {
  process.exitCode = main();
} catch (err) {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
}
