import type { Invocation } from '../resources';

/**
 * The access log's line (access-log.ts), in the form pino would write it:
 * `{"level":30,"time":…,"reqId":"…","http":"GET","url":"/photos/1","resource":"photos","method":"get",
 * "status":200,"ms":0.41,"bytesIn":0,"bytesOut":312,"msg":"request"}` and a newline; `reqId` only when the
 * request has an id, `resource` and `method` only once it was routed, `"error"` and `"code"` after
 * `bytesOut` for an error response. {@link accessLineText} builds any line; {@link plainAccessLine} the
 * same text for the common one, from cached parts.
 *
 * Encoding the common line byte by byte into the writer's block, with no string at all, was tried and cost
 * more: ~8.5k instructions a line against ~6.7k for building the text and `Buffer.write` (V8's typed-array
 * stores and `charCodeAt` on a concatenated id take ~12-50 instructions a byte; callgrind, 10 000 gets in
 * bench/runtime-observe's access-log case).
 */

/** A routed request's `,"resource":…,"method":…`, and the part of {@link plainAccessLine} made from it. */
export interface AccessTarget {
  readonly text: string;
  /** Whether `text` is ASCII. */
  readonly ascii: boolean;
  /** The status `tail` was made for. */
  status: number;
  /** `"` + text + `,"status":<status>,"ms":` */
  tail: string;
}

/** Chars `JSON.stringify` escapes in a string: quote, backslash, controls and (lone) surrogates. */
// eslint-disable-next-line no-control-regex -- the controls JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string's JSON: the common one (an id, a method, a URL) quoted as it is, the rest by `JSON.stringify`. */
function quoted(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** The line's `method`: the resource method, with its name for a finder or an action (`finder:search`). */
export function methodOf(inv: Invocation): string {
  return inv.methodName === undefined ? inv.method : `${inv.method}:${inv.methodName}`;
}

/** The same few targets on every line, built once each (per method target). */
const targets = new WeakMap<object, AccessTarget>();
/** The last target: a run of requests to one method finds it without the `WeakMap`. */
let lastInvTarget: object | undefined;
let lastTarget: AccessTarget | undefined;

/** The `,"resource":…,"method":…` of an invocation's method. */
export function accessTarget(inv: Invocation): AccessTarget {
  if (inv.target === lastInvTarget) return lastTarget!;
  let target = targets.get(inv.target);
  if (target === undefined) {
    const text = `,"resource":${JSON.stringify(inv.resource.path)},"method":${JSON.stringify(methodOf(inv))}`;
    // eslint-disable-next-line no-control-regex -- any char beyond ASCII
    target = { text, ascii: !/[^\x00-\x7f]/.test(text), status: -1, tail: '' };
    targets.set(inv.target, target);
  }
  lastInvTarget = inv.target;
  return (lastTarget = target);
}

/**
 * `h / 100` as JavaScript writes it (`String(Math.round(ms * 100) / 100)`, the line's `ms` as pino would
 * write the number), from the whole number `h` ≥ 0: whole numbers written as such are Node's cached small
 * integers' texts, where the fraction's double took V8's shortest-digits conversion, ~900 instructions a
 * line (callgrind, bench/runtime-observe's access-log setup).
 */
export function hundredthsText(h: number): string {
  if (h < SMALL_HUNDREDTHS) return (smallHundredths[h] ??= hundredthsTextOf(h));
  return hundredthsTextOf(h);
}

/**
 * Durations under 10 ms, the common ones, keep their text once made: their two or three number-to-text
 * conversions and joins were ~0.35k instructions a line (callgrind, bench/runtime-observe's
 * access-log-standalone case).
 */
const SMALL_HUNDREDTHS = 1000;
// made whole (not grown from empty: an index far past the end would turn it into a dictionary)
const smallHundredths: Array<string | undefined> = Array.from({ length: SMALL_HUNDREDTHS }, () => undefined);

function hundredthsTextOf(h: number): string {
  // above that (4 000 years), a double's shortest digits may be fewer than the two decimals
  if (h >= 2 ** 47) return `${h / 100}`;
  const r = h % 100;
  const w = (h - r) / 100;
  return r === 0 ? `${w}` : r % 10 === 0 ? `${w}.${r / 10}` : r < 10 ? `${w}.0${r}` : `${w}.${r}`;
}

/** The line as a string (see the module comment); `hundredths` is the duration in hundredths of a ms. */
export function accessLineText(
  time: number,
  id: string | undefined,
  http: string,
  url: string,
  target: AccessTarget | undefined,
  status: number,
  hundredths: number,
  bytesIn: number,
  bytesOut: number,
  errorName: string | undefined,
  code: string | undefined,
): string {
  let line = `{"level":30,"time":${time}`;
  if (id !== undefined) line += `,"reqId":${quoted(id)}`;
  line += `,"http":${quoted(http)},"url":${quoted(url)}`;
  if (target !== undefined) line += target.text;
  line += `,"status":${status},"ms":${hundredthsText(hundredths)},"bytesIn":${bytesIn},"bytesOut":${bytesOut}`;
  if (errorName !== undefined) line += `,"error":${JSON.stringify(errorName)}`;
  if (code !== undefined) line += `,"code":${JSON.stringify(code)}`;
  return `${line},"msg":"request"}\n`;
}

/** Printable ASCII (and DEL) but the quote and the backslash: a string JSON writes as it is, one byte a char. */
const NOT_PLAIN = /[^\x20\x21\x23-\x5b\x5d-\x7f]/;

/**
 * Whether `s` has no {@link NOT_PLAIN} char: a loop over a string as short as most URLs and ids, where a
 * call of the regular expression cost ~0.35k instructions (callgrind, bench/runtime-observe's access-log
 * case); the expression for a longer one.
 */
function isPlain(s: string): boolean {
  if (s.length > 64) return !NOT_PLAIN.test(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7f || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** The last time and HTTP method and the parts of the line made from them: most lines repeat them. */
let lastTime = -1;
let lastHead = '';
let lastHttp = '';
let lastHttpPart = '';
const NO_BYTES_IN = ',"bytesIn":0,"bytesOut":';

/**
 * `s` as one flat string for V8: a part cached for many lines is flattened once, so that each line's copy
 * walks one piece for it rather than the pieces it was concatenated from (a string's conversion to a
 * number flattens it in place; its NaN is not used).
 */
function flattened(s: string): string {
  void Number(s);
  return s;
}

/** `Date.now() - performance.now()` when last measured, and the `performance.now()` it was measured at. */
let clockOffset = 0;
let clockMeasured = -Infinity;

/**
 * The wall-clock time (`Date.now()`'s milliseconds) at `performance.now()` = `now`: from the two clocks'
 * difference, measured again once a second, so that a clock set back or forward shows within a second.
 * It may read up to 1 ms earlier than `Date.now()` would. `Date.now()` on every line was ~0.4k
 * instructions (a call into V8's runtime; callgrind, bench/runtime-observe's access-log-standalone case),
 * where the line's duration already took `performance.now()`.
 */
export function wallClock(now: number): number {
  // (`now` before the last measure: only a caller's own `now`, measured again too)
  if (!(now - clockMeasured < 1000 && now >= clockMeasured)) {
    clockOffset = Date.now() - now;
    clockMeasured = now;
  }
  return Math.floor(clockOffset + now);
}

/** The millions of milliseconds (~17 minutes) of the last time, as text. */
let lastMillions = -1;
let lastMillionsText = '';

/**
 * `String(time)` for a time in milliseconds (a whole number), from two small integers' texts: `Date.now()`
 * is beyond V8's small integers, and its text took the double's shortest-digits conversion, ~1.1k
 * instructions (callgrind), once per millisecond.
 */
export function timeText(time: number): string {
  const millions = Math.floor(time / 1e6);
  const rest = time - millions * 1e6;
  if (!(millions >= 1 && millions < 2 ** 31 && rest >= 0 && rest < 1e6 && Math.floor(rest) === rest))
    return `${time}`;
  if (millions !== lastMillions) {
    lastMillionsText = `${millions}`;
    lastMillions = millions;
  }
  const digits = `${rest}`;
  return lastMillionsText + (digits.length === 6 ? digits : '00000'.slice(digits.length - 1) + digits);
}

/**
 * The line of {@link accessLineText}, built from fewer, mostly cached parts (`{"level":30,"time":…,"reqId":"`
 * per millisecond, `","http":"GET","url":"` per method, `"…resource, method…,"status":200,"ms":` per target
 * and status), or undefined when a part would need JSON's escapes or is beyond ASCII (`plainId`: the caller
 * knows the id needs no test, as for the ids `processUniqueId` makes); for a line without an error (the
 * caller writes those as text). The line it gives is ASCII
 * (one byte a char). Per line, the text form's 13 concatenations and 3 regular-expression tests cost
 * ~2.4k instructions more (callgrind, bench/runtime-observe's access-log case).
 */
export function plainAccessLine(
  time: number,
  id: string | undefined,
  plainId: boolean,
  http: string,
  url: string,
  target: AccessTarget | undefined,
  status: number,
  hundredths: number,
  bytesIn: number,
  bytesOut: number,
): string | undefined {
  if (id === undefined || target === undefined || !target.ascii || !isPlain(url)) return undefined;
  if (!plainId && !isPlain(id)) return undefined;
  if (time !== lastTime) {
    lastHead = `{"level":30,"time":${timeText(time)},"reqId":"`;
    lastTime = time;
  }
  if (http !== lastHttp) {
    if (!isPlain(http)) return undefined;
    lastHttpPart = flattened(`","http":"${http}","url":"`);
    lastHttp = http;
  }
  let tail = target.tail;
  if (status !== target.status) {
    tail = target.tail = flattened(`"${target.text},"status":${status},"ms":`);
    target.status = status;
  }
  const counts = bytesIn === 0 ? NO_BYTES_IN : `,"bytesIn":${bytesIn},"bytesOut":`;
  return `${lastHead}${id}${lastHttpPart}${url}${tail}${hundredthsText(hundredths)}${counts}${bytesOut},"msg":"request"}\n`;
}
