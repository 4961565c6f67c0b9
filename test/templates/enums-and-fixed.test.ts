/** Generated enums (with $UNKNOWN) and fixed classes. */
import {
  ByteString,
  ClassCastException,
  Data,
  DataMap,
  GetMode,
  IllegalArgumentException,
  TemplateOutputCastException,
  UNKNOWN_SYMBOL,
  enumCoercer,
  enumSchema,
  enumSymbols,
} from '../../src';
import { Color } from '../generated/binding/com/example/binding/Color';
import { ColorArray } from '../generated/binding/com/example/binding/ColorArray';
import { ColorMap } from '../generated/binding/com/example/binding/ColorMap';
import { Hash4 } from '../generated/binding/com/example/binding/Hash4';
import { Keyword } from '../generated/binding/com/example/binding/Keyword';
import { Palette } from '../generated/binding/com/example/binding/Palette';

describe('a generated enum', () => {
  it('is a string enum of the symbols plus $UNKNOWN', () => {
    expect(Object.values(Color)).toEqual(['RED', 'GREEN', 'BLUE', 'MAUVE', '$UNKNOWN']);
    expect(Color.RED).toBe('RED');
    expect(Color.$UNKNOWN).toBe(UNKNOWN_SYMBOL);
    expect(enumSymbols(Color)).toEqual(['RED', 'GREEN', 'BLUE', 'MAUVE']);
  });

  it('keeps its schema beside it', () => {
    expect(enumSchema(Color).getFullName()).toBe('com.example.binding.Color');
    expect(enumSchema(Color).getSymbols()).toEqual(enumSymbols(Color));
    expect(() => enumSchema({ A: 'A' })).toThrow(IllegalArgumentException);
  });

  it('is stored as its symbol string', () => {
    const p = new Palette().setMain(Color.BLUE);
    expect(p.data().get('main')).toBe('BLUE');
    expect(p.getMain()).toBe(Color.BLUE);
  });

  it('gives $UNKNOWN for a stored symbol the binding does not know', () => {
    const p = new Palette(new DataMap({ main: 'ULTRAVIOLET' }));
    expect(p.getMain()).toBe(Color.$UNKNOWN);
    expect(p.data().get('main')).toBe('ULTRAVIOLET'); // the data is kept as it is
    expect(new ColorArray(Data.fromJS(['RED', 'TEAL']) as never).toArray()).toEqual([
      Color.RED,
      Color.$UNKNOWN,
    ]);
  });

  it('refuses $UNKNOWN and strings that are not symbols as input', () => {
    const p = new Palette();
    expect(() => p.setMain(Color.$UNKNOWN)).toThrow(ClassCastException);
    expect(() => p.setMain(Color.$UNKNOWN)).toThrow('$UNKNOWN cannot be stored as Color');
    expect(() => p.setMain('TEAL' as Color)).toThrow('Input string "TEAL" is not a symbol of Color');
    expect(p.data().has('main')).toBe(false);
  });

  it('refuses stored data that is not a string', () => {
    expect(() => new Palette(new DataMap({ main: 1 })).getMain()).toThrow(TemplateOutputCastException);
  });

  it('uses its default', () => {
    expect(new Palette().getMain()).toBe(Color.RED);
    expect(new Palette().getMain(GetMode.NULL)).toBeUndefined();
  });

  it('lives in direct arrays and maps', () => {
    const colors = new ColorArray([Color.RED, Color.GREEN]);
    expect(colors.data().toArray()).toEqual(['RED', 'GREEN']);
    const byName = new ColorMap({ sky: Color.BLUE });
    expect(byName.get('sky')).toBe(Color.BLUE);
    expect(() => colors.push('PINK' as Color)).toThrow(ClassCastException);
  });

  it('may have symbols that are reserved words', () => {
    expect(Keyword.delete).toBe('delete');
    expect(Keyword.in).toBe('in');
  });
});

describe("an enum's coercer", () => {
  // enums of a few symbols are searched by compares, larger ones through a Map (coercers.ts)
  const enumOf = (n: number): Record<string, string> =>
    Object.fromEntries([...Array.from({ length: n }, (_, i) => `S${i}`), UNKNOWN_SYMBOL].map((s) => [s, s]));
  it.each([
    ['one symbol', 1],
    ['eight symbols (compared)', 8],
    ['nine symbols (hashed)', 9],
    ['forty symbols (hashed)', 40],
  ])('of %s reads each symbol, as a new string too, and $UNKNOWN for any other', (_, n) => {
    const values = enumOf(n);
    const coercer = enumCoercer(() => values, 'E');
    // symbols read in an order that changes symbol on every read, then twice the same
    const reads = [...Object.keys(values).filter((s) => s !== UNKNOWN_SYMBOL), `S${n - 1}`, `S${n - 1}`];
    for (const s of reads) {
      const fresh = [...s].join('');
      expect(coercer.fromData(fresh)).toBe(s);
      expect(coercer.toData(fresh)).toBe(s);
      expect(coercer.asIs?.(fresh)).toBe(true);
    }
    for (const other of [`S${n}`, 's0', '', UNKNOWN_SYMBOL, 'S0 ']) {
      expect(coercer.fromData(other)).toBe(UNKNOWN_SYMBOL);
      expect(coercer.asIs?.(other)).toBe(false);
      expect(() => coercer.toData(other)).toThrow(ClassCastException);
    }
    expect(coercer.asIs?.(0)).toBe(false);
  });
});

describe('a generated fixed class', () => {
  const four = ByteString.copy([1, 2, 3, 4]);

  it('holds bytes of exactly its size', () => {
    const h = new Hash4(four);
    expect(h.bytes()).toBe(four);
    expect(h.data()).toBe(four);
    expect(h.schema().getSize()).toBe(4);
    expect(h.toString()).toBe(four.toString());
  });

  it('is built from a ByteString or an Avro string', () => {
    expect(new Hash4('\u0001\u0002\u0003\u0004').equals(new Hash4(four))).toBe(true);
  });

  it('refuses another size with TemplateOutputCastException', () => {
    expect(() => new Hash4(ByteString.copy([1, 2, 3]))).toThrow(
      'Hash4 has size 4, but the ByteString has length 3',
    );
    expect(() => new Hash4('\u2603\u2603\u2603\u2603')).toThrow(TemplateOutputCastException);
  });

  it('is immutable', () => {
    const h = new Hash4(four);
    expect(h.clone()).toBe(h);
    expect(
      Object.isFrozen(four) || typeof (h as unknown as { setBytes?: unknown }).setBytes === 'undefined',
    ).toBe(true);
  });

  it('is stored as its ByteString and read back from a string or bytes', () => {
    const p = new Palette().setHash(new Hash4(four));
    expect(p.data().get('hash')).toBe(four);
    expect(p.getHash()!.bytes().equals(four)).toBe(true);
    const fromJson = new Palette(new DataMap({ hash: '\u0001\u0002\u0003\u0004' }));
    expect(fromJson.getHash()!.bytes().equals(four)).toBe(true);
    expect(() => new Palette(new DataMap({ hash: 'ab' })).getHash()).toThrow(TemplateOutputCastException);
    expect(() => p.setHash(four as unknown as Hash4)).toThrow(ClassCastException);
  });
});
