/**
 * Templates and the nesting limit (src/data/limits.ts). Templates never recurse themselves: wrapping is lazy
 * (one level per getter call), and copy, equals and toString are the data layer's iterative walks. So they
 * work at any depth; the walks that follow the schema (validation, filling in defaults) apply the limit to the
 * data a template wraps.
 */
import { DataMap, fillInDefaults, isSvcError, MAX_NESTING_DEPTH, validate } from '../../src';
import { Node } from '../generated/binding/com/example/binding/Node';
import { NodeMap } from '../generated/binding/com/example/binding/NodeMap';

const MAX = MAX_NESTING_DEPTH;

/** Node data nested `depth` levels deep: Node, byKey map, Node, ...; the innermost container is a map. */
function nodes(depth: number): DataMap {
  const d = depth % 2 === 0 ? depth : depth + 1;
  let v = new DataMap();
  for (let level = 2; level <= d; level++)
    v =
      level % 2 === 0
        ? new DataMap([
            ['name', `n${level}`],
            ['byKey', v],
          ])
        : new DataMap([['k', v]]);
  return v;
}

/** How many Nodes the getters reach going down `byKey`/`k`. */
function walk(node: Node): number {
  let count = 0;
  for (let n: Node | undefined = node; n !== undefined; n = n.getByKey()?.get('k')) count++;
  return count;
}

describe('a record template over deep data', () => {
  it.each([MAX, MAX + 2, 100_000])(
    'wraps, walks, copies, compares and prints data nested %i levels deep',
    (depth) => {
      const node = new Node(nodes(depth));
      const levels = depth % 2 === 0 ? depth : depth + 1;
      expect(walk(node)).toBe(levels / 2);
      const copy = node.copy();
      expect(copy.data()).not.toBe(node.data());
      expect(copy.equals(node)).toBe(true);
      expect(node.toString().length).toBeGreaterThan(levels);
    },
  );

  it('builds deep data through setters, one level per call', () => {
    let node = new Node().setName('leaf');
    for (let i = 0; i < 50_000; i++) node = new Node().setName(`n${i}`).setByKey(new NodeMap([['k', node]]));
    expect(walk(node)).toBe(50_001);
  });

  it('validates its data at exactly MAX_NESTING_DEPTH levels, and reports one level more', () => {
    const ok = new Node(nodes(MAX));
    expect(validate(ok.data(), ok.schema()).isValid()).toBe(true);
    for (const depth of [MAX + 2, 100_000]) {
      const deep = new Node(nodes(depth));
      expect(validate(deep.data(), deep.schema()).getMessage()).toContain(
        `nested deeper than the maximum depth of ${MAX} (MAX_NESTING_DEPTH)`,
      );
    }
  });

  it('fills in defaults at exactly MAX_NESTING_DEPTH levels, and refuses one level more', () => {
    const ok = new Node(nodes(MAX));
    const filled = new Node(fillInDefaults(ok.schema(), ok.data()));
    expect(filled.getChildren().length).toBe(0);
    let err: unknown;
    try {
      fillInDefaults(ok.schema(), nodes(MAX + 2));
    } catch (e) {
      err = e;
    }
    expect(isSvcError(err, 'NestingDepthError', 'SVC_ERR_SCHEMA_DATA_TOO_DEEP')).toBe(true);
  });
});
