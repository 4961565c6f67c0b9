import { LineIndex, nodeAt, pointerSegment, scanJson, type JsonNode } from '../../src/schema/json-locations';

describe('the schema JSON scanner', () => {
  it('reads several values one after the other', () => {
    const { values, error } = scanJson('{ "a": 1 } [ 2 ] "s" 3 true null');
    expect(error).toBeUndefined();
    expect(values.map((v) => v.kind)).toEqual(['object', 'array', 'string', 'number', 'boolean', 'null']);
  });

  it('skips line and block comments', () => {
    const { values, error } = scanJson('/* a */ { // b\n "x": /* c */ 1 } // end');
    expect(error).toBeUndefined();
    expect(values).toHaveLength(1);
  });

  it('keeps integers beyond 2^53 exact as bigint, and reads larger ones as doubles', () => {
    const [a, b, c, d] = scanJson('9007199254740993 -9223372036854775808 9223372036854775808 1.5e3')
      .values as Extract<JsonNode, { kind: 'number' }>[];
    expect(a!.value).toBe(9007199254740993n);
    expect(b!.value).toBe(-9223372036854775808n);
    expect(c!.value).toBe(9223372036854775808);
    expect(d).toMatchObject({ value: 1500, integral: false });
  });

  it('keeps every entry of an object, duplicates included, with key offsets', () => {
    const [obj] = scanJson('{"a":1,"a":2}').values;
    expect(obj?.kind === 'object' && obj.entries.map((e) => [e.key, e.keyOffset])).toEqual([
      ['a', 1],
      ['a', 7],
    ]);
    expect(obj?.kind === 'object' && (obj.map.get('a')!.value as { value: number }).value).toBe(2);
  });

  it('decodes escapes and skips a byte order mark', () => {
    const [s] = scanJson('\ufeff"a\\u00e9\\n"').values;
    expect(s).toEqual({ kind: 'string', offset: 1, value: 'aé\n' });
  });

  it.each([
    ['{ "a" 1 }', 'Expected \':\' but found character "1"', 6],
    ['[1 2]', "Expected ',' or ']' but found character \"2\"", 3],
    ['{ "a": 01 }', 'Invalid number: leading zero', 7],
    ['"abc', 'Unterminated string', 0],
    ['/* open', 'Unterminated comment', 0],
    ['{ a: 1 }', 'Expected a string key but found character "a"', 2],
    ['tru', 'Unexpected character "t"', 0],
    ['1e999', 'Number 1e999 is outside the double range', 0],
    ['"a\tb"', 'Unescaped control character U+0009 in string', 2],
  ])('reports %j as a syntax error', (text, message, offset) => {
    expect(scanJson(text).error).toEqual({ message, offset });
  });

  it('refuses nesting deep enough to overflow the stack', () => {
    expect(scanJson('['.repeat(10000)).error?.message).toMatch(/^Nesting deeper than/);
  });

  it('maps offsets to 1-based lines and columns', () => {
    const lines = new LineIndex('ab\ncd\n\nef');
    expect([0, 1, 3, 5, 6, 7, 8].map((o) => lines.position(o))).toEqual([
      { line: 1, column: 1 },
      { line: 1, column: 2 },
      { line: 2, column: 1 },
      { line: 2, column: 3 },
      { line: 3, column: 1 },
      { line: 4, column: 1 },
      { line: 4, column: 2 },
    ]);
  });

  it('finds the node at a path, or the deepest one that exists', () => {
    const [root] = scanJson('{ "a": [ 10, { "b": 20 } ] }').values;
    expect(nodeAt(root!, ['a', 1, 'b'])).toMatchObject({ kind: 'number', value: 20 });
    expect(nodeAt(root!, ['a', 5])).toMatchObject({ kind: 'array' });
  });

  it('escapes JSON pointer segments', () => {
    expect(pointerSegment('a/b~c')).toBe('a~1b~0c');
    expect(pointerSegment(3)).toBe('3');
  });
});
