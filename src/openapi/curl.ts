import type { JsonValue } from './openapi-model';

/** Quotes a shell word in single quotes (a `'` inside becomes `'\''`). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\-./:=@]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * One curl line that makes the request when pasted into a POSIX shell: `-X` for methods other than GET,
 * each header as `-H`, a JSON body as `-d`, the URL quoted (Rest.li URLs hold `(`, `)` and `&`).
 */
export function curlLine(method: string, url: string, headers: readonly string[], body?: JsonValue): string {
  const parts = ['curl', '-s'];
  if (method !== 'GET') parts.push('-X', method);
  for (const h of headers) parts.push('-H', shellQuote(h));
  if (body !== undefined) parts.push('-d', shellQuote(JSON.stringify(body)));
  parts.push(shellQuote(url));
  return parts.join(' ');
}
