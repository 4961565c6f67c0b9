/**
 * Texts (a list of header names, of query keys, a query) remembered when first seen, so that work kept for
 * a text (code compiled for it, its parsed form kept) is spent only the second time it comes: a text seen
 * once is not worth it. Bounded: past `max` texts, all are forgotten.
 */
export class SecondSightings {
  readonly #seen = new Set<string>();
  readonly #max: number;

  constructor(max = 64) {
    this.#max = max;
  }

  /** True the second time `text` is seen (it is then forgotten); false the first time (it is remembered). */
  second(text: string): boolean {
    if (this.#seen.delete(text)) return true;
    if (this.#seen.size >= this.#max) this.#seen.clear();
    this.#seen.add(text);
    return false;
  }
}
