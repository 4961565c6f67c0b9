import { type Answer, type CompareOptions, type Difference, compareAnswers } from './compare';
import type { RecordedRequest } from './recording';

/** Options of {@link replay}; every default is listed here. */
export interface ReplayOptions extends Pick<CompareOptions, 'ignoreHeaders' | 'ignoreFields'> {
  /** Base URL of the old service (`http://127.0.0.1:8080`, or with a path prefix: `.../api`). */
  readonly oldUrl: string;
  /** Base URL of the new service. */
  readonly newUrl: string;
  /** Milliseconds each request may take before it counts as failed. Default 30000. */
  readonly timeoutMs?: number;
  /** Headers set on every replayed request (an auth token for the test instances). Default none. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One replayed request and how its two answers compare. */
export interface ReplayedExchange {
  /** 1-based, in recording order. */
  readonly index: number;
  readonly request: RecordedRequest;
  readonly oldStatus: number | undefined;
  readonly newStatus: number | undefined;
  /** Empty when the client could not tell the two answers apart. */
  readonly differences: readonly Difference[];
}

/** What a replay found. */
export interface ReplayReport {
  readonly exchanges: readonly ReplayedExchange[];
  /** The exchanges that differ. */
  readonly differing: readonly ReplayedExchange[];
}

/** The default time `svc replay` allows each replayed request, in milliseconds. */
export const DEFAULT_REPLAY_TIMEOUT_MS = 30_000;

/**
 * Headers not replayed: hop-by-hop ones, what the HTTP client sets itself (`Host`, `Content-Length`), HTTP/2
 * pseudo-headers a browser's HAR lists, and `Accept-Encoding` (the answers are compared decoded).
 */
const NOT_REPLAYED: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'accept-encoding',
  'expect',
]);

function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

async function send(base: string, request: RecordedRequest, options: ReplayOptions): Promise<Answer | Error> {
  const headers = new Headers();
  for (const [name, value] of request.headers) {
    if (name.startsWith(':') || NOT_REPLAYED.has(name.toLowerCase())) continue;
    headers.append(name, value);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  try {
    const r = await fetch(joinUrl(base, request.path), {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_REPLAY_TIMEOUT_MS),
    });
    const body = new Uint8Array(await r.arrayBuffer());
    const answerHeaders = new Map<string, string>();
    r.headers.forEach((v, k) => answerHeaders.set(k.toLowerCase(), v));
    return { status: r.status, headers: answerHeaders, body };
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

function failure(err: Error): string {
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error ? `${err.message}: ${cause.message}` : err.message;
}

/**
 * Replays `requests` in order, each to the old service and then to the new one (in order, since a recorded
 * create is usually followed by reads of what it created), and compares the answers (compare.ts).
 *
 * @example
 * ```ts
 * const report = await replay(parseRecording(text, 'traffic.har'), {
 *   oldUrl: 'http://java-photos:8080',
 *   newUrl: 'http://127.0.0.1:8080',
 * });
 * if (report.differing.length > 0) process.exitCode = 1;
 * ```
 */
export async function replay(
  requests: readonly RecordedRequest[],
  options: ReplayOptions,
): Promise<ReplayReport> {
  const exchanges: ReplayedExchange[] = [];
  const oldOrigin = new URL(options.oldUrl).origin;
  const newOrigin = new URL(options.newUrl).origin;
  for (let i = 0; i < requests.length; i++) {
    const request = requests[i]!;
    const o = await send(options.oldUrl, request, options);
    const n = await send(options.newUrl, request, options);
    let differences: Difference[];
    if (o instanceof Error || n instanceof Error) {
      differences = [
        {
          what: 'exchange',
          old: o instanceof Error ? `failed: ${failure(o)}` : `status ${o.status}`,
          new: n instanceof Error ? `failed: ${failure(n)}` : `status ${n.status}`,
        },
      ];
    } else {
      differences = compareAnswers(o, n, {
        oldOrigin,
        newOrigin,
        ...(options.ignoreHeaders === undefined ? {} : { ignoreHeaders: options.ignoreHeaders }),
        ...(options.ignoreFields === undefined ? {} : { ignoreFields: options.ignoreFields }),
      });
    }
    exchanges.push({
      index: i + 1,
      request,
      oldStatus: o instanceof Error ? undefined : o.status,
      newStatus: n instanceof Error ? undefined : n.status,
      differences,
    });
  }
  return { exchanges, differing: exchanges.filter((e) => e.differences.length > 0) };
}

/** The report as text: each differing exchange with its differences, then a summary line. */
export function formatReplayReport(report: ReplayReport): string {
  let s = '';
  for (const e of report.differing) {
    s += `#${e.index} ${e.request.method} ${e.request.path} (${e.request.source})\n`;
    for (const d of e.differences) s += `  ${d.what}: ${d.old ?? '(absent)'} -> ${d.new ?? '(absent)'}\n`;
  }
  const total = report.exchanges.length;
  s +=
    report.differing.length === 0
      ? `${total} exchange${total === 1 ? '' : 's'} replayed: all match\n`
      : `${total} exchange${total === 1 ? '' : 's'} replayed: ${report.differing.length} differ\n`;
  return s;
}

/** The report as JSON text (one object; `differing` lists what {@link formatReplayReport} prints). */
export function replayReportJson(report: ReplayReport): string {
  return `${JSON.stringify(
    {
      total: report.exchanges.length,
      matching: report.exchanges.length - report.differing.length,
      differing: report.differing.map((e) => ({
        index: e.index,
        method: e.request.method,
        path: e.request.path,
        source: e.request.source,
        oldStatus: e.oldStatus ?? null,
        newStatus: e.newStatus ?? null,
        differences: e.differences.map((d) => ({ what: d.what, old: d.old ?? null, new: d.new ?? null })),
      })),
    },
    null,
    2,
  )}\n`;
}
