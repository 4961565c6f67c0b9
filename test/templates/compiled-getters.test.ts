/**
 * A field's compiled getter (record-template.ts, `compileGetter`) gives what the general path
 * (`FieldDef.read`) gives, value or error, for every kind of stored value, with and without instrumentation,
 * on maps built through the API and decoded ones (whose nested stores have no wrapper yet).
 */
import {
  Coercers,
  Data,
  DataMap,
  GetMode,
  JsonCodec,
  fieldDef,
  type Coercer,
  type DataValue,
  type RecordDataSchema,
  type RecordLike,
} from '../../src';
import { DATA } from '../../src/templates/internal';
import { Exif } from '../generated/fixtures/com/example/photos/Exif';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';

const COERCERS: ReadonlyArray<readonly [string, Coercer<unknown>]> = [
  ['int', Coercers.INT],
  ['long', Coercers.LONG],
  ['float', Coercers.FLOAT],
  ['double', Coercers.DOUBLE],
  ['boolean', Coercers.BOOLEAN],
  ['string', Coercers.STRING],
  ['bytes', Coercers.BYTES],
  ['enum', Coercers.enumOf(() => PhotoFormat, 'PhotoFormat')],
  ['record', Coercers.record(() => Exif)],
];

/** Stored values of every kind, as JSON text for the decoded case. */
const VALUES: readonly string[] = [
  '1',
  '-0',
  '1.5',
  '2147483648',
  '9007199254740993',
  '1e300',
  '"NaN"',
  '"Infinity"',
  '"JPEG"',
  '"NOT_A_SYMBOL"',
  '"abc"',
  '""',
  'true',
  'null',
  '{"iso":200}',
  '{}',
  '[1,2]',
];

const schema = (): RecordDataSchema => new Photo().schema();

/** A record over `map` as field descriptors see it. */
function record(map: DataMap): RecordLike {
  return { [DATA]: map, schema };
}

function outcome(fn: () => unknown): unknown {
  try {
    const v = fn();
    if (v instanceof Exif) return { exif: v.data() };
    return { value: v };
  } catch (err) {
    return { error: (err as Error).name, message: (err as Error).message };
  }
}

describe('compiled getters', () => {
  const json = new JsonCodec();
  const cases: Array<[string, string, string]> = [];
  for (const [label] of COERCERS)
    for (const text of VALUES) for (const how of ['decoded', 'built']) cases.push([label, text, how]);

  it.each(cases)('give what the general path gives: %s field holding %s (%s)', (label, text, how) => {
    const coercer = COERCERS.find(([l]) => l === label)![1];
    // `title` is a field of Photo, so schema lookups (absent fields) work; its coercer is the one under test
    const def = fieldDef('title', coercer);
    const make = (): DataMap =>
      how === 'decoded'
        ? json.stringToMap(`{"title":${text}}`)
        : (Data.fromJS({
            title: Data.toJS(json.stringToMap(`{"v":${text}}`).get('v') as DataValue),
          } as never) as DataMap);
    for (const instrument of [false, true]) {
      const viaRead = make();
      const viaGet = make();
      if (instrument) {
        viaRead.startInstrumentingAccess();
        viaGet.startInstrumentingAccess();
      }
      for (let round = 0; round < 3; round++) {
        // the first call compiles; later ones take the compiled getter
        expect(outcome(() => def.get(record(viaGet), GetMode.STRICT))).toEqual(
          outcome(() => def.read(record(viaRead), GetMode.STRICT)),
        );
      }
      if (instrument) {
        expect([...viaGet.collectInstrumentedData().entries()]).toEqual([
          ...viaRead.collectInstrumentedData().entries(),
        ]);
      }
    }
  });

  it.each([GetMode.NULL, GetMode.DEFAULT, GetMode.STRICT])(
    'leave absent fields to the general path (%s)',
    (mode) => {
      for (const name of ['title', 'visibility', 'tags', 'exif']) {
        const def = fieldDef(name, Coercers.STRING as Coercer<unknown>);
        def.get(record(new DataMap({ [name]: 'x' })));
        expect(outcome(() => def.get(record(new DataMap()), mode))).toEqual(
          outcome(() => def.read(record(new DataMap()), mode)),
        );
      }
    },
  );

  it('wrap a nested record once its wrapper exists, and read through the general path before', () => {
    const photo = new Photo(json.stringToMap('{"exif":{"iso":100}}'));
    const first = photo.getExif()!;
    const second = photo.getExif()!;
    expect(first).not.toBe(second);
    expect(first.data()).toBe(second.data());
    expect(second.getIso()).toBe(100);
    first.setIso(300);
    expect(photo.getExif()!.getIso()).toBe(300);
  });
});
