import { type OptionsAnswer, provideOptionsAnswers } from '../resources/options-answers';
import { optionsBody, type ExportIdlOptions } from './export';

/**
 * The server's answer to `OPTIONS /<resource>` (and `OPTIONS /<resource>/...`): the root resource's
 * interface description, as Rest.li servers answer it (their documentation handler): a JSON object with
 * `resources`, the resource and each of its subresources by full name (`<namespace>.<name>`), and `models`,
 * every named schema they use by full name, each written whole. Computed once per resource definition.
 */

export type { OptionsAnswer };

/** The content type of the answer (Rest.li's documentation handler answers JSON). */
export const OPTIONS_CONTENT_TYPE = 'application/json';

const answers = new WeakMap<object, OptionsAnswer>();

/**
 * The `OPTIONS` answer for a registered root resource (its definition or interface).
 * @throws ResourceDefinitionError when the definition cannot be described (registration checks make that
 *   unlikely); the plugin turns it into a 500 ErrorResponse
 */
export function optionsAnswer(resource: object, options: ExportIdlOptions = {}): OptionsAnswer {
  const cached = answers.get(resource);
  if (cached !== undefined) return cached;
  const answer: OptionsAnswer = Object.freeze({
    status: 200,
    contentType: OPTIONS_CONTENT_TYPE,
    body: JSON.stringify(optionsBody(resource, options)),
  });
  answers.set(resource, answer);
  return answer;
}

// the HTTP adapters (resources/) answer OPTIONS with this once the IDL layer is loaded
provideOptionsAnswers((resource) => optionsAnswer(resource));
