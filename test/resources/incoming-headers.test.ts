/**
 * SvcIncomingMessage's `headers` (src/server/incoming-headers.ts) is Node's `headers`, key for key, in the
 * same order, value for value: checked against Node's own getter on the same raw headers (the oracle is
 * Node, not our code), for a table of cases, for random header lists, with `joinDuplicateHeaders`, with
 * Node's count of kept headers, and over real HTTP, where createSvcServer's and svcServerOptions' servers
 * make their requests of this class.
 */
import http, { IncomingMessage, type IncomingHttpHeaders } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import fc from 'fast-check';
import { createSvcServer, svcServerOptions } from '../../src';
import { SvcIncomingMessage, knowHeaderNames } from '../../src/server/incoming-headers';
import { freshModules, withoutCodeFromStrings } from '../support/no-code-from-strings';

const nodeGetter = Object.getOwnPropertyDescriptor(IncomingMessage.prototype, 'headers')!.get!;

function symbolNamed(target: object, description: string): symbol {
  const found = Object.getOwnPropertySymbols(target).find((s) => s.description === description);
  if (found === undefined) throw new Error(`no ${description} on IncomingMessage`);
  return found;
}

/** A message of class `C` holding `raw` as Node's parser leaves it (the first `count` entries kept). */
function message(
  C: typeof IncomingMessage,
  raw: readonly string[],
  options: { count?: number; joinDuplicateHeaders?: boolean } = {},
): IncomingMessage {
  const m = new C(null as never) as IncomingMessage & Record<symbol, unknown>;
  m.rawHeaders = [...raw];
  m[symbolNamed(m, 'kHeadersCount')] = options.count ?? raw.length;
  if (options.joinDuplicateHeaders !== undefined)
    (m as { joinDuplicateHeaders?: boolean }).joinDuplicateHeaders = options.joinDuplicateHeaders;
  return m;
}

/** Node's headers of `raw` (its own getter, on a message of Node's own class). */
function nodeHeaders(
  raw: readonly string[],
  options: Parameters<typeof message>[2] = {},
): IncomingHttpHeaders {
  return nodeGetter.call(message(IncomingMessage, raw, options)) as IncomingHttpHeaders;
}

function ours(raw: readonly string[], options: Parameters<typeof message>[2] = {}): IncomingHttpHeaders {
  return message(SvcIncomingMessage, raw, options).headers;
}

/** Keys in order and values, so that a different order fails too. */
const entries = (h: IncomingHttpHeaders): unknown[] => Object.entries(h);

const CASES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['no headers', []],
  ['lower-case names Node knows', ['host', 'a', 'content-type', 'application/json', 'accept', '*/*']],
  ['capitalised names', ['Host', 'a', 'Content-Type', 'text/plain', 'User-Agent', 'curl', 'ETag', '"x"']],
  ['names in capitals', ['HOST', 'a', 'CONTENT-TYPE', 'text/plain', 'X-RESTLI-PROTOCOL-VERSION', '2.0.0']],
  ['a first-kept name twice', ['Content-Type', 'a', 'content-type', 'b', 'host', 'h1', 'Host', 'h2']],
  ['a joined name twice', ['accept', 'a', 'Accept', 'b', 'x-restli-method', 'get', 'X-RestLi-Method', 'x']],
  ['cookies', ['Cookie', 'a=1', 'cookie', 'b=2', 'COOKIE', 'c=3']],
  ['set-cookie', ['Set-Cookie', 'a=1', 'set-cookie', 'b=2']],
  ['names nobody knows', ['X-Custom', 'a', 'x-custom', 'b', 'X-Other-Thing', 'c', 'weird_name!', 'd']],
  [
    'names of Object.prototype',
    ['constructor', 'a', 'toString', 'b', '__proto__', 'c', 'hasOwnProperty', 'd'],
  ],
  ['an integer-like name', ['2', 'a', 'host', 'h', '1', 'b']],
  ['empty values', ['accept', '', 'Accept', '', 'host', '']],
  [
    'protocol headers',
    ['X-RestLi-Protocol-Version', '2.0.0', 'X-Svc-Protocol-Version', '2.0.0', 'traceparent', 't'],
  ],
];

describe('SvcIncomingMessage headers', () => {
  it('is a class of its own on this Node (else the rest of the file checks Node against itself)', () => {
    expect(SvcIncomingMessage).not.toBe(IncomingMessage);
    expect(new SvcIncomingMessage(null as never)).toBeInstanceOf(IncomingMessage);
  });

  it.each(CASES)('equals Node’s for %s', (_name, raw) => {
    expect(entries(ours(raw))).toEqual(entries(nodeHeaders(raw)));
    expect(entries(ours(raw, { joinDuplicateHeaders: true }))).toEqual(
      entries(nodeHeaders(raw, { joinDuplicateHeaders: true })),
    );
  });

  it('keeps the count of headers Node kept (maxHeadersCount)', () => {
    const raw = ['host', 'a', 'accept', 'b', 'x-one', 'c'];
    expect(entries(ours(raw, { count: 4 }))).toEqual(entries(nodeHeaders(raw, { count: 4 })));
    expect(Object.keys(ours(raw, { count: 4 }))).toEqual(['host', 'accept']);
  });

  it('is built once, and replaced by an assignment as Node’s is', () => {
    const m = message(SvcIncomingMessage, ['host', 'a']);
    const first = m.headers;
    expect(m.headers).toBe(first);
    const replaced = { host: 'b' };
    m.headers = replaced;
    expect(m.headers).toBe(replaced);
  });

  it('equals Node’s for names a server added to its table', () => {
    knowHeaderNames(['X-Test-Prefix-Protocol-Version', 'X-Test-Prefix-Method']);
    const raw = [
      'X-Test-Prefix-Protocol-Version',
      '1',
      'x-test-prefix-protocol-version',
      '2',
      'X-TEST-PREFIX-METHOD',
      'm',
    ];
    expect(entries(ours(raw))).toEqual(entries(nodeHeaders(raw)));
  });

  // a list of names seen twice is built by one object literal from then on (its shape)
  const SHAPED: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['table names', ['host', 'connection', 'x-restli-protocol-version']],
    ['capitalised table names', ['Host', 'Accept', 'Content-Type', 'Content-Length', 'User-Agent']],
    ['set-cookie among them', ['Set-Cookie', 'Host', 'Cookie']],
    ['a name twice (never shaped)', ['host', 'accept', 'Accept']],
    ['a name nobody knows (never shaped)', ['host', 'x-unknown-thing']],
    ['a single name', ['traceparent']],
  ];
  it.each(SHAPED)('equals Node’s for %s, sent again and again with new values', (_name, names) => {
    for (let round = 0; round < 4; round++) {
      const raw = names.flatMap((n, i) => [n, `v${round}.${i}`]);
      for (const join of [false, true]) {
        expect(entries(ours(raw, { joinDuplicateHeaders: join }))).toEqual(
          entries(nodeHeaders(raw, { joinDuplicateHeaders: join })),
        );
      }
      // fewer headers kept than sent (maxHeadersCount): not the shape of the whole list
      expect(entries(ours(raw, { count: raw.length - 2 }))).toEqual(
        entries(nodeHeaders(raw, { count: raw.length - 2 })),
      );
    }
  });

  it('equals Node’s for two clients’ lists of names taking turns', () => {
    const lists = [
      ['Host', 'Accept-Language', 'Cookie'],
      ['host', 'x-request-id', 'traceparent', 'content-length'],
    ];
    for (let round = 0; round < 6; round++) {
      const raw = lists[round % 2]!.flatMap((n, i) => [n, `${round}.${i}`]);
      expect(entries(ours(raw))).toEqual(entries(nodeHeaders(raw)));
    }
  });

  it('equals Node’s for more lists of names than it keeps shapes of', () => {
    const pool = ['host', 'accept', 'connection', 'user-agent', 'authorization', 'x-request-id', 'origin'];
    for (let list = 0; list < 20; list++) {
      const names = pool.filter((_, i) => ((list + 1) >> i) % 2 === 1);
      for (let round = 0; round < 3; round++) {
        const raw = names.flatMap((n) => [n, `${list}-${round}`]);
        expect(entries(ours(raw))).toEqual(entries(nodeHeaders(raw)));
      }
    }
  });

  it('equals Node’s for random header lists', () => {
    const known = [
      'host',
      'Host',
      'content-type',
      'Content-Type',
      'cookie',
      'Set-Cookie',
      'accept',
      'ACCEPT',
      'x-restli-protocol-version',
      'X-RestLi-Method',
      'etag',
      'ETag',
      'authorization',
      'Authorization',
    ];
    const name = fc.oneof(fc.constantFrom(...known), fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/));
    const value = fc.stringMatching(/^[\x20-\x7e]{0,12}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 12 }), fc.boolean(), (pairs, join) => {
        const raw = pairs.flat();
        expect(entries(ours(raw, { joinDuplicateHeaders: join }))).toEqual(
          entries(nodeHeaders(raw, { joinDuplicateHeaders: join })),
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('servers whose requests are SvcIncomingMessage', () => {
  /** Sends `head` (request line and headers) on a raw socket; the server answers with what it saw. */
  function send(port: number, head: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(`${head}\r\n`));
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (text += d));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
  }

  it('a server on svcServerOptions().http sees Node’s headers over HTTP, duplicates and capitals included', async () => {
    const options = svcServerOptions().http as http.ServerOptions;
    expect(options.IncomingMessage).toBe(SvcIncomingMessage);
    const server = http.createServer(options, (req, res) => {
      const node = nodeGetter.call(message(IncomingMessage, req.rawHeaders)) as IncomingHttpHeaders;
      res.setHeader('connection', 'close');
      res.end(
        JSON.stringify({
          ours: entries(req.headers),
          node: entries(node),
          svc: req instanceof SvcIncomingMessage,
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const answer = await send(
        port,
        'GET /x HTTP/1.1\r\nHost: a\r\nHOST: b\r\nAccept: x\r\naccept: y\r\nCookie: a=1\r\ncookie: b=2\r\n' +
          'X-RestLi-Protocol-Version: 2.0.0\r\nX-Custom: 1\r\nx-custom: 2\r\nConnection: close\r\n',
      );
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as {
        ours: unknown[];
        node: unknown[];
        svc: boolean;
      };
      expect(body.svc).toBe(true);
      expect(body.ours).toEqual(body.node);
      expect(body.ours).toContainEqual(['cookie', 'a=1; b=2']);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('createSvcServer makes its requests of the class', async () => {
    const server = createSvcServer({ resources: [] });
    let seen: unknown;
    server.prependListener('request', (req: IncomingMessage) => (seen = req));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      await send(
        (server.address() as AddressInfo).port,
        'GET /nothing HTTP/1.1\r\nHost: a\r\nConnection: close\r\n',
      );
      expect(seen).toBeInstanceOf(SvcIncomingMessage);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('SvcIncomingMessage where code cannot be compiled from strings (a CSP)', () => {
  it('builds each list of names the long way, equal to Node’s', () => {
    // a fresh copy of the module, whose lists have no shapes yet (this file's tests gave the other one some)
    const [{ SvcIncomingMessage: Fresh }] = freshModules<[{ SvcIncomingMessage: typeof IncomingMessage }]>(
      require.resolve('../../src/server/incoming-headers'),
    );
    withoutCodeFromStrings(() => {
      for (let round = 0; round < 4; round++) {
        const raw = ['Host', `h${round}`, 'accept', `a${round}`, 'x-restli-protocol-version', '2.0.0'];
        expect(entries(message(Fresh, raw).headers)).toEqual(entries(nodeHeaders(raw)));
      }
    });
  });
});
