/**
 * TSDoc comments for generated code. Schema `doc` strings are HTML 4.01 (brief, "Named schema attributes"),
 * which TSDoc renderers show as is; only what would end the comment (`*\/`) is escaped.
 */
import type { Deprecation } from '../schema/named-schema';

/** The comment text with `*\/` escaped and line breaks normalized. */
function clean(text: string): string[] {
  return text
    .replace(/\*\//g, '*\\/')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trimEnd());
}

/** A deprecation as a `@deprecated` tag line, or nothing. */
export function deprecatedTag(deprecated: Deprecation | undefined): string[] {
  if (deprecated === undefined || deprecated === false) return [];
  return [deprecated === true ? '@deprecated' : `@deprecated ${clean(deprecated).join(' ')}`];
}

/**
 * A doc comment of `paragraphs` (empty ones dropped) and `tags`, indented by `indent`; nothing when all
 * are empty. One short paragraph and no tags fit on one line.
 */
export function docComment(
  indent: string,
  paragraphs: readonly string[],
  tags: readonly string[] = [],
): string[] {
  const parts = paragraphs.filter((p) => p.trim() !== '').map(clean);
  const tagLines = tags.flatMap(clean);
  if (parts.length === 0 && tagLines.length === 0) return [];
  if (parts.length === 1 && parts[0]!.length === 1 && tagLines.length === 0 && parts[0]![0]!.length < 90) {
    return [`${indent}/** ${parts[0]![0]!} */`];
  }
  const body: string[] = [];
  parts.forEach((p, i) => {
    if (i > 0) body.push('');
    body.push(...p);
  });
  if (tagLines.length > 0) {
    if (body.length > 0) body.push('');
    body.push(...tagLines);
  }
  return [
    `${indent}/**`,
    ...body.map((l) => (l === '' ? `${indent} *` : `${indent} * ${l}`)),
    `${indent} */`,
  ];
}
