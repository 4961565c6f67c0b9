import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { ReplayInputError, ReplayMismatchError } from '../../replay/errors';
import { parseRecording, type RecordedRequest } from '../../replay/recording';
import { DEFAULT_REPLAY_TIMEOUT_MS, formatReplayReport, replay, replayReportJson } from '../../replay/replay';
import { writeOutput } from '../io';

interface ReplayCommandOptions {
  old: string;
  new: string;
  json: boolean;
  timeout: number;
  ignoreHeader: string[];
  ignoreField: string[];
  header: string[];
}

const HELP = `
Recordings:
  HAR 1.2 files (exported by browsers and proxies), or request logs: one JSON object per line,
  {"method":"GET","path":"/photos/1","headers":{...},"body":{...}} (or "bodyText", "bodyBase64");
  blank lines and lines starting with # are skipped. Several files are replayed in the order given.

Compared (src/replay/README.md):
  status; protocol headers (X-RestLi-*, X-Svc-*, Content-Type, Location without the instance's origin);
  JSON and PSON bodies as data (key order ignored; stackTrace and exceptionClass of error responses
  ignored), others byte
  for byte. Not compared: every other header (Date, Content-Length, Server, request ids...).

Exit codes:
  0  every exchange matches
  1  some exchanges differ (each is printed)
  2  usage error, or a recording that is missing or unreadable`;

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function url(value: string): string {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
    return value;
  } catch {
    throw new InvalidArgumentError('an http:// or https:// base URL.');
  }
}

function readRecording(file: string): RecordedRequest[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ReplayInputError(file, (err as Error).message, undefined, { cause: err });
  }
  return parseRecording(text, file);
}

/**
 * `svc replay <recording...> --old <url> --new <url>`: replays recorded traffic against the old service and
 * the new one and prints the exchanges a client could tell apart; exits 1 when there are any.
 */
export function replayCommand(): Command {
  return new Command('replay')
    .description(
      'replay recorded requests (HAR files or request logs) against an old and a new service and print ' +
        'the exchanges whose status, protocol headers or bodies differ; the exit code says whether all match',
    )
    .argument('<recording...>', '.har files or request logs (.jsonl)')
    .requiredOption('--old <url>', 'base URL of the old service', url)
    .requiredOption('--new <url>', 'base URL of the new service', url)
    .option('--json', 'print the report as JSON', false)
    .option(
      '--timeout <ms>',
      `milliseconds each request may take (default ${DEFAULT_REPLAY_TIMEOUT_MS})`,
      (v: string): number => {
        const n = Number(v);
        if (!Number.isInteger(n) || n <= 0)
          throw new InvalidArgumentError('a positive number of milliseconds.');
        return n;
      },
      DEFAULT_REPLAY_TIMEOUT_MS,
    )
    .option('--ignore-header <name>', 'a protocol header not to compare (repeatable)', collect, [])
    .option(
      '--ignore-field <path>',
      'a body path not to compare, /elements/*/takenAt (repeatable; * is any one component)',
      collect,
      [],
    )
    .option(
      '-H, --header <name:value>',
      'a header to set on every replayed request (repeatable)',
      collect,
      [],
    )
    .addHelpText('after', HELP)
    .action(async (files: string[], opts: ReplayCommandOptions) => {
      const requests = files.flatMap(readRecording);
      const headers: Record<string, string> = {};
      for (const h of opts.header) {
        const colon = h.indexOf(':');
        if (colon <= 0) throw new InvalidArgumentError(`--header '${h}' is not name:value`);
        headers[h.slice(0, colon).trim()] = h.slice(colon + 1).trim();
      }
      const report = await replay(requests, {
        oldUrl: opts.old,
        newUrl: opts.new,
        timeoutMs: opts.timeout,
        ignoreHeaders: opts.ignoreHeader,
        ignoreFields: opts.ignoreField,
        headers,
      });
      await writeOutput(opts.json ? replayReportJson(report) : formatReplayReport(report));
      if (report.differing.length > 0)
        throw new ReplayMismatchError(report.differing.length, report.exchanges.length);
    });
}
