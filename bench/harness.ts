/**
 * Benchmark harness: suites of one anchor and some candidates, measured with tinybench in interleaved
 * rounds, reported as ratios to the anchor measured in the same run.
 *
 * Why rounds: a shared 2-core machine drifts (other processes, thermal state, GC pressure). Each suite runs
 * R rounds; in every round each task gets budget/R of time, and the task order rotates from round to round,
 * so the anchor and the candidates sample the same stretch of machine state. Samples of all rounds are
 * pooled for ops/s, mean and ±rme; the per-round ratios are printed as a spread.
 *
 * Why batches: a ~µs operation would be dominated by the timer call, so each sample runs the task function
 * `batch` times (calibrated so a sample takes ≥ ~50 µs) and is divided by `batch`.
 *
 * Performance is measured, never asserted: goals print `meets` / `misses` and never fail the run.
 */
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Bench } from 'tinybench';
import { median, quartiles } from './stats';

// ---------------------------------------------------------------------------------------------------------
// What a benchmark file describes

export interface BenchTask {
  readonly name: string;
  /** The timed work. Feed its result to {@link keep} so that it cannot be optimized away. */
  readonly fn: () => void;
}

/** An informational target: throughput of `task` ≥ `min` × throughput of `vs` (default: the anchor). */
export interface Goal {
  readonly task: string;
  readonly min: number;
  readonly vs?: string;
}

/** A plain fact printed with the suite (e.g. a size in bytes). */
export interface Fact {
  readonly label: string;
  readonly value: number;
  readonly unit?: string;
}

/** A ratio of two facts of the same suite (by label), recorded in the summary. */
export interface FactRatio {
  readonly name: string;
  readonly of: string;
  readonly to: string;
  /**
   * The ratio of each round, when the two facts were measured in rounds of runs back to back: the ratio is
   * then their median (a round the machine disturbed moves it less than it moves of / to), else of / to.
   */
  readonly rounds?: readonly number[];
  /**
   * The least ratio the goal asks for: the summary says whether the ratio meets it, and `~` when the goal
   * lies within the middle half of the rounds' ratios (their quartiles: as many rounds fell on each side of
   * it as this run's noise allows to tell apart).
   */
  readonly goal?: number;
}

export interface TimedSuite {
  readonly title: string;
  /** Short name for the summary table (default: the title). */
  readonly short?: string;
  readonly anchor: BenchTask;
  readonly candidates: readonly BenchTask[];
  /** Ratios beyond candidate/anchor, e.g. a candidate vs a second reference. */
  readonly comparisons?: ReadonlyArray<{ readonly task: string; readonly vs: string }>;
  readonly goals?: readonly Goal[];
  readonly facts?: readonly Fact[];
  readonly notes?: readonly string[];
}

export interface FactSuite {
  readonly title: string;
  /** Short name for the summary table (default: the title). */
  readonly short?: string;
  readonly facts: readonly Fact[];
  readonly ratios?: readonly FactRatio[];
  readonly notes?: readonly string[];
}

export type Suite = TimedSuite | FactSuite;

/** What a `bench/*.bench.ts` file exports as `benchmark`. Suites are built lazily (fixtures can be big). */
export interface BenchFile {
  readonly title: string;
  readonly suites: () => readonly Suite[];
}

export function isTimed(s: Suite): s is TimedSuite {
  return 'anchor' in s;
}

// ---------------------------------------------------------------------------------------------------------
// Sink: keeps results observable so the JIT cannot drop the work

let sinkState = 0;

/** Folds a number derived from a task's result into module state (read once at the end of the run). */
export function keep(n: number): void {
  sinkState = (sinkState + n) | 0;
}

/** {@link keep} for a field read from a result: its length if a string, else -1. */
export function keepLength(v: unknown): void {
  keep(typeof v === 'string' ? v.length : -1);
}

export function sinkValue(): number {
  return sinkState;
}

// ---------------------------------------------------------------------------------------------------------
// Options and results

export interface RunOptions {
  /** Measured time per task, all rounds together, in ms. */
  readonly timeMs: number;
  readonly rounds: number;
  /** Warmup time per task (first round only), in ms. */
  readonly warmupMs: number;
}

export const DEFAULT_OPTIONS: RunOptions = { timeMs: 1200, rounds: 3, warmupMs: 150 };

export interface TaskStats {
  readonly name: string;
  readonly opsPerSec: number;
  /** Mean time per call, ms. */
  readonly meanMs: number;
  /** Relative margin of error of the mean (95%), in percent. */
  readonly rme: number;
  /** Samples (each of `batch` calls). */
  readonly samples: number;
  readonly batch: number;
  /** ops/s per round, in round order. */
  readonly roundOps: readonly number[];
}

export interface RatioResult {
  readonly file: string;
  readonly suite: string;
  readonly task: string;
  readonly vs: string;
  /** Throughput of task / throughput of vs. */
  readonly ratio: number;
  /** Combined noise of the ratio, percent: sqrt(rme_task² + rme_vs²). */
  readonly noise: number;
  /** Smallest and largest per-round ratio. */
  readonly roundMin: number;
  readonly roundMax: number;
  readonly goal?: number;
  readonly verdict?: 'meets' | 'misses';
  /** |ratio − goal (or 1)| is within the noise. */
  readonly withinNoise: boolean;
}

export interface FactResult {
  readonly file: string;
  readonly suite: string;
  readonly name: string;
  readonly ratio: number;
  readonly facts: readonly Fact[];
  /** Smallest and largest per-round ratio, when the ratio is the median of rounds. */
  readonly roundMin?: number;
  readonly roundMax?: number;
  readonly goal?: number;
  readonly verdict?: 'meets' | 'misses';
  /** The goal lies within the middle half (the quartiles) of the rounds' ratios. */
  readonly withinNoise?: boolean;
}

export interface SuiteResult {
  readonly file: string;
  readonly title: string;
  readonly short: string;
  readonly anchor: string | null;
  readonly tasks: readonly TaskStats[];
  readonly ratios: readonly RatioResult[];
  readonly factRatios: readonly FactResult[];
}

// ---------------------------------------------------------------------------------------------------------
// Machine

let gcFn: (() => void) | null | undefined;

/** Whether {@link collectGarbage} can force a GC (it exposes `gc` at run time). */
export function gcAvailable(): boolean {
  collectGarbage();
  return gcFn !== null;
}

/** A full GC between tasks, so no task pays for the previous task's garbage. */
export function collectGarbage(): void {
  if (gcFn === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      gcFn = vm.runInNewContext('gc') as () => void;
    } catch {
      gcFn = null;
    }
  }
  gcFn?.();
}

export function machineInfo(): {
  node: string;
  v8: string;
  cpu: string;
  cores: number;
  loadavg: readonly number[];
  platform: string;
} {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
    platform: `${os.platform()} ${os.arch()}`,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Statistics

/** Two-sided 95% Student t critical values for df 1..30. */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

function tCritical(df: number): number {
  if (df < 1) return Number.NaN;
  if (df <= 30) return T95.at(df - 1) ?? Number.NaN;
  return 1.96 + 2.4 / df;
}

function meanAndRme(xs: readonly number[]): { mean: number; rme: number } {
  const n = xs.length;
  let sum = 0;
  for (const x of xs) sum += x;
  const mean = sum / n;
  if (n < 2) return { mean, rme: Number.POSITIVE_INFINITY };
  let ss = 0;
  for (const x of xs) ss += (x - mean) ** 2;
  const sem = Math.sqrt(ss / (n - 1) / n);
  return { mean, rme: (100 * tCritical(n - 1) * sem) / mean };
}

// ---------------------------------------------------------------------------------------------------------
// Running

const TARGET_SAMPLE_MS = 0.05;

/** Calls per sample so that one sample takes ≥ TARGET_SAMPLE_MS; also a first warmup. */
function calibrateBatch(fn: () => void): number {
  fn(); // fail fast, outside the timer
  let calls = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < 20 && calls < 1_000_000) {
    fn();
    calls++;
    if ((calls & 7) === 0 || t - t0 > 1) t = performance.now();
  }
  t = performance.now();
  const perCall = (t - t0) / calls;
  return Math.max(1, Math.min(10_000, Math.ceil(TARGET_SAMPLE_MS / perCall)));
}

function batched(fn: () => void, batch: number): () => void {
  if (batch === 1) return fn;
  return () => {
    for (let i = 0; i < batch; i++) fn();
  };
}

/** Runs one timed suite; throws if a task throws. */
export function runSuite(file: string, suite: TimedSuite, opts: RunOptions): SuiteResult {
  const tasks = [suite.anchor, ...suite.candidates];
  const names = new Set<string>();
  for (const t of tasks) {
    if (names.has(t.name)) throw new Error(`suite '${suite.title}': duplicate task name '${t.name}'`);
    names.add(t.name);
  }

  const batches = new Map<string, number>();
  for (const t of tasks) {
    collectGarbage();
    batches.set(t.name, calibrateBatch(t.fn));
  }

  // per task: per-round arrays of per-call latencies (ms)
  const perRound = new Map<string, number[][]>(tasks.map((t) => [t.name, []]));
  const roundTime = opts.timeMs / opts.rounds;
  for (let r = 0; r < opts.rounds; r++) {
    const shift = r % tasks.length;
    const order = [...tasks.slice(shift), ...tasks.slice(0, shift)];
    const bench = new Bench({
      time: roundTime,
      iterations: 3,
      warmup: r === 0 && opts.warmupMs > 0,
      warmupTime: opts.warmupMs,
      warmupIterations: 2,
      retainSamples: true,
      throws: true,
      setup: () => collectGarbage(),
    });
    for (const t of order) bench.add(t.name, batched(t.fn, batches.get(t.name)!));
    bench.runSync();
    for (const task of bench.tasks) {
      const res = task.result;
      if (res.state === 'errored') throw res.error;
      if (res.state !== 'completed') throw new Error(`task '${task.name}' did not complete (${res.state})`);
      const batch = batches.get(task.name)!;
      const samples = res.latency.samples ?? [];
      perRound.get(task.name)!.push(Array.from(samples, (ms) => ms / batch));
    }
  }

  const stats = new Map<string, TaskStats>();
  for (const t of tasks) {
    const rounds = perRound.get(t.name)!;
    const all = rounds.flat();
    const { mean, rme } = meanAndRme(all);
    stats.set(t.name, {
      name: t.name,
      opsPerSec: 1000 / mean,
      meanMs: mean,
      rme,
      samples: all.length,
      batch: batches.get(t.name)!,
      roundOps: rounds.map((xs) => 1000 / meanAndRme(xs).mean),
    });
  }

  const pairs: Array<{ task: string; vs: string }> = suite.candidates.map((c) => ({
    task: c.name,
    vs: suite.anchor.name,
  }));
  const addPair = (task: string, vs: string): void => {
    if (!stats.has(task) || !stats.has(vs))
      throw new Error(`suite '${suite.title}': unknown task in comparison ${task} vs ${vs}`);
    if (!pairs.some((p) => p.task === task && p.vs === vs)) pairs.push({ task, vs });
  };
  for (const c of suite.comparisons ?? []) addPair(c.task, c.vs);
  for (const g of suite.goals ?? []) addPair(g.task, g.vs ?? suite.anchor.name);

  const ratios = pairs.map(({ task, vs }): RatioResult => {
    const a = stats.get(task)!;
    const b = stats.get(vs)!;
    const ratio = a.opsPerSec / b.opsPerSec;
    const noise = Math.sqrt(a.rme ** 2 + b.rme ** 2);
    const perRoundRatios = a.roundOps.map((ops, i) => ops / (b.roundOps.at(i) ?? Number.NaN));
    const goal = suite.goals?.find((g) => g.task === task && (g.vs ?? suite.anchor.name) === vs)?.min;
    const reference = goal ?? 1;
    const base = {
      file,
      suite: suite.title,
      task,
      vs,
      ratio,
      noise,
      roundMin: Math.min(...perRoundRatios),
      roundMax: Math.max(...perRoundRatios),
      withinNoise: Math.abs(ratio - reference) / reference <= noise / 100,
    };
    return goal === undefined ? base : { ...base, goal, verdict: ratio >= goal ? 'meets' : 'misses' };
  });

  return {
    file,
    title: suite.title,
    short: suite.short ?? suite.title,
    anchor: suite.anchor.name,
    tasks: tasks.map((t) => stats.get(t.name)!),
    ratios,
    factRatios: [],
  };
}

/** A fact ratio's goal, verdict and whether the goal is within the rounds' noise (their quartiles). */
function factGoal(r: FactRatio, ratio: number): Pick<FactResult, 'goal' | 'verdict' | 'withinNoise'> {
  if (r.goal === undefined) return {};
  const rounds = r.rounds ?? [];
  const [q1, q3] = rounds.length > 1 ? quartiles(rounds) : [ratio, ratio];
  return {
    goal: r.goal,
    verdict: ratio >= r.goal ? 'meets' : 'misses',
    withinNoise: r.goal >= q1 && r.goal <= q3,
  };
}

export function factSuiteResult(file: string, suite: FactSuite): SuiteResult {
  const value = (label: string): number => {
    const f = suite.facts.find((x) => x.label === label);
    if (f === undefined) throw new Error(`suite '${suite.title}': no fact '${label}'`);
    return f.value;
  };
  const factRatios = (suite.ratios ?? []).map((r): FactResult => {
    const rounds = r.rounds !== undefined && r.rounds.length > 0 ? r.rounds : undefined;
    const ratio = rounds !== undefined ? median(rounds) : value(r.of) / value(r.to);
    return {
      file,
      suite: suite.title,
      name: r.name,
      ratio,
      facts: suite.facts.filter((f) => f.label === r.of || f.label === r.to),
      ...(rounds !== undefined ? { roundMin: Math.min(...rounds), roundMax: Math.max(...rounds) } : {}),
      ...factGoal(r, ratio),
    };
  });
  return {
    file,
    title: suite.title,
    short: suite.short ?? suite.title,
    anchor: null,
    tasks: [],
    ratios: [],
    factRatios,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Printing

export function fmtInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function fmtTime(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 1) return `${ms.toFixed(ms >= 100 ? 0 : 2)} ms`;
  if (ms >= 0.001) return `${(ms * 1000).toFixed(ms * 1000 >= 100 ? 0 : 2)} µs`;
  return `${(ms * 1e6).toFixed(0)} ns`;
}

export function fmtRatio(r: number): string {
  return `${r.toFixed(2)}×`;
}

function pad(s: string, n: number, right = false): string {
  return right ? s.padStart(n) : s.padEnd(n);
}

export function printTimedSuite(suite: TimedSuite, res: SuiteResult, log: (line: string) => void): void {
  log('');
  log(`── ${suite.title}`);
  for (const n of suite.notes ?? []) log(`   note: ${n}`);
  for (const f of suite.facts ?? [])
    log(`   ${f.label}: ${fmtInt(f.value)}${f.unit === undefined ? '' : ` ${f.unit}`}`);
  const w = Math.max(28, ...res.tasks.map((t) => t.name.length + 2));
  log(
    `   ${pad('task', w)}${pad('ops/s', 13, true)}${pad('mean', 11, true)}${pad('±rme', 9, true)}${pad('samples', 11, true)}   vs anchor`,
  );
  for (const t of res.tasks) {
    const isAnchor = t.name === suite.anchor.name;
    const r = res.ratios.find((x) => x.task === t.name && x.vs === suite.anchor.name);
    const rel = isAnchor ? '1.00× (anchor)' : r === undefined ? '' : ratioText(r);
    log(
      `   ${pad(t.name, w)}${pad(fmtInt(t.opsPerSec), 13, true)}${pad(fmtTime(t.meanMs), 11, true)}${pad(`±${t.rme.toFixed(1)}%`, 9, true)}${pad(fmtInt(t.samples), 11, true)}   ${rel}`,
    );
  }
  for (const r of res.ratios) {
    if (r.vs === suite.anchor.name && r.goal === undefined) continue;
    if (r.vs !== suite.anchor.name) log(`   ${r.task} vs ${r.vs}: ${ratioText(r)}`);
    if (r.goal !== undefined) {
      const tie = r.withinNoise ? ' (within noise of the goal)' : '';
      log(`   goal: ${r.task} ≥ ${r.goal.toFixed(2)}× ${r.vs}: ${r.verdict} at ${fmtRatio(r.ratio)}${tie}`);
    }
  }
}

function ratioText(r: RatioResult): string {
  const tie = r.goal === undefined && r.withinNoise ? ', tie' : '';
  return `${fmtRatio(r.ratio)} ±${r.noise.toFixed(1)}%${tie}  [rounds ${r.roundMin.toFixed(2)}–${r.roundMax.toFixed(2)}]`;
}

export function printFactSuite(suite: FactSuite, res: SuiteResult, log: (line: string) => void): void {
  log('');
  log(`── ${suite.title}`);
  for (const n of suite.notes ?? []) log(`   note: ${n}`);
  const w = Math.max(...suite.facts.map((f) => f.label.length)) + 2;
  for (const f of suite.facts)
    log(`   ${pad(f.label, w)}${pad(fmtInt(f.value), 14, true)}${f.unit === undefined ? '' : ` ${f.unit}`}`);
  for (const r of res.factRatios) {
    const rounds =
      r.roundMin === undefined
        ? ''
        : ` (median of rounds; rounds ${r.roundMin.toFixed(2)}–${(r.roundMax ?? r.roundMin).toFixed(2)})`;
    const goal =
      r.goal === undefined
        ? ''
        : `; goal ≥ ${r.goal.toFixed(2)}: ${r.verdict!}${r.withinNoise === true ? ' (within the middle half of the rounds)' : ''}`;
    log(`   ${r.name}: ${r.ratio.toFixed(3)}${rounds}${goal}`);
  }
}

export function printSummary(results: readonly SuiteResult[], log: (line: string) => void): void {
  const rows: string[][] = [];
  for (const s of results) {
    for (const r of s.ratios) {
      const goal =
        r.goal === undefined
          ? r.withinNoise
            ? 'tie'
            : ''
          : `≥${r.goal.toFixed(2)} ${r.verdict}${r.withinNoise ? ' ~' : ''}`;
      const vs = r.vs === s.anchor ? 'anchor' : r.vs;
      rows.push([
        `${s.file}: ${s.short}`,
        r.task,
        vs,
        fmtRatio(r.ratio),
        `±${r.noise.toFixed(1)}%`,
        `${r.roundMin.toFixed(2)}–${r.roundMax.toFixed(2)}`,
        goal,
      ]);
    }
    for (const f of s.factRatios) {
      const rounds =
        f.roundMin === undefined ? '' : `${f.roundMin.toFixed(2)}–${(f.roundMax ?? f.roundMin).toFixed(2)}`;
      const goal =
        f.goal === undefined
          ? ''
          : `≥${f.goal.toFixed(2)} ${f.verdict!}${f.withinNoise === true ? ' ~' : ''}`;
      rows.push([`${s.file}: ${s.short}`, f.name, '', f.ratio.toFixed(3), '', rounds, goal]);
    }
  }
  if (rows.length === 0) return;
  const head = ['suite', 'task', 'vs', 'ratio', 'noise', 'rounds', 'goal'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r.at(i) ?? '').length)));
  const numeric = new Set([3, 4]);
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths.at(i) ?? 0) : c.padEnd(widths.at(i) ?? 0)))
      .join('  ')
      .trimEnd();
  log('');
  log(
    '══ Summary: throughput ratio task / vs (size rows: bytes ratio). tie = within noise of 1.00×; ~ = within noise of the goal (for ratios of rounds: the goal lies between their quartiles)',
  );
  log(line(head));
  log(line(widths.map((w) => '─'.repeat(w))));
  for (const r of rows) log(line(r));
}
