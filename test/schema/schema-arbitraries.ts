/**
 * fast-check arbitraries for valid schema texts, for property tests of the parser and the encoder.
 *
 * fast-check draws the shape (which types, how nested, which fields are optional or defaulted); a
 * deterministic pass then turns the shape into a valid schema: it names the named types (unique simple
 * names, so that no reference is ambiguous), points references at named types defined before, drops union
 * members that would break the union rules, and draws defaults that fit their types from a seeded PRNG.
 */
import fc from 'fast-check';

type Shape =
  | { readonly k: 'prim'; readonly name: string }
  | { readonly k: 'ref'; readonly target: number }
  | { readonly k: 'array'; readonly items: Shape; readonly props: boolean }
  | { readonly k: 'map'; readonly values: Shape; readonly props: boolean }
  | {
      readonly k: 'union';
      readonly members: readonly Shape[];
      readonly aliased: boolean;
      readonly withNull: boolean;
    }
  | {
      readonly k: 'record';
      readonly error: boolean;
      readonly ns: number;
      readonly doc: boolean;
      readonly fields: readonly FieldShape[];
      readonly include: number;
      readonly props: boolean;
    }
  | { readonly k: 'enum'; readonly ns: number; readonly symbols: number; readonly docs: boolean }
  | { readonly k: 'fixed'; readonly ns: number; readonly size: number }
  | { readonly k: 'typeref'; readonly ns: number; readonly ref: Shape; readonly pkg: boolean };

interface FieldShape {
  readonly type: Shape;
  readonly optional: boolean;
  readonly withDefault: boolean;
  readonly doc: boolean;
  readonly deprecated: boolean;
}

const NAMESPACES = ['', 'a', 'a.b', 'c.d'];
const PRIMS = ['int', 'long', 'float', 'double', 'boolean', 'string', 'bytes', 'null'];

const shapes = fc.letrec<{ type: Shape; field: FieldShape; record: Shape }>((tie) => ({
  type: fc.oneof(
    { maxDepth: 4, depthSize: 'small' },
    fc.constantFrom(...PRIMS).map((name): Shape => ({ k: 'prim', name })),
    fc.nat(20).map((target): Shape => ({ k: 'ref', target })),
    fc.record({ k: fc.constant('array' as const), items: tie('type'), props: fc.boolean() }),
    fc.record({ k: fc.constant('map' as const), values: tie('type'), props: fc.boolean() }),
    fc.record({
      k: fc.constant('union' as const),
      members: fc.array(tie('type'), { maxLength: 4 }),
      aliased: fc.boolean(),
      withNull: fc.boolean(),
    }),
    tie('record'),
    fc.record({
      k: fc.constant('enum' as const),
      ns: fc.integer({ min: -1, max: 3 }),
      symbols: fc.nat(4),
      docs: fc.boolean(),
    }),
    fc.record({ k: fc.constant('fixed' as const), ns: fc.integer({ min: -1, max: 3 }), size: fc.nat(6) }),
    fc.record({
      k: fc.constant('typeref' as const),
      ns: fc.integer({ min: -1, max: 3 }),
      ref: tie('type'),
      pkg: fc.boolean(),
    }),
  ),
  field: fc.record({
    type: tie('type'),
    optional: fc.boolean(),
    withDefault: fc.boolean(),
    doc: fc.boolean(),
    deprecated: fc.boolean(),
  }),
  record: fc.record({
    k: fc.constant('record' as const),
    error: fc.boolean(),
    ns: fc.integer({ min: -1, max: 3 }),
    doc: fc.boolean(),
    fields: fc.array(tie('field'), { maxLength: 4 }),
    include: fc.integer({ min: -1, max: 20 }),
    props: fc.boolean(),
  }),
}));

/** A JSON value with bigints, written as text later. */
type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

/** What the builder knows about a type it has written. */
type Info =
  | { readonly k: 'prim'; readonly name: string }
  | { readonly k: 'array'; readonly items: Info }
  | { readonly k: 'map'; readonly values: Info }
  | { readonly k: 'union'; readonly members: readonly { key: string; type: Info }[] }
  | { readonly k: 'enum'; readonly full: string; readonly symbols: readonly string[] }
  | { readonly k: 'fixed'; readonly full: string; readonly size: number }
  | { readonly k: 'typeref'; readonly full: string; ref: Info }
  | {
      readonly k: 'record';
      readonly full: string;
      readonly fields: { name: string; type: Info; required: boolean }[];
      complete: boolean;
    };

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Builder {
  private count = 0;
  private readonly named: Info[] = [];
  private readonly rnd: () => number;

  constructor(seed: number) {
    this.rnd = mulberry32(seed);
  }

  private int(n: number): number {
    return Math.floor(this.rnd() * n);
  }

  private name(
    ns: number,
    scope: string,
  ): { json: { name: string; namespace?: string }; full: string; namespace: string } {
    const simple = `N${this.count++}`;
    const namespace = ns < 0 ? scope : NAMESPACES[ns]!;
    const json = ns < 0 ? { name: simple } : { name: simple, namespace };
    return { json, full: namespace === '' ? simple : `${namespace}.${simple}`, namespace };
  }

  /** The JSON and info of a type in `scope` (the enclosing namespace). */
  type(shape: Shape, scope: string): { json: Json; info: Info } {
    switch (shape.k) {
      case 'prim':
        return { json: shape.name, info: { k: 'prim', name: shape.name } };
      case 'ref': {
        if (this.named.length === 0) return { json: 'string', info: { k: 'prim', name: 'string' } };
        const target = this.named[shape.target % this.named.length]! as Extract<Info, { full: string }>;
        return { json: target.full, info: target };
      }
      case 'array': {
        const items = this.type(shape.items, scope);
        return {
          json: { type: 'array', items: items.json, ...(shape.props ? { 'x-items': { n: 1 } } : {}) },
          info: { k: 'array', items: items.info },
        };
      }
      case 'map': {
        const values = this.type(shape.values, scope);
        return {
          json: { type: 'map', values: values.json, ...(shape.props ? { 'x-values': [true] } : {}) },
          info: { k: 'map', values: values.info },
        };
      }
      case 'union': {
        const members: { key: string; type: Info }[] = [];
        const json: Json[] = [];
        if (shape.withNull) {
          members.push({ key: 'null', type: { k: 'prim', name: 'null' } });
          json.push('null');
        }
        const keys = new Set(members.map((m) => m.key));
        const avroNames = new Set<string>();
        for (const m of shape.members) {
          const defined = this.named.length;
          const t = this.type(m, scope);
          const d = deref(t.info);
          const key = shape.aliased ? `m${members.length}` : memberKey(d);
          const avro = 'full' in d ? d.full.slice(d.full.lastIndexOf('.') + 1) : key;
          if (
            d.k === 'union' ||
            (d.k === 'prim' && d.name === 'null') ||
            keys.has(key) ||
            (!shape.aliased && avroNames.has(avro))
          ) {
            this.named.length = defined; // the member is dropped, and with it the types it defined
            continue;
          }
          keys.add(key);
          avroNames.add(avro);
          members.push({ key, type: t.info });
          json.push(
            shape.aliased
              ? { alias: key, type: t.json, ...(this.int(2) === 0 ? { doc: `member ${key}` } : {}) }
              : t.json,
          );
        }
        return { json, info: { k: 'union', members } };
      }
      case 'enum': {
        const n = this.name(shape.ns, scope);
        const symbols = Array.from({ length: shape.symbols }, (_, i) => `S${i}`);
        const info: Info = { k: 'enum', full: n.full, symbols };
        this.named.push(info);
        const docs: { [key: string]: Json } =
          shape.docs && symbols.length > 0
            ? {
                symbolDocs: { [symbols[0]!]: 'first' },
                deprecatedSymbols: { [symbols[symbols.length - 1]!]: 'last' },
              }
            : {};
        return { json: { type: 'enum', ...n.json, symbols, ...docs }, info };
      }
      case 'fixed': {
        const n = this.name(shape.ns, scope);
        const info: Info = { k: 'fixed', full: n.full, size: shape.size };
        this.named.push(info);
        return { json: { type: 'fixed', ...n.json, size: shape.size }, info };
      }
      case 'typeref': {
        const n = this.name(shape.ns, scope);
        // The typeref is bound only after its ref is written, so it cannot refer to itself.
        const ref = this.type(shape.ref, n.namespace);
        const info: Info = { k: 'typeref', full: n.full, ref: ref.info };
        this.named.push(info);
        return {
          json: { type: 'typeref', ...n.json, ...(shape.pkg ? { package: 'org.bound' } : {}), ref: ref.json },
          info,
        };
      }
      case 'record': {
        const n = this.name(shape.ns, scope);
        const info: Extract<Info, { k: 'record' }> = {
          k: 'record',
          full: n.full,
          fields: [],
          complete: false,
        };
        const include: Json[] = [];
        const records = this.named.filter(
          (x): x is Extract<Info, { k: 'record' }> => x.k === 'record' && x.complete && x.fields.length > 0,
        );
        if (shape.include >= 0 && records.length > 0) {
          const base = records[shape.include % records.length]!;
          include.push(base.full);
          info.fields.push(...base.fields);
        }
        this.named.push(info); // bound before its fields: a field may refer to the record itself
        const fields: Json[] = [];
        shape.fields.forEach((f, i) => {
          const name = `f${i}`;
          if (info.fields.some((x) => x.name === name)) return;
          const t = this.type(f.type, n.namespace);
          const field: { [key: string]: Json } = { name, type: t.json };
          if (f.doc) field.doc = `doc of ${name}`;
          if (f.withDefault) {
            const value = this.value(t.info, 0);
            if (value !== undefined) field.default = value;
          }
          if (f.optional) field.optional = true;
          if (f.deprecated) field.deprecated = this.int(2) === 0 ? true : 'use something else';
          fields.push(field);
          info.fields.push({ name, type: t.info, required: !f.optional && field.default === undefined });
        });
        info.complete = true; // only complete records are included (an include cycle is an error)
        return {
          json: {
            type: shape.error ? 'error' : 'record',
            ...n.json,
            ...(shape.doc ? { doc: 'a <b>record</b> "quoted" \\ \u00e9' } : {}),
            ...(include.length > 0 ? { include } : {}),
            fields,
            ...(shape.props ? { validate: { strlen: { max: 3 } }, 'x-flag': false } : {}),
          },
          info,
        };
      }
    }
  }

  /** A value valid for `info`, or undefined when none can be made (a record that requires itself). */
  private value(info: Info, depth: number): Json | undefined {
    if (depth > 4) return undefined;
    const d = deref(info);
    switch (d.k) {
      case 'prim':
        switch (d.name) {
          case 'int':
            return this.int(2 ** 32) - 2 ** 31;
          case 'long':
            return this.int(2) === 0
              ? this.int(1000) - 500
              : BigInt(this.int(2 ** 31)) * 4294967296n + 12345n;
          case 'float':
            return Math.fround(this.rnd() * 1000 - 500);
          case 'double':
            return this.rnd() * 1e6;
          case 'boolean':
            return this.int(2) === 0;
          case 'string':
            return ['', 'x', 'caf\u00e9', '\u2603 "q"', 'a\nb'][this.int(5)]!;
          case 'bytes':
            return String.fromCharCode(...Array.from({ length: this.int(4) }, () => this.int(256)));
          default:
            return null;
        }
      case 'enum':
        return d.symbols.length === 0 ? undefined : d.symbols[this.int(d.symbols.length)]!;
      case 'fixed':
        return String.fromCharCode(...Array.from({ length: d.size }, () => this.int(256)));
      case 'array': {
        const out: Json[] = [];
        for (let i = this.int(3); i > 0; i--) {
          const v = this.value(d.items, depth + 1);
          if (v === undefined) return [];
          out.push(v);
        }
        return out;
      }
      case 'map': {
        const out: { [key: string]: Json } = {};
        for (let i = this.int(3); i > 0; i--) {
          const v = this.value(d.values, depth + 1);
          if (v === undefined) return {};
          out[`k${i}`] = v;
        }
        return out;
      }
      case 'record': {
        if (!d.complete) return undefined; // its later fields are not known yet
        const out: { [key: string]: Json } = {};
        for (const f of d.fields) {
          if (!f.required && this.int(2) === 0) continue;
          const v = this.value(f.type, depth + 1);
          if (v === undefined) {
            if (f.required) return undefined;
            continue;
          }
          out[f.name] = v;
        }
        return out;
      }
      case 'union': {
        if (d.members.length === 0) return undefined;
        const m = d.members[this.int(d.members.length)]!;
        if (m.key === 'null') return null;
        const v = this.value(m.type, depth + 1);
        return v === undefined ? undefined : { [m.key]: v };
      }
      default:
        return undefined;
    }
  }
}

function deref(info: Info): Exclude<Info, { k: 'typeref' }> {
  let d = info;
  while (d.k === 'typeref') d = d.ref;
  return d;
}

function memberKey(d: Exclude<Info, { k: 'typeref' }>): string {
  switch (d.k) {
    case 'prim':
      return d.name;
    case 'array':
    case 'map':
    case 'union':
      return d.k;
    default:
      return d.full;
  }
}

/** JSON text of a value with bigints. */
export function jsonText(value: Json): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The text of a valid schema: a record (or error) at the top. */
export const schemaText: fc.Arbitrary<string> = fc
  .tuple(shapes.record, fc.integer())
  .map(([shape, seed]) => jsonText(new Builder(seed).type(shape, '').json));
