/** A parsed media type: `type/subtype` lower-cased, and its parameters (names lower-cased). */
export interface MediaType {
  readonly type: string;
  readonly subtype: string;
  /** `type/subtype`. */
  readonly essence: string;
  readonly parameters: ReadonlyMap<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses a `Content-Type`-style value (`application/json; charset=UTF-8`), or returns undefined when it is not
 * a media type. Quoted parameter values are unquoted.
 */
export function parseMediaType(value: string): MediaType | undefined {
  const parts = splitParams(value);
  const essence = parts[0]!.trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash <= 0) return undefined;
  const type = essence.slice(0, slash);
  const subtype = essence.slice(slash + 1);
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  const parameters = new Map<string, string>();
  for (const p of parts.slice(1)) {
    const eq = p.indexOf('=');
    if (eq <= 0) continue;
    const name = p.slice(0, eq).trim().toLowerCase();
    let v = p.slice(eq + 1).trim();
    if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
    parameters.set(name, v);
  }
  return { type, subtype, essence, parameters };
}

/** Splits at `;` outside double quotes. */
function splitParams(value: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '"' && value[i - 1] !== '\\') quoted = !quoted;
    if (c === ';' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}
