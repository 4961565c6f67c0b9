/**
 * svcServerOptions' query parser (src/server/query-string.ts) answers what fastify's own answers
 * (find-my-way's default: fast-querystring's `parse`, `{}` for no query): the same keys in the same order,
 * the same values, the same prototype. The oracle is fast-querystring itself, for a table of queries sent
 * again and again (the parser learns key lists the second time it sees them), for random queries, where
 * code cannot be compiled from strings, and over HTTP through fastify.
 */
import fastify from 'fastify';
import fc from 'fast-check';
import { parse } from 'fast-querystring';
import { svcServerOptions } from '../../src';
import { svcQuerystringParser } from '../../src/server/query-string';
import { freshModules, withoutCodeFromStrings } from '../support/no-code-from-strings';

/** fastify's parser when none is given (find-my-way's default). */
const fastifys = (q: string): Record<string, unknown> => (q.length === 0 ? {} : parse(q));

function expectSame(actual: Record<string, unknown>, q: string, parser = fastifys): void {
  const expected = parser(q);
  expect(Object.entries(actual)).toEqual(Object.entries(expected));
  expect(Object.getPrototypeOf(actual)).toBe(Object.getPrototypeOf(expected));
}

const QUERIES: ReadonlyArray<readonly [string, (round: number) => string]> = [
  ['a finder', (r) => `q=titleAndOrFormat&format=PNG&count=${r}`],
  ['a batch_get', (r) => `ids=List(${r},2,3)`],
  ['the same keys in another order', (r) => `format=PNG&q=titleAndOrFormat&count=${r}`],
  ['a value to decode now and then', (r) => `q=search&title=${r % 2 === 0 ? 'a%20b' : 'ab'}`],
  ['a + now and then', (r) => `q=search&title=${r % 2 === 0 ? 'a+b' : 'ab'}`],
  ['an invalid escape', (r) => `q=search&title=%E0%A4%A${r}`],
  ['a key twice', (r) => `ids=${r}&ids=2`],
  ['a key with no value', (r) => `flag&count=${r}`],
  ['an empty value', (r) => `title=&count=${r}`],
  ['an empty key', (r) => `=${r}&count=1`],
  ['a value with =', (r) => `expr=a=${r}&count=1`],
  ['empty segments', (r) => `a=${r}&&b=2&`],
  ['keys of Object.prototype', (r) => `__proto__=${r}&constructor=x&toString=y`],
  ['keys that are regular-expression syntax', (r) => `a.b=${r}&c*d=1&(e)=2&[f]=3&g|h=4&i\\j=5`],
  ['an encoded key', (r) => `a%20b=${r}&c=1`],
  ['non-ASCII', (r) => `t=été${r}&ü=1`],
  ['the finder again, extended', (r) => `q=titleAndOrFormat&format=PNG&count=${r}&start=0`],
  ['the finder again, cut short', () => 'q=titleAndOrFormat&format=PNG'],
  ['no query', () => ''],
];

describe('svcQuerystringParser', () => {
  it.each(QUERIES)('answers fastify’s object for %s, sent again and again', (_name, query) => {
    for (let round = 0; round < 5; round++) {
      const q = query(round);
      expectSame(svcQuerystringParser(q), q);
    }
  });

  it('answers a new object each time (a handler may change its query)', () => {
    const q = 'q=titleAndOrFormat&format=PNG&count=3';
    const a = svcQuerystringParser(q);
    const b = svcQuerystringParser(q);
    expect(a).not.toBe(b);
    a.count = 'changed';
    expect(svcQuerystringParser(q).count).toBe('3');
  });

  it('answers fastify’s object for random queries, each sent three times', () => {
    const part = fc.stringMatching(/^[a-z0-9%+=&._()*\- ]{0,6}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(part, part), { maxLength: 5 }), (pairs) => {
        const q = pairs.map(([k, v]) => `${k}=${v}`).join('&');
        for (let i = 0; i < 3; i++) expectSame(svcQuerystringParser(q), q);
      }),
      { numRuns: 300 },
    );
  });
});

describe('svcQuerystringParser where code cannot be compiled from strings (a CSP)', () => {
  it('parses every query fast-querystring’s way', () => {
    // fresh copies: no key lists learnt yet; the fresh fast-querystring's objects have a prototype of their own
    const [{ svcQuerystringParser: fresh }, { parse: freshParse }] = freshModules<
      [{ svcQuerystringParser: typeof svcQuerystringParser }, { parse: typeof parse }]
    >(require.resolve('../../src/server/query-string'), require.resolve('fast-querystring'));
    withoutCodeFromStrings(() => {
      for (let round = 0; round < 4; round++) {
        const q = `q=search&count=${round}`;
        expectSame(fresh(q), q, freshParse);
      }
    });
  });
});

describe('fastify on svcServerOptions', () => {
  it('gives routes the query fastify’s own parser gives, over HTTP', async () => {
    const app = fastify(svcServerOptions());
    app.get('/echo', (request, reply) => {
      const query = request.query as Record<string, unknown>;
      return reply.send({
        entries: Object.entries(query),
        plain: Object.getPrototypeOf(query) === Object.prototype,
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as { port: number };
      for (const q of [
        '',
        'q=search&count=1',
        'q=search&count=2',
        'q=search&count=3',
        'a=1&a=2',
        'x=%41+b',
      ]) {
        const res = await fetch(`http://127.0.0.1:${port}/echo${q === '' ? '' : `?${q}`}`);
        const expected = fastifys(q);
        expect(await res.json()).toEqual({
          entries: Object.entries(expected),
          plain: Object.getPrototypeOf(expected) === Object.prototype,
        });
      }
    } finally {
      await app.close();
    }
  });
});
