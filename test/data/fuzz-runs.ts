/**
 * Run counts of the data layer's property (fuzz) tests: `normal` in the normal suite, or SVC_FUZZ_RUNS runs
 * (when larger) for a long fuzzing session, e.g. `SVC_FUZZ_RUNS=200000 npx jest test/data`.
 */
export function fuzzRuns(normal = 200): number {
  const asked = Number(process.env.SVC_FUZZ_RUNS ?? normal);
  return Number.isInteger(asked) && asked > normal ? asked : normal;
}
