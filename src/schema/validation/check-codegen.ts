/**
 * Generates the fast path of a root schema as JavaScript source, one function per record schema with every
 * other type checked inline, and compiles it with `new Function` (what avsc and ajv do).
 *
 * Why: the closure tree of compile-validator.ts walks a ~1 KB record in ~0.9 µs, about 4× avsc's `isValid`
 * and 8× an ajv-compiled JSON Schema (bench/validation.bench.ts); almost all of it is the indirect calls from
 * one closure to the next and the generic loops. Generated code lets V8 inline the primitive checks and
 * specialise each loop to its element type.
 *
 * The generated function means exactly what the closures' `check` means (valid and nothing to fix, over raw
 * store values; compile-validator.ts holds the rules), and test/schema/validation checks that the two agree
 * on random data. Only constants the generator controls reach the source: field names, member keys and enum
 * symbols enter as `JSON.stringify`d string literals, numbers as numbers. Where code generation from strings
 * is disabled (`--disallow-code-generation-from-strings`, a CSP), {@link generateCheck} returns undefined and
 * validation keeps the closures.
 *
 * Depth: a record function takes the depth of its record (`d`); a container inline in it at `k` levels below
 * is at `d + k`, so its test is `d > MAX_NESTING_DEPTH - k`, one comparison with a constant. A schema whose
 * containers nest more than {@link MAX_INLINE} levels without a record in between (a `.pdsc` may nest 1000)
 * continues in a function of its own there: V8 compiles nested loops recursively, and 1000 of them in one
 * function run it out of stack.
 */
import { KIND } from '../../data/internal';
import { ByteString, MAX_NESTING_DEPTH } from '../../data';
import type { ArrayDataSchema } from '../array-schema';
import type { DataSchema } from '../data-schema';
import { DataSchemaType } from '../data-schema-type';
import type { EnumDataSchema } from '../enum-schema';
import type { FixedDataSchema } from '../fixed-schema';
import type { MapDataSchema } from '../map-schema';
import type { RecordDataSchema, RecordField } from '../record-schema';
import type { UnionDataSchema } from '../union-schema';
import { CoercionMode } from './coercion-mode';
import { FLOAT_LIMIT, isLongValue } from './coerce';
import { RequiredMode } from './required-mode';
import { UnrecognizedFieldMode } from './unrecognized-field-mode';
import type { ResolvedValidationOptions } from './validation-options';

/** The KIND brand of ByteString (see src/data/internal.ts). */
const KIND_BYTES = 3;
/** Enums with more symbols than this are checked with a Set rather than a switch. */
const MAX_SWITCH_SYMBOLS = 16;
/** Containers nested inline in one generated function, at most (see the module comment). */
const MAX_INLINE = 32;

const lit = (s: string): string => JSON.stringify(s);
/** What a failed check does in the check functions: the value is not valid as it is. */
const RETURN_FALSE = 'return false;';

class Generator {
  readonly #options: ResolvedValidationOptions;
  readonly #functions: string[] = [];
  readonly #recordNames = new Map<RecordDataSchema, string>();
  readonly #deepNames = new Map<DataSchema, string>();
  readonly #sets: Set<string>[] = [];
  #temp = 0;

  constructor(options: ResolvedValidationOptions) {
    this.#options = options;
  }

  /** The source of the factory's body and the Sets it needs. */
  program(root: DataSchema): { body: string; sets: Set<string>[] } {
    const lines: string[] = ['  if (d === undefined) d = 1;'];
    this.#emit(root, 'v', lines, '  ', 0);
    const rootFn = `function check(v, d) {\n${lines.join('\n')}\n  return true;\n}`;
    const body = `"use strict";\n${this.#functions.join('\n')}\n${rootFn}\nreturn check;`;
    return { body, sets: this.#sets };
  }

  /**
   * The source of the factory's body for the field scan of `record` ({@link generateFieldScan}): the
   * record function's reads and checks, where each failed field pushes its index and goes on to the next.
   */
  scanProgram(record: RecordDataSchema): { body: string; sets: Set<string>[] } {
    const lines: string[] = ['  let present = 0;', '  let failed = 0;', '  let f;'];
    record.getFields().forEach((field, i) => {
      const key = lit(field.getName());
      const read =
        field.getName() in Object.prototype
          ? `Object.prototype.hasOwnProperty.call(r, ${key}) ? r[${key}] : undefined`
          : `r[${key}]`;
      lines.push(`  f = ${read};`);
      lines.push(`  if (f === undefined) {${this.#absentOk(field) ? '' : ` bad[failed++] = ${i};`} } else {`);
      const v = this.#fresh('v');
      const label = `f${i}`;
      lines.push('    present++;', `    const ${v} = f;`, `    ${label}: {`);
      this.#emit(field.getType(), v, lines, '      ', 1, `{ bad[failed++] = ${i}; break ${label}; }`);
      lines.push('    }', '  }');
    });
    const scan = `function scan(r, d, bad) {\n${lines.join('\n')}\n  return present + failed * ${SCAN_FAILED};\n}`;
    return { body: `"use strict";\n${this.#functions.join('\n')}\n${scan}\nreturn scan;`, sets: this.#sets };
  }

  /** Whether the fast check accepts the field's absence (the diagnostic path has nothing to say then). */
  #absentOk(field: RecordField): boolean {
    const o = this.#options;
    return (
      field.getOptional() ||
      o.requiredMode === RequiredMode.IGNORE ||
      (o.requiredMode === RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT && field.hasDefault())
    );
  }

  #fresh(prefix: string): string {
    return `${prefix}${this.#temp++}`;
  }

  /** The name of the function checking `record`, generating it on first use. */
  #recordFunction(record: RecordDataSchema): string {
    const known = this.#recordNames.get(record);
    if (known !== undefined) return known;
    const name = `r${this.#recordNames.size}`;
    this.#recordNames.set(record, name);
    const o = this.#options;
    const countKeys = o.unrecognizedFieldMode !== UnrecognizedFieldMode.IGNORE;
    const body: string[] = [
      `  if (typeof r !== "object" || r === null || Array.isArray(r) || r[KIND] !== undefined || d > ${MAX_NESTING_DEPTH}) return false;`,
    ];
    if (countKeys) body.push('  let present = 0;');
    body.push('  let f;');
    for (const field of record.getFields()) {
      const key = lit(field.getName());
      const read =
        field.getName() in Object.prototype
          ? `Object.prototype.hasOwnProperty.call(r, ${key}) ? r[${key}] : undefined`
          : `r[${key}]`;
      body.push(`  f = ${read};`);
      body.push(`  if (f === undefined) {${this.#absentOk(field) ? '' : ' return false;'} } else {`);
      if (countKeys) body.push('    present++;');
      const v = this.#fresh('v');
      body.push(`    const ${v} = f;`);
      this.#emit(field.getType(), v, body, '    ', 1);
      body.push('  }');
    }
    if (countKeys)
      body.push('  let total = 0;', '  for (const k in r) total++;', '  return total === present;');
    else body.push('  return true;');
    this.#functions.push(`function ${name}(r, d) {\n${body.join('\n')}\n}`);
    return name;
  }

  /** The name of the function checking the container `schema` on its own, generating it on first use. */
  #deepFunction(schema: DataSchema): string {
    const known = this.#deepNames.get(schema);
    if (known !== undefined) return known;
    const name = `s${this.#deepNames.size}`;
    this.#deepNames.set(schema, name);
    const body: string[] = [];
    this.#emit(schema, 'v', body, '  ', 0);
    this.#functions.push(`function ${name}(v, d) {\n${body.join('\n')}\n  return true;\n}`);
    return name;
  }

  /**
   * Statements that `return false` unless the value in variable `v` passes `schema`'s fast check; `v` is
   * `k` levels below the depth `d` of the enclosing function's value.
   */
  #emit(schema: DataSchema, v: string, out: string[], pad: string, k: number, no = RETURN_FALSE): void {
    const deeper = `d > ${MAX_NESTING_DEPTH - k}`;
    const s = schema.getDereferencedSchema();
    const off = this.#options.coercionMode === CoercionMode.OFF;
    const fail = (cond: string): void => {
      out.push(`${pad}if (${cond}) ${no}`);
    };
    const type = s.getType();
    if (
      k >= MAX_INLINE &&
      (type === DataSchemaType.ARRAY || type === DataSchemaType.MAP || type === DataSchemaType.UNION)
    ) {
      return fail(`!${this.#deepFunction(s)}(${v}, d + ${k})`);
    }
    switch (type) {
      case DataSchemaType.INT:
        return fail(`typeof ${v} !== "number" || (${v} | 0) !== ${v}`);
      case DataSchemaType.LONG:
        return fail(
          `typeof ${v} === "number" ? (Math.floor(${v}) !== ${v} || ${v} > ${Number.MAX_SAFE_INTEGER} || ${v} < ${Number.MIN_SAFE_INTEGER}) : !isLongValue(${v})`,
        );
      case DataSchemaType.FLOAT:
        // NaN and ±Infinity are floats; a finite number beyond the float range is not
        return fail(
          `typeof ${v} !== "number" || (${v} - ${v} === 0 && !(${v} > ${-FLOAT_LIMIT} && ${v} < ${FLOAT_LIMIT}))`,
        );
      case DataSchemaType.DOUBLE:
        return fail(`typeof ${v} !== "number"`);
      case DataSchemaType.BOOLEAN:
        return fail(`typeof ${v} !== "boolean"`);
      case DataSchemaType.STRING:
        return fail(`typeof ${v} !== "string"`);
      case DataSchemaType.NULL:
        return fail(`${v} !== null`);
      case DataSchemaType.BYTES:
      case DataSchemaType.FIXED: {
        const size = s.getType() === DataSchemaType.FIXED ? (s as FixedDataSchema).getSize() : undefined;
        const sized = size === undefined ? '' : ` && ${v}.length === ${size}`;
        const bytes = `typeof ${v} === "object" && ${v} !== null && ${v}[KIND] === ${KIND_BYTES}${sized}`;
        if (off) return fail(`typeof ${v} === "string" ? !(isAvroString(${v})${sized}) : !(${bytes})`);
        return fail(`!(${bytes})`);
      }
      case DataSchemaType.ENUM: {
        const symbols = (s as EnumDataSchema).getSymbols();
        fail(`typeof ${v} !== "string"`);
        if (symbols.length > MAX_SWITCH_SYMBOLS) {
          this.#sets.push(new Set(symbols));
          return fail(`!sets[${this.#sets.length - 1}].has(${v})`);
        }
        if (symbols.length === 0) return (out.push(`${pad}${no}`), undefined);
        out.push(`${pad}switch (${v}) {`);
        for (const sym of symbols) out.push(`${pad}  case ${lit(sym)}:`);
        out.push(`${pad}    break;`, `${pad}  default:`, `${pad}    ${no}`, `${pad}}`);
        return;
      }
      case DataSchemaType.ARRAY: {
        fail(`!Array.isArray(${v}) || ${deeper}`);
        const i = this.#fresh('i');
        const e = this.#fresh('e');
        out.push(`${pad}for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`);
        out.push(`${pad}  const ${e} = ${v}[${i}];`);
        this.#emit((s as ArrayDataSchema).getItems(), e, out, `${pad}  `, k + 1, no);
        out.push(`${pad}}`);
        return;
      }
      case DataSchemaType.MAP: {
        fail(
          `typeof ${v} !== "object" || ${v} === null || Array.isArray(${v}) || ${v}[KIND] !== undefined || ${deeper}`,
        );
        const key = this.#fresh('k');
        const e = this.#fresh('e');
        out.push(`${pad}for (const ${key} in ${v}) {`);
        out.push(`${pad}  const ${e} = ${v}[${key}];`);
        this.#emit((s as MapDataSchema).getValues(), e, out, `${pad}  `, k + 1, no);
        out.push(`${pad}}`);
        return;
      }
      case DataSchemaType.UNION: {
        const union = s as UnionDataSchema;
        const hasNull = union.getTypeByMemberKey('null') !== undefined;
        out.push(`${pad}if (${v} === null) {${hasNull ? '' : ` ${no}`} } else {`);
        const inner = `${pad}  `;
        out.push(
          `${inner}if (typeof ${v} !== "object" || Array.isArray(${v}) || ${v}[KIND] !== undefined || ${deeper}) ${no}`,
        );
        const key = this.#fresh('key');
        const n = this.#fresh('n');
        const each = this.#fresh('k');
        out.push(`${inner}let ${key};`, `${inner}let ${n} = 0;`);
        out.push(`${inner}for (const ${each} in ${v}) { if (${n}++ === 1) ${no} ${key} = ${each}; }`);
        out.push(`${inner}if (${n} === 0) ${no}`);
        const e = this.#fresh('e');
        out.push(`${inner}const ${e} = ${v}[${key}];`);
        out.push(`${inner}switch (${key}) {`);
        const seen = new Set<string>();
        for (const m of union.getMembers()) {
          const mk = m.getUnionMemberKey();
          if (seen.has(mk)) continue;
          seen.add(mk);
          out.push(`${inner}  case ${lit(mk)}: {`);
          this.#emit(m.getType(), e, out, `${inner}    `, k + 1, no);
          out.push(`${inner}    break;`, `${inner}  }`);
        }
        out.push(`${inner}  default:`, `${inner}    ${no}`, `${inner}}`);
        out.push(`${pad}}`);
        return;
      }
      case DataSchemaType.RECORD:
        return fail(`!${this.#recordFunction(s as RecordDataSchema)}(${v}, ${k === 0 ? 'd' : `d + ${k}`})`);
      default:
        out.push(`${pad}${no}`);
    }
  }
}

/**
 * The generated fast check of `schema` under `options`, or undefined where code cannot be generated from
 * strings (then the closures serve).
 */
export function generateCheck(
  schema: DataSchema,
  options: ResolvedValidationOptions,
): ((raw: unknown, depth?: number) => boolean) | undefined {
  return compile(new Generator(options).program(schema));
}

/**
 * What {@link generateFieldScan} gives: writes the failed fields' indices to `bad` from index 0, and returns
 * how many fields are present plus {@link SCAN_FAILED} times how many failed (no array length to reset:
 * `length = 0` on a reused array took 3% of a failed validation in a profile).
 */
export type FieldScan = (store: Record<string, unknown>, depth: number, bad: number[]) => number;

/** The unit of the failed count in what a {@link FieldScan} returns (a record has fewer fields). */
export const SCAN_FAILED = 65536;

/**
 * The field scan of `record`'s diagnostic path under `options`: it reads every field of a record's store (at
 * nesting depth `depth`) and checks it as the fast check does, writes to `bad` the index of each field that
 * fails (a present value the fast check refuses, or an absence it refuses), in schema order, and returns how
 * many fields are present and failed ({@link FieldScan}). Undefined where code cannot be generated from
 * strings.
 *
 * Why: the diagnostic path used to find the bad fields with reads by a variable key, ~8x slower than the
 * generated reads by constant key (70-90 ns against ~11 ns for the 11 fields of the bench's Order record,
 * measured in isolation), and with a closure call per field (bench/validation.bench.ts, "invalid 1KB").
 */
export function generateFieldScan(
  record: RecordDataSchema,
  options: ResolvedValidationOptions,
): FieldScan | undefined {
  return compile(new Generator(options).scanProgram(record));
}

function compile<F>({ body, sets }: { body: string; sets: Set<string>[] }): F | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the point of this module; see its comment
    const factory = new Function('KIND', 'isLongValue', 'isAvroString', 'sets', body) as (
      kind: symbol,
      isLong: (v: unknown) => boolean,
      isAvro: (s: string) => boolean,
      sets: Set<string>[],
    ) => F;
    return factory(KIND, isLongValue, (s) => ByteString.isAvroString(s), sets);
  } catch (err) {
    if (err instanceof EvalError) return undefined;
    throw err;
  }
}

/** The generated source of `schema`'s fast check (for tests and curiosity). */
export function generatedCheckSource(schema: DataSchema, options: ResolvedValidationOptions): string {
  return new Generator(options).program(schema).body;
}
