/**
 * Keeps one instance of each of the PDL parser's classes alive for the life of the process.
 *
 * Why: V8 gives each class instance shape a hidden class (map) held only by its live instances; when a full
 * GC finds none alive, it drops the map and deoptimizes every function compiled against it. A parse leaves
 * no parser object behind, so after each full GC the lexer, parser and model builder ran unoptimized again
 * (measured with `--trace-deopt`: about 40 functions deoptimized per full GC; a fixture-tree parse right
 * after one took 9 ms instead of 2). Processes that parse now and then see that after every major GC, and
 * the bench forces a full GC before each task. One instance each (built from the same kinds of values as a
 * real parse, so that it keeps the very map the parse uses) costs a few hundred bytes.
 */
const kept: object[] = [];

/** Keeps `instance` (and with it the hidden class of its shape) alive for good. */
export function keepClassAlive(instance: object): void {
  kept.push(instance);
}
