/**
 * `svc replay` with recorded traffic of the example: requests sent to one instance are recorded as a HAR
 * file (as a proxy would export them) and as a request log, then replayed against two fresh instances
 * (every exchange matches, exit 0) and against a fresh instance and a changed one (a photo renamed, and
 * development mode, whose error responses carry stack traces: only the rename is reported, exit 1).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { main } from '../../src/cli/main';
import { compareAnswers, parseRecording, replay, ReplayInputError } from '../../src';
import { createExampleApp } from '../../examples/app';
import { ImageStore } from '../../examples/images';
import { seededLibrary } from '../../examples/store';
import { tempDirs } from '../support/temp-dirs';

const tmp = tempDirs('svc-replay-');

/** The traffic: reads, a create, a patch, a batch get, an error, in both header families. */
const TRAFFIC: ReadonlyArray<{
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}> = [
  { method: 'GET', path: '/photos/1', headers: { 'X-RestLi-Protocol-Version': '2.0.0' } },
  { method: 'GET', path: '/photos/2' },
  { method: 'GET', path: '/photos?ids=List(1,2)', headers: { 'X-RestLi-Protocol-Version': '2.0.0' } },
  {
    method: 'POST',
    path: '/photos',
    headers: { 'X-RestLi-Protocol-Version': '2.0.0', 'Content-Type': 'application/json' },
    body: { title: 'Replayed', format: 'PNG' },
  },
  {
    method: 'POST',
    path: '/photos/1',
    headers: { 'X-Svc-Protocol-Version': '2.0.0', 'Content-Type': 'application/json' },
    body: { patch: { $set: { title: 'Patched' } } },
  },
  { method: 'GET', path: '/photos/999', headers: { 'X-RestLi-Protocol-Version': '2.0.0' } },
  { method: 'GET', path: '/photos?q=titleAndOrFormat&format=PNG' },
];

async function exampleApp(changed = false): Promise<{ app: FastifyInstance; url: string }> {
  const dataDir = tmp();
  const library = seededLibrary(new ImageStore(path.join(dataDir, 'images')));
  if (changed) library.replacePhoto(2, library.getPhoto(2)!.copy().setTitle('Renamed'));
  const app = await createExampleApp({
    dataDir,
    library,
    observe: false,
    ...(changed ? { svc: { mode: 'development' as const } } : {}),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { app, url: `http://127.0.0.1:${address.port}` };
}

let apps: Array<{ app: FastifyInstance; url: string }> = [];
let har = '';
let log = '';

beforeAll(async () => {
  // the recorder, two alike fresh instances, and a fresh one beside a changed one
  apps = await Promise.all([exampleApp(), exampleApp(), exampleApp(), exampleApp(), exampleApp(true)]);
  const recorder = apps[0]!.url;
  const entries = [];
  for (const t of TRAFFIC) {
    const body = t.body === undefined ? undefined : JSON.stringify(t.body);
    const r = await fetch(recorder + t.path, { method: t.method, headers: t.headers ?? {}, body });
    const text = await r.text();
    entries.push({
      startedDateTime: new Date(0).toISOString(),
      time: 1,
      request: {
        method: t.method,
        url: `https://photos.example.com${t.path}`,
        httpVersion: 'HTTP/1.1',
        headers: [
          { name: 'Host', value: 'photos.example.com' },
          ...Object.entries(t.headers ?? {}).map(([name, value]) => ({ name, value })),
        ],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: body?.length ?? 0,
        ...(body === undefined ? {} : { postData: { mimeType: 'application/json', text: body } }),
      },
      response: {
        status: r.status,
        statusText: r.statusText,
        httpVersion: 'HTTP/1.1',
        headers: [...r.headers].map(([name, value]) => ({ name, value })),
        cookies: [],
        content: { size: text.length, mimeType: r.headers.get('content-type') ?? '', text },
        redirectURL: '',
        headersSize: -1,
        bodySize: text.length,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    });
  }
  har = JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } });
  log = ['# the same traffic as a request log', ...TRAFFIC.map((t) => JSON.stringify(t))].join('\n');
});

afterAll(async () => {
  await Promise.all(apps.map((a) => a.app.close()));
});

describe('svc replay', () => {
  it('reads HAR files and request logs alike', () => {
    const fromHar = parseRecording(har, 'traffic.har');
    const fromLog = parseRecording(log, 'traffic.jsonl');
    const shape = (r: (typeof fromHar)[number]) => ({
      method: r.method,
      path: r.path,
      body: r.body === undefined ? undefined : JSON.parse(Buffer.from(r.body).toString()),
    });
    expect(fromHar.map(shape)).toEqual(fromLog.map(shape));
    expect(fromHar.map((r) => r.path)).toEqual(TRAFFIC.map((t) => t.path));
  });

  it('finds every exchange alike between two instances of one service, and exits 0', async () => {
    const file = path.join(tmp(), 'traffic.har');
    fs.writeFileSync(file, har);
    const out = jest.spyOn(process.stdout, 'write').mockImplementation((_chunk, cb?: unknown) => {
      if (typeof cb === 'function') (cb as () => void)();
      return true;
    });
    let code: number;
    let printed: string;
    try {
      code = await main(['node', 'svc', 'replay', file, '--old', apps[1]!.url, '--new', apps[2]!.url]);
      printed = out.mock.calls.map((c) => String(c[0])).join('');
    } finally {
      out.mockRestore();
    }
    expect({ code, printed }).toEqual({
      code: 0,
      printed: `${TRAFFIC.length} exchanges replayed: all match\n`,
    });
  });

  it('prints the exchanges a changed service answers differently, and only those', async () => {
    const report = await replay(parseRecording(log, 'traffic.jsonl'), {
      oldUrl: apps[3]!.url,
      newUrl: apps[4]!.url,
    });
    // photo 2 was renamed; the 404's stack trace and exception class (development mode) are no difference
    expect(report.differing.map((e) => ({ path: e.request.path, differences: e.differences }))).toEqual([
      {
        path: '/photos/2',
        differences: [{ what: 'body /title', old: '"Harbour lights"', new: '"Renamed"' }],
      },
      {
        path: '/photos?ids=List(1,2)',
        differences: [{ what: 'body /results/2/title', old: '"Harbour lights"', new: '"Renamed"' }],
      },
      {
        path: '/photos?q=titleAndOrFormat&format=PNG',
        differences: [{ what: 'body /elements/0/title', old: '"Harbour lights"', new: '"Renamed"' }],
      },
    ]);
    expect(report.exchanges).toHaveLength(TRAFFIC.length);
  });

  it('exits 1 for differences and 2 for a recording it cannot read', async () => {
    const dir = tmp();
    const bad = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(bad, '{"method":"GET"}\n');
    const file = path.join(dir, 'traffic.jsonl');
    fs.writeFileSync(file, log);
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const out = jest.spyOn(process.stdout, 'write').mockImplementation((_chunk, cb?: unknown) => {
      if (typeof cb === 'function') (cb as () => void)();
      return true;
    });
    try {
      // the changed instance against one the traffic has already changed too: the renamed photo differs
      expect(await main(['node', 'svc', 'replay', file, '--old', apps[3]!.url, '--new', apps[4]!.url])).toBe(
        1,
      );
      expect(await main(['node', 'svc', 'replay', bad, '--old', apps[3]!.url, '--new', apps[4]!.url])).toBe(
        2,
      );
      expect(String(err.mock.calls.at(-1)?.[0])).toContain('SVC_ERR_REPLAY_INPUT');
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    expect(() => parseRecording('{"method":"GET"}', 'x.jsonl')).toThrow(ReplayInputError);
  });
});

describe('comparing two answers', () => {
  const json = (v: unknown) => new Uint8Array(Buffer.from(JSON.stringify(v)));
  const answer = (headers: Record<string, string>, body: unknown, status = 200) => ({
    status,
    headers: new Map(Object.entries(headers)),
    body: json(body),
  });

  it.each([
    ['key order', answer({}, { a: 1, b: 2 }), answer({}, { b: 2, a: 1 }), []],
    [
      'headers other than the protocol ones',
      answer({ date: 'Mon', 'x-request-id': '1' }, {}),
      answer({ date: 'Tue', 'x-request-id': '2' }, {}),
      [],
    ],
    [
      'the stack trace of an error response',
      answer({ 'x-restli-error-response': 'true' }, { status: 404 }, 404),
      answer({ 'x-restli-error-response': 'true' }, { status: 404, stackTrace: 'at x' }, 404),
      [],
    ],
  ] as const)('ignores %s', (_name, o, n, expected) => {
    expect(compareAnswers(o, n)).toEqual(expected);
  });

  it.each([
    [
      'a header family',
      answer({ 'x-restli-id': '1' }, {}),
      answer({ 'x-svc-id': '1' }, {}),
      [
        { what: 'header x-restli-id', old: '1', new: undefined },
        { what: 'header x-svc-id', old: undefined, new: '1' },
      ],
    ],
    ['a status', answer({}, {}, 200), answer({}, {}, 201), [{ what: 'status', old: '200', new: '201' }]],
  ] as const)('reports %s', (_name, o, n, expected) => {
    expect(compareAnswers(o, n)).toEqual(expected);
  });

  it('compares longs exactly', () => {
    const raw = (text: string) => ({
      status: 200,
      headers: new Map([['content-type', 'application/json']]),
      body: new Uint8Array(Buffer.from(text)),
    });
    expect(compareAnswers(raw('{"id":9007199254740993}'), raw('{"id":9007199254740992}'))).toEqual([
      { what: 'body /id', old: '9007199254740993', new: '9007199254740992' },
    ]);
  });
});
