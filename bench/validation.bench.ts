/**
 * Validation of a ~1 KB record: Svc's `validate(dataMap, schema)` against avsc's `Type.isValid` (the anchor)
 * and an ajv-compiled JSON Schema, all three describing the same shape and run on the same data.
 *
 * The record has what real entities have: a nested record, an array of records (with a nested array), an
 * enum, a union of two records, a map, longs (13-digit epoch millis), doubles, strings, booleans and optional
 * fields (present and absent). Each library gets the form it validates natively: a DataMap decoded by
 * JsonCodec for Svc; the plain object for avsc (optional fields absent in the DataMap are `null` there, as
 * Avro needs them; longs are numbers) and for ajv.
 *
 * Goals (issue 3): Svc ≥ 1.0× avsc and ≥ 0.5× ajv. ajv generates and evals one specialized function per
 * schema, avsc does too; Svc compiles closures (no eval), see src/schema/validation/compile-validator.ts.
 *
 * A second suite times the diagnostic path: one wrong value deep in the record, the full result with its
 * message for Svc, avsc's `isValid` with an `errorHook` that collects the paths, ajv with `allErrors`.
 * Goals (issue 23): ≥ 1.0× avsc and ≥ 0.5× ajv there too. What the failure path costs beyond the fast check:
 * for this schema none of the walk (the locating check, one generated function, runs first and finds the bad
 * value: src/schema/validation/located-failure.ts), then that value's fix, the message with its path, and the
 * result object; ajv's allErrors code collects error objects in place.
 */
import Ajv from 'ajv';
import avro from 'avsc';
import {
  compileValidator,
  JsonCodec,
  parseSchema,
  RequiredMode,
  SchemaResolver,
  validate,
  type DataMap,
  type DataSchema,
} from '../src';
import { type BenchFile, keep, type Suite } from './harness';

// ---------------------------------------------------------------------------------------------------------
// The shape, three times

const PDSC = String.raw`
{ "type": "record", "name": "Address", "namespace": "bench", "fields": [
  { "name": "street", "type": "string" },
  { "name": "city", "type": "string" },
  { "name": "zip", "type": "string" },
  { "name": "country", "type": "string" }
] }
{ "type": "record", "name": "Customer", "namespace": "bench", "fields": [
  { "name": "id", "type": "long" },
  { "name": "name", "type": "string" },
  { "name": "email", "type": "string" },
  { "name": "vip", "type": "boolean" },
  { "name": "address", "type": "Address" },
  { "name": "phone", "type": "string", "optional": true }
] }
{ "type": "record", "name": "LineItem", "namespace": "bench", "fields": [
  { "name": "sku", "type": "string" },
  { "name": "title", "type": "string" },
  { "name": "quantity", "type": "int" },
  { "name": "price", "type": "double" },
  { "name": "discount", "type": "double", "optional": true },
  { "name": "tags", "type": { "type": "array", "items": "string" } }
] }
{ "type": "record", "name": "Card", "namespace": "bench", "fields": [
  { "name": "last4", "type": "string" },
  { "name": "expiry", "type": "string" }
] }
{ "type": "record", "name": "Invoice", "namespace": "bench", "fields": [
  { "name": "reference", "type": "string" },
  { "name": "dueDays", "type": "int" }
] }
{ "type": "record", "name": "Order", "namespace": "bench", "fields": [
  { "name": "id", "type": "long" },
  { "name": "createdAt", "type": "long" },
  { "name": "updatedAt", "type": "long", "optional": true },
  { "name": "status", "type": { "type": "enum", "name": "Status", "symbols": [ "NEW", "PAID", "SHIPPED", "DELIVERED", "CANCELLED" ] } },
  { "name": "customer", "type": "Customer" },
  { "name": "items", "type": { "type": "array", "items": "LineItem" } },
  { "name": "payment", "type": [ "Card", "Invoice" ] },
  { "name": "attributes", "type": { "type": "map", "values": "string" } },
  { "name": "total", "type": "double" },
  { "name": "giftWrap", "type": "boolean" },
  { "name": "note", "type": "string", "optional": true }
] }
`;

const opt = (type: unknown): unknown => ({ type: ['null', type], default: null });

const AVRO = {
  type: 'record',
  name: 'bench.Order',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'createdAt', type: 'long' },
    { name: 'updatedAt', ...(opt('long') as object) },
    {
      name: 'status',
      type: {
        type: 'enum',
        name: 'bench.Status',
        symbols: ['NEW', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED'],
      },
    },
    {
      name: 'customer',
      type: {
        type: 'record',
        name: 'bench.Customer',
        fields: [
          { name: 'id', type: 'long' },
          { name: 'name', type: 'string' },
          { name: 'email', type: 'string' },
          { name: 'vip', type: 'boolean' },
          {
            name: 'address',
            type: {
              type: 'record',
              name: 'bench.Address',
              fields: ['street', 'city', 'zip', 'country'].map((name) => ({ name, type: 'string' })),
            },
          },
          { name: 'phone', ...(opt('string') as object) },
        ],
      },
    },
    {
      name: 'items',
      type: {
        type: 'array',
        items: {
          type: 'record',
          name: 'bench.LineItem',
          fields: [
            { name: 'sku', type: 'string' },
            { name: 'title', type: 'string' },
            { name: 'quantity', type: 'int' },
            { name: 'price', type: 'double' },
            { name: 'discount', ...(opt('double') as object) },
            { name: 'tags', type: { type: 'array', items: 'string' } },
          ],
        },
      },
    },
    {
      name: 'payment',
      type: [
        {
          type: 'record',
          name: 'bench.Card',
          fields: [
            { name: 'last4', type: 'string' },
            { name: 'expiry', type: 'string' },
          ],
        },
        {
          type: 'record',
          name: 'bench.Invoice',
          fields: [
            { name: 'reference', type: 'string' },
            { name: 'dueDays', type: 'int' },
          ],
        },
      ],
    },
    { name: 'attributes', type: { type: 'map', values: 'string' } },
    { name: 'total', type: 'double' },
    { name: 'giftWrap', type: 'boolean' },
    { name: 'note', ...(opt('string') as object) },
  ],
};

const INT32 = { type: 'integer', minimum: -2147483648, maximum: 2147483647 };
const LONG = { type: 'integer' };
const STR = { type: 'string' };
const obj = (properties: Record<string, unknown>, required: string[]): object => ({
  type: 'object',
  properties,
  required,
});
const JSON_SCHEMA = obj(
  {
    id: LONG,
    createdAt: LONG,
    updatedAt: LONG,
    status: { enum: ['NEW', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED'] },
    customer: obj(
      {
        id: LONG,
        name: STR,
        email: STR,
        vip: { type: 'boolean' },
        address: obj({ street: STR, city: STR, zip: STR, country: STR }, [
          'street',
          'city',
          'zip',
          'country',
        ]),
        phone: STR,
      },
      ['id', 'name', 'email', 'vip', 'address'],
    ),
    items: {
      type: 'array',
      items: obj(
        {
          sku: STR,
          title: STR,
          quantity: INT32,
          price: { type: 'number' },
          discount: { type: 'number' },
          tags: { type: 'array', items: STR },
        },
        ['sku', 'title', 'quantity', 'price', 'tags'],
      ),
    },
    // a union value is an object with exactly one entry, keyed by the member
    payment: {
      type: 'object',
      minProperties: 1,
      maxProperties: 1,
      properties: {
        'bench.Card': obj({ last4: STR, expiry: STR }, ['last4', 'expiry']),
        'bench.Invoice': obj({ reference: STR, dueDays: INT32 }, ['reference', 'dueDays']),
      },
      additionalProperties: false,
    },
    attributes: { type: 'object', additionalProperties: STR },
    total: { type: 'number' },
    giftWrap: { type: 'boolean' },
    note: STR,
  },
  ['id', 'createdAt', 'status', 'customer', 'items', 'payment', 'attributes', 'total', 'giftWrap'],
);

// ---------------------------------------------------------------------------------------------------------
// The data

type Plain = Record<string, unknown>;

/** The record as JSON data (optional fields absent where unset). */
function order(): Plain {
  const item = (i: number, discount: boolean): Plain => ({
    sku: `SKU-${100234 + i * 7}`,
    title: ['Espresso beans 1kg', 'Ceramic cup, blue', 'Milk frother'][i % 3],
    quantity: 1 + (i % 4),
    price: [18.9, 7.25, 42.5][i % 3],
    ...(discount ? { discount: 0.15 } : {}),
    tags: ['kitchen', i % 2 === 0 ? 'coffee' : 'gift'],
  });
  return {
    id: 7812349911,
    createdAt: 1714567890123,
    status: 'SHIPPED',
    customer: {
      id: 55012873,
      name: 'Ada Lovelace',
      email: 'ada.lovelace@example.com',
      vip: true,
      address: { street: '12 Analytical Engine Way', city: 'London', zip: 'NW1 6XE', country: 'GB' },
      phone: '+44 20 7946 0958',
    },
    items: [item(0, true), item(1, false), item(2, false), item(3, true)],
    payment: { 'bench.Card': { last4: '4242', expiry: '12/27' } },
    attributes: { channel: 'web', campaign: 'spring-sale', warehouse: 'LHR-3' },
    total: 131.55,
    giftWrap: false,
  };
}

/** The same record as avsc needs it: every optional field present, null when unset. */
function avroForm(p: Plain): Plain {
  const customer = p.customer as Plain;
  return {
    ...p,
    updatedAt: null,
    note: null,
    customer: { ...customer, phone: customer.phone ?? null },
    items: (p.items as Plain[]).map((i) => ({ ...i, discount: i.discount ?? null })),
  };
}

function check(what: string, ok: boolean): void {
  if (!ok) throw new Error(`validation bench: ${what}`);
}

function suites(): Suite[] {
  const schema: DataSchema = new SchemaResolver().parseText(PDSC).at(-1)!;
  check('parseSchema gives the same schema', parseSchema(PDSC).equals(schema));
  const codec = new JsonCodec();
  const plain = order();
  const text = JSON.stringify(plain);
  const data: DataMap = codec.stringToMap(text);
  const avroType = avro.Type.forSchema(AVRO as avro.Schema);
  const avroData = avroForm(plain);
  const ajvValidate = new Ajv().compile(JSON_SCHEMA);
  const compiled = compileValidator(schema);

  check('Svc: the record is valid', validate(data, schema).isValid());
  check('Svc: no fix is needed', !validate(data, schema).hasFix());
  check('avsc: the record is valid', avroType.isValid(avroData));
  check('ajv: the record is valid', ajvValidate(plain) === true);

  // one wrong value deep inside: items[2].quantity is a string
  const badPlain = order();
  ((badPlain.items as Plain[])[2] as Plain).quantity = 'three';
  const bad: DataMap = codec.stringToMap(JSON.stringify(badPlain));
  const badAvro = avroForm(badPlain);
  const ajvAll = new Ajv({ allErrors: true }).compile(JSON_SCHEMA);
  check('Svc: the bad record is invalid', !validate(bad, schema).isValid());
  check(
    'Svc: the message names the place',
    validate(bad, schema).getMessage() ===
      'ERROR :: /items/2/quantity :: three cannot be coerced to Integer\n',
  );
  check('avsc: the bad record is invalid', !avroType.isValid(badAvro));
  check('ajv: the bad record is invalid', ajvAll(badPlain) === false);
  const strict = { requiredMode: RequiredMode.MUST_BE_PRESENT };
  check('Svc: MUST_BE_PRESENT holds too', validate(data, schema, strict).isValid());

  const size = Buffer.byteLength(text);
  return [
    {
      title: 'validate a valid ~1 KB record',
      short: 'valid 1KB',
      facts: [{ label: 'record JSON size', value: size, unit: 'B' }],
      notes: [
        'Svc validates the DataMap JsonCodec decoded (no wrapper is created for nested nodes)',
        'avsc and ajv validate the plain object (avsc: optional fields as null)',
      ],
      anchor: { name: 'avsc Type.isValid(obj)', fn: () => keep(avroType.isValid(avroData) ? 1 : 0) },
      candidates: [
        { name: 'svc validate(dataMap, schema)', fn: () => keep(validate(data, schema).isValid() ? 1 : 0) },
        {
          name: 'svc compileValidator().validate',
          fn: () => keep(compiled.validate(data).isValid() ? 1 : 0),
        },
        { name: 'ajv compiled(obj)', fn: () => keep(ajvValidate(plain) === true ? 1 : 0) },
      ],
      comparisons: [{ task: 'svc compileValidator().validate', vs: 'ajv compiled(obj)' }],
      goals: [
        { task: 'svc validate(dataMap, schema)', min: 1.0 },
        { task: 'svc validate(dataMap, schema)', min: 0.5, vs: 'ajv compiled(obj)' },
      ],
    },
    {
      title: 'validate a ~1 KB record with one bad value, collecting the error',
      short: 'invalid 1KB',
      notes: [
        'Svc: the full result with its message (the locating check finds the bad value, its fix alone runs)',
        'avsc: isValid with an errorHook collecting the paths; ajv: allErrors',
      ],
      anchor: {
        name: 'avsc isValid(obj, {errorHook})',
        fn: () => {
          const paths: string[][] = [];
          avroType.isValid(badAvro, { errorHook: (path) => paths.push(path) });
          keep(paths.length);
        },
      },
      candidates: [
        { name: 'svc validate(bad).getMessage()', fn: () => keep(validate(bad, schema).getMessage().length) },
        {
          name: 'ajv allErrors(obj)',
          fn: () => keep(ajvAll(badPlain) === true ? 1 : (ajvAll.errors?.length ?? 0)),
        },
      ],
      // issue 23: the failure path at avsc's speed and at half of ajv's
      goals: [
        { task: 'svc validate(bad).getMessage()', min: 1.0 },
        { task: 'svc validate(bad).getMessage()', min: 0.5, vs: 'ajv allErrors(obj)' },
      ],
    },
  ];
}

export const benchmark: BenchFile = {
  title: 'Validation: Svc validate() vs avsc Type.isValid and ajv, same ~1 KB record',
  suites,
};
