/**
 * Avro translation: schemas of the whole fixture tree (test/fixtures/pegasus), and data through avsc's binary
 * encoding.
 *
 * - Schemas: translating every top-level schema of the tree to Avro JSON (and back), against parsing the same
 *   tree from memory (the natural cost scale of a schema; both happen once per schema and process).
 * - Data: a Photo record (~1 KB of Avro) and a SearchResult of 20 photos. DataMap → Avro binary is our
 *   `dataMapToGenericRecord` plus avsc's `toBuffer`, against avsc's `toBuffer` of the same generic record
 *   built beforehand (a plain object: what a caller with no translation layer would encode). The ratio is the
 *   cost of our layer. The reverse direction is avsc's `fromBuffer` plus `genericRecordToDataMap`, against
 *   `fromBuffer` alone.
 *
 * No goal: the translation is a thin per-value walk over compiled closures; the numbers say how thin.
 */
import {
  ByteString,
  DataList,
  DataTranslator,
  JsonCodec,
  SchemaResolver,
  SchemaTranslator,
  avroTypeForSchema,
  type DataMap,
  type DataSchema,
  type GenericRecord,
  type NamedDataSchema,
  type RecordDataSchema,
} from '../src';
import { memoryFileSystem, readTree, SCHEMA_TREE_ROOT } from './fixtures/schema-tree';
import { type BenchFile, keep, type Suite } from './harness';

const ROOT = SCHEMA_TREE_ROOT;

const json = new JsonCodec();

/** A Photo with most of its fields set, long ids beyond 2^53 included. */
function photo(i: number): DataMap {
  const map = json.stringToMap(
    JSON.stringify({
      time: 1732262400000 + i,
      actor: `urn:li:member:${1000 + i}`,
      id: 0,
      urn: `urn:li:photo:${i}`,
      title: `Sunrise over the bay, take ${i}`,
      format: 'JPEG',
      exif: {
        isFlash: false,
        exposureTime: 0.125,
        aperture: 2.8,
        iso: 200,
        camera: { make: 'Acme', model: 'X100', lens: { focalLengthMm: 35, maxAperture: 2 } },
        location: { latitude: 37.8125, longitude: -122.5, altitude: 12.5 },
      },
      location: { latitude: 37.8125, longitude: -122.5 },
      tags: ['sunrise', 'bay', 'ÉTÉ ☀', `t${i}`],
      attributes: { source: 'upload', device: 'phone' },
      visibility: 'FRIENDS',
      price: { amount: '12.50', currencyCode: 'EUR' },
      caption: { text: { string: 'Golden hour' }, language: { language: 'en', country: 'US' } },
    }),
  );
  map.put('id', 9007199254740993n + BigInt(i));
  map.put('checksum', ByteString.copy(Array.from({ length: 16 }, (_, k) => (k * 17 + i) & 255)));
  map.put('thumbnail', ByteString.copy(Array.from({ length: 64 }, (_, k) => (k * 31 + i) & 255)));
  return map;
}

function searchResult(count: number): DataMap {
  const map = json.stringToMap(
    '{"total":12345,"facets":{"format":{"counts":{"JPEG":12,"PNG":3}}},"query":{"keywords":["bay"],' +
      '"filters":{"formats":["JPEG","PNG"],"minWidth":640},"sort":{"com.example.photos.search.SortOrder":"RELEVANCE"},' +
      '"boosts":{"title":2.5},"page":{"start":0,"count":20}}}',
  );
  map.put('photos', new DataList(Array.from({ length: count }, (_, i) => photo(i))));
  return map;
}

function fullName(s: DataSchema): string {
  return (s as NamedDataSchema).getFullName();
}

function schemaSuite(): Suite {
  const files = readTree(ROOT);
  const fileSystem = memoryFileSystem(files);
  const parseTree = (): DataSchema[] =>
    new SchemaResolver({ resolverPath: [ROOT], fileSystem }).parseDirectory(ROOT);
  const tops = parseTree();
  // three schemas of the tree cannot be translated, by design (unions with aliases at the root; a union
  // default not of the first member): see test/schema/avro
  const translatable = tops.filter((s) => {
    try {
      SchemaTranslator.dataToAvroSchemaJson(s);
      return true;
    } catch {
      return false;
    }
  });
  const avro = translatable.map((s) => SchemaTranslator.dataToAvroSchemaJson(s));
  const toAvro = (): void => {
    for (const s of translatable) keep(SchemaTranslator.dataToAvroSchemaJson(s).length);
  };

  // a rough figure for the facts, after a warm-up (the timed task below is the measurement)
  for (const end = performance.now() + 300; performance.now() < end;) toAvro();
  const t0 = performance.now();
  let runs = 0;
  while (performance.now() - t0 < 300) {
    toAvro();
    runs++;
  }
  const perSecond = (runs * translatable.length * 1000) / (performance.now() - t0);

  return {
    title: `translate the fixture tree (${translatable.length} of ${tops.length} top-level schemas) to Avro and back`,
    short: 'schema tree to Avro',
    facts: [
      { label: 'top-level schemas translated per run', value: translatable.length },
      { label: 'not translatable by design', value: tops.length - translatable.length },
      {
        label: 'bytes of Avro JSON written per run',
        value: avro.reduce((n, t) => n + Buffer.byteLength(t), 0),
        unit: 'B',
      },
      { label: 'rough schemas per second to Avro (after warm-up)', value: perSecond, unit: 'schemas/s' },
    ],
    notes: [
      'one op = the whole tree; schemas/s = ops/s × schemas per run',
      `not translated: ${tops
        .filter((s) => !translatable.includes(s))
        .map(fullName)
        .join(', ')}`,
    ],
    anchor: {
      name: 'parse the tree (fresh SchemaResolver, from memory)',
      fn: () => keep(parseTree().length),
    },
    candidates: [
      { name: 'dataToAvroSchemaJson, every schema', fn: toAvro },
      {
        name: 'avroToDataSchema, every Avro schema (TRANSLATE)',
        fn: () => {
          for (const text of avro)
            keep(SchemaTranslator.avroToDataSchema(text, { translationMode: 'TRANSLATE' }).getType().length);
        },
      },
    ],
  };
}

function dataSuites(label: string, schema: RecordDataSchema, value: DataMap): Suite[] {
  const type = avroTypeForSchema(SchemaTranslator.dataToAvroSchemaJson(schema));
  const record: GenericRecord = DataTranslator.dataMapToGenericRecord(value, schema, type);
  const bytes = type.toBuffer(record);
  const decoded = type.fromBuffer(bytes) as GenericRecord;
  const back = DataTranslator.genericRecordToDataMap(decoded, schema, type);
  if (!back.equals(value)) throw new Error(`avro bench: ${label} does not round-trip`);
  if (!type.toBuffer(DataTranslator.dataMapToGenericRecord(value, schema, type)).equals(bytes)) {
    throw new Error(`avro bench: ${label} encodes differently twice`);
  }
  const facts = [{ label: 'Avro binary', value: bytes.length, unit: 'B' }];
  return [
    {
      title: `DataMap → Avro binary · ${label}`,
      short: `DataMap→Avro ${label}`,
      facts,
      notes: ['anchor: avsc toBuffer of the generic record built beforehand (no translation layer)'],
      anchor: { name: 'avsc toBuffer(plain record)', fn: () => keep(type.toBuffer(record).length) },
      candidates: [
        {
          name: 'dataMapToGenericRecord + toBuffer',
          fn: () => keep(type.toBuffer(DataTranslator.dataMapToGenericRecord(value, schema, type)).length),
        },
        {
          name: 'dataMapToGenericRecord alone',
          fn: () => keep(Object.keys(DataTranslator.dataMapToGenericRecord(value, schema, type)).length),
        },
      ],
    },
    {
      title: `Avro binary → DataMap · ${label}`,
      short: `Avro→DataMap ${label}`,
      facts,
      notes: ['anchor: avsc fromBuffer alone (a generic record, no DataMap)'],
      anchor: {
        name: 'avsc fromBuffer',
        fn: () => keep(Object.keys(type.fromBuffer(bytes) as object).length),
      },
      candidates: [
        {
          name: 'fromBuffer + genericRecordToDataMap',
          fn: () =>
            keep(
              DataTranslator.genericRecordToDataMap(type.fromBuffer(bytes) as GenericRecord, schema, type)
                .size,
            ),
        },
        {
          name: 'genericRecordToDataMap alone',
          fn: () => keep(DataTranslator.genericRecordToDataMap(decoded, schema, type).size),
        },
      ],
    },
  ];
}

function suites(): Suite[] {
  const resolver = new SchemaResolver({ resolverPath: [ROOT] });
  const photoSchema = resolver.resolve('com.example.photos.Photo') as RecordDataSchema;
  const resultSchema = resolver.resolve('com.example.photos.search.SearchResult') as RecordDataSchema;
  return [
    schemaSuite(),
    ...dataSuites('Photo', photoSchema, photo(1)),
    ...dataSuites('SearchResult of 20 photos', resultSchema, searchResult(20)),
  ];
}

export const benchmark: BenchFile = {
  title: 'Avro translation: the fixture tree to Avro and back; DataMap ↔ Avro binary through avsc',
  suites,
};
