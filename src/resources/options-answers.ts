/**
 * The answer to `OPTIONS /<resource>`: the resource's interface description, which the IDL layer computes
 * (src/idl/options-response.ts). The IDL layer sits below this one (it reads resource interfaces), so it
 * hands its answer in when it loads instead of being imported from here; without it (a bundle that leaves
 * the IDL layer out), OPTIONS is answered like any other method the resource lacks.
 */

/** What an OPTIONS request is answered with. */
export interface OptionsAnswer {
  readonly status: number;
  readonly contentType: string;
  /** Compact JSON text. */
  readonly body: string;
}

/** Computes (and may cache) the OPTIONS answer of a root resource's definition or interface. */
export type OptionsAnswerProvider = (resource: object) => OptionsAnswer;

let provider: OptionsAnswerProvider | undefined;

/** Sets how OPTIONS requests are answered (the IDL layer calls it when it loads). */
export function provideOptionsAnswers(answer: OptionsAnswerProvider): void {
  provider = answer;
}

/** The OPTIONS answer of a root resource, or undefined when no provider is set. */
export function optionsAnswerOf(resource: object): OptionsAnswer | undefined {
  return provider?.(resource);
}
