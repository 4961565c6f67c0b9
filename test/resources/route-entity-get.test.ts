/**
 * The short route of a plain entity get (router.ts `routeEntityGet`): for every path it takes, the same
 * result as the general `route`; every other path it leaves to `route` (undefined), and a bad key fails
 * with the same error.
 */
import { DataMap } from '../../src';
import { createResourcePipeline, resolveSvcOptions } from '../../src/server/fastify-plugin';
import { type RouteResult, route, routeEntityGet } from '../../src/server/router';
import { exampleService } from '../../examples/resources';
import { seededLibrary } from '../../examples/store';

const roots = createResourcePipeline(resolveSvcOptions({ resources: exampleService(seededLibrary()) })).roots;

function general(path: string): RouteResult {
  return route(roots, {
    httpMethod: 'GET',
    path,
    requestUri: path,
    query: new DataMap(),
    methodHeader: undefined,
    methodHeaderName: 'X-Svc-Method',
  });
}

const comparable = (r: RouteResult) => ({ ...r, pathKeys: [...r.pathKeys] });

it.each(['/photos/3', '/photos/0', '/photos/99999', '/albums/1', '/photos/9223372036854775807'])(
  'routes %s as route() does',
  (path) => {
    const short = routeEntityGet(roots, path);
    expect(short).toBeDefined();
    expect(comparable(short!)).toEqual(comparable(general(path)));
  },
);

it.each([
  ['a collection', '/photos'],
  ['a trailing slash', '/photos/3/'],
  ['an empty key', '/photos/'],
  ['a subresource path', '/photos/3/comments'],
  ['an escaped root name', '/ph%6ftos/3'],
  ['an unknown root', '/nothing/3'],
  ['an association key', '/albumEntries/(albumId:1,photoId:2)'],
  ['no leading slash', 'photos/3'],
  ['a doubled slash', '//photos/3'],
])('leaves %s to route()', (_what, path) => {
  expect(routeEntityGet(roots, path)).toBeUndefined();
});

it.each(['/photos/abc', '/photos/1.5', '/photos/99999999999999999999999'])(
  'fails a bad key %s with the error route() gives',
  (path) => {
    const error = (f: () => unknown): unknown => {
      try {
        f();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const expected = error(() => general(path));
    expect(expected).toBeInstanceOf(Error);
    expect(error(() => routeEntityGet(roots, path))).toEqual(expected);
  },
);

// the router remembers the last root and finder it found by name (router.ts `lookUp`): two servers' maps
// in one process, looked up in turn with the same names, must each give their own resource, and a name
// another map knows must not be found in one that does not
describe('names remembered across resource maps', () => {
  const other = createResourcePipeline(
    resolveSvcOptions({ resources: exampleService(seededLibrary()).filter((r) => r.name === 'photos') }),
  ).roots;
  const finderRequest = (path: string) => ({
    httpMethod: 'GET',
    path,
    requestUri: `${path}?q=titleAndOrFormat`,
    query: new DataMap({ q: 'titleAndOrFormat' }),
    methodHeader: undefined,
    methodHeaderName: 'X-Svc-Method',
  });

  it.each([
    ['a plain get', (m: typeof roots) => routeEntityGet(m, '/photos/3')!.resource],
    ['the general route', (m: typeof roots) => route(m, finderRequest('/photos')).resource],
    ['a finder', (m: typeof roots) => route(m, finderRequest('/photos')).target],
  ])('%s in alternating maps gives each map its own', (_what, look) => {
    for (let i = 0; i < 3; i++) {
      expect(look(roots)).toBe(look(roots));
      const mine = look(roots);
      const theirs = look(other);
      expect(theirs).not.toBe(mine);
      expect(look(roots)).toBe(mine);
    }
  });

  it('does not find a name in a map that lacks it after another map found it', () => {
    expect(routeEntityGet(roots, '/albums/1')).toBeDefined();
    expect(routeEntityGet(other, '/albums/1')).toBeUndefined();
    expect(() => general('/albums/1')).not.toThrow();
  });
});
