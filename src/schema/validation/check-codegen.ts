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
 * The locating check ({@link generateLocating}) is the same code with another failure action: it records the
 * value refused in `LOCATED` (located-failure.ts) and goes on with the next sibling, stopping at a second
 * one; each function's callers add their path components on the way back. It writes records out inline
 * rather than calling their functions, where it can; when that leaves one function, `validate` runs it
 * instead of the fast check, else only after the fast check said false (see there for why and what it
 * measured). The fast check's source is what it was before locating existed.
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
import { LOCATED, type LocatedFailure } from './located-failure';
import { RequiredMode } from './required-mode';
import { UnrecognizedFieldMode } from './unrecognized-field-mode';
import type { ResolvedValidationOptions } from './validation-options';

/** The KIND brand of ByteString (see src/data/internal.ts). */
const KIND_BYTES = 3;
/** Enums with more symbols than this are checked with a Set rather than a switch. */
const MAX_SWITCH_SYMBOLS = 16;
/** Containers nested inline in one generated function, at most (see the module comment). */
const MAX_INLINE = 32;
/**
 * Records written out in one locating function, at most (`#inlineRecord`): a schema graph
 * reaching many records would otherwise grow one function past what V8 optimizes.
 */
const MAX_INLINE_RECORDS = 16;

/** No two fields share a name (else the diagnostic path cannot go to the one that failed). */
const uniqueNames = (record: RecordDataSchema): boolean => {
  const fields = record.getFields();
  return new Set(fields.map((f) => f.getName())).size === fields.length;
};

const lit = (s: string): string => JSON.stringify(s);
/** What a failed check does in the fast check functions: the value is not valid as it is. */
const RETURN_FALSE = 'return false;';

/**
 * Where a value sits in a generated function of the locating check (see located-failure.ts): what its
 * failure code records and where it goes on from.
 */
interface At {
  /** JS expressions of the path components from the function's own value to this one, outer first. */
  readonly comps: readonly string[];
  /** JS expression of the store holding the value; `null` for the function's own value. */
  readonly parent: string;
  /** JS expression of its key in that store; `null` for the function's own value. */
  readonly key: string;
  /** JS expression of how a read-only parent is named: a string literal, or `null` (a list, or no parent). */
  readonly parentKey: string;
  /** The label of the block holding the value's checks: a failure goes on after it. */
  readonly label: string;
}

/**
 * What a failed check does: `{ plain }` runs the given statement for every failure below (the field scan,
 * and records whose fields cannot be told apart); an {@link At} records the value refused and goes on.
 */
type Mode = { readonly plain: string } | At;

const isPlain = (mode: Mode): mode is { readonly plain: string } => 'plain' in mode;

/** Where a function's own value sits: no parent, no path. */
const atOwnValue = (label: string): At => ({
  comps: [],
  parent: 'null',
  key: 'null',
  parentKey: 'null',
  label,
});

class Generator {
  readonly #options: ResolvedValidationOptions;
  readonly #functions: string[] = [];
  readonly #recordNames = new Map<RecordDataSchema, string>();
  readonly #deepNames = new Map<DataSchema, string>();
  readonly #sets: Set<string>[] = [];
  /** The schemas whose nodes a failure names (`nodes[i]` in the source), dereferenced. */
  readonly #nodes: DataSchema[] = [];
  readonly #nodeIndex = new Map<DataSchema, number>();
  /**
   * Locating mode: the records inline in the function being generated (a record inside itself gets its
   * function) and how many were inlined there (at most {@link MAX_INLINE_RECORDS}).
   */
  #inlining = new Set<RecordDataSchema>();
  #inlined = 0;
  /** Whether the functions locate failures (see {@link Mode}) or return false at the first. */
  readonly #locate: boolean;
  #temp = 0;

  constructor(options: ResolvedValidationOptions, locate: boolean) {
    this.#options = options;
    this.#locate = locate;
  }

  /** The source of the factory's body and what it needs: the fast check, or the locating one. */
  program(root: DataSchema): Program {
    const lines: string[] = ['  if (d === undefined) d = 1;'];
    if (this.#locate) {
      const label = this.#fresh('L');
      lines.push('  let ok = true;', `  ${label}: {`);
      this.#emit(root, 'v', lines, '    ', 0, atOwnValue(label));
      lines.push('  }', '  return ok;');
    } else {
      this.#emit(root, 'v', lines, '  ', 0, { plain: RETURN_FALSE });
      lines.push('  return true;');
    }
    const rootFn = `function check(v, d) {\n${lines.join('\n')}\n}`;
    const body = `"use strict";\n${this.#functions.join('\n')}\n${rootFn}\nreturn check;`;
    return { body, sets: this.#sets, nodes: this.#nodes, functions: this.#functions.length };
  }

  /**
   * The source of the factory's body for the field scan of `record` ({@link generateFieldScan}): the
   * record function's reads and checks, where each failed field pushes its index and goes on to the next.
   */
  scanProgram(record: RecordDataSchema): Program {
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
      this.#emit(field.getType(), v, lines, '      ', 1, {
        plain: `{ bad[failed++] = ${i}; break ${label}; }`,
      });
      lines.push('    }', '  }');
    });
    const scan = `function scan(r, d, bad) {\n${lines.join('\n')}\n  return present + failed * ${SCAN_FAILED};\n}`;
    return {
      body: `"use strict";\n${this.#functions.join('\n')}\n${scan}\nreturn scan;`,
      sets: this.#sets,
      nodes: this.#nodes,
      functions: this.#functions.length,
    };
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

  /** The source expression of the compiled node of `schema` (an entry of the `nodes` table). */
  #node(schema: DataSchema): string {
    const s = schema.getDereferencedSchema();
    let i = this.#nodeIndex.get(s);
    if (i === undefined) {
      i = this.#nodes.length;
      this.#nodes.push(s);
      this.#nodeIndex.set(s, i);
    }
    return `nodes[${i}]`;
  }

  /** Statements pushing the path components of `at` (innermost first: the path is built on the way up). */
  #push(at: At): string {
    return [...at.comps]
      .reverse()
      .map((c) => `loc.up(${c}); `)
      .join('');
  }

  /** The failure code for the value `v` of `schema`, refused by its own checks (not by a value below it). */
  #refused(v: string, schema: DataSchema, mode: Mode): string {
    if (isPlain(mode)) return mode.plain;
    const record = `loc.fail(${v}, ${this.#node(schema)}, ${mode.parent}, ${mode.key}, ${mode.parentKey})`;
    return `{ if (${record}) return false; ${this.#push(mode)}ok = false; break ${mode.label}; }`;
  }

  /** The failure code for a value that a generated function (a record's, a deep one) said false for. */
  #below(mode: Mode): string {
    if (isPlain(mode)) return mode.plain;
    return `{ if (loc.n > 1) return false; ${this.#push(mode)}ok = false; break ${mode.label}; }`;
  }

  /** The mode of a child value (`comp` its key in `parent`) and its block's label, '' in plain mode. */
  #child(mode: Mode, parent: string, comp: string, parentKey: string): { mode: Mode; label: string } {
    if (isPlain(mode)) return { mode, label: '' };
    const label = this.#fresh('L');
    return { mode: { comps: [...mode.comps, comp], parent, key: comp, parentKey, label }, label };
  }

  /** The name of the function checking `record`, generating it on first use. */
  #recordFunction(record: RecordDataSchema): string {
    const known = this.#recordNames.get(record);
    if (known !== undefined) return known;
    const name = `r${this.#recordNames.size}`;
    this.#recordNames.set(record, name);
    const [inlining, inlined] = [this.#inlining, this.#inlined];
    this.#inlining = new Set([record]);
    this.#inlined = 0;
    const o = this.#options;
    const countKeys = o.unrecognizedFieldMode !== UnrecognizedFieldMode.IGNORE;
    const fields = record.getFields();
    const self = this.#locate ? `loc.fail(r, ${this.#node(record)}, null, null, null); ` : '';
    // The diagnostic path finds a record's fields by name (compile-validator.ts, fixInKeyOrder), so where two
    // fields share a name it cannot go to the one that failed: any failure inside is the record's own.
    const whole = !this.#locate || !uniqueNames(record);
    const body: string[] = [
      `  if (typeof r !== "object" || r === null || Array.isArray(r) || r[KIND] !== undefined || d > ${MAX_NESTING_DEPTH}) ${this.#locate ? `{ ${self}return false; }` : RETURN_FALSE}`,
    ];
    // `self`: the record's own failures (absent fields, its key count) are one refused value, the record
    const ownFailure = !this.#locate
      ? RETURN_FALSE
      : whole
        ? `{ ${self}return false; }`
        : `if (!self) { self = true; if (${self.slice(0, -2)}) return false; ok = false; }`;
    if (!whole) body.push('  let ok = true;', '  let self = false;');
    if (countKeys) body.push('  let present = 0;');
    body.push('  let f;');
    for (const field of fields) {
      const key = lit(field.getName());
      const read =
        field.getName() in Object.prototype
          ? `Object.prototype.hasOwnProperty.call(r, ${key}) ? r[${key}] : undefined`
          : `r[${key}]`;
      body.push(`  f = ${read};`);
      body.push(`  if (f === undefined) {${this.#absentOk(field) ? '' : ` ${ownFailure}`} } else {`);
      if (countKeys) body.push('    present++;');
      const v = this.#fresh('v');
      body.push(`    const ${v} = f;`);
      if (whole) {
        this.#emit(field.getType(), v, body, '    ', 1, { plain: ownFailure });
      } else {
        const label = this.#fresh('L');
        body.push(`    ${label}: {`);
        const at: At = { comps: [key], parent: 'r', key, parentKey: lit(record.getUnionMemberKey()), label };
        this.#emit(field.getType(), v, body, '      ', 1, at);
        body.push('    }');
      }
      body.push('  }');
    }
    if (countKeys) {
      body.push('  let total = 0;', '  for (const k in r) total++;');
      body.push(
        whole
          ? `  if (total !== present) ${ownFailure}`
          : `  if (total !== present) { if (!self) ${self}return false; }`,
      );
    }
    body.push(whole ? '  return true;' : '  return ok;');
    this.#functions.push(`function ${name}(r, d) {\n${body.join('\n')}\n}`);
    [this.#inlining, this.#inlined] = [inlining, inlined];
    return name;
  }

  /**
   * Locating mode: the checks of `record` for the value in `v` written out in the function being generated,
   * rather than a call of its function. Measured on the bad ~1 KB record of bench/validation.bench.ts: the
   * locating check took ~75-90 ns with a function per record (V8 inlines few of them: each is about twice
   * the size of its fast-check twin), ~56-68 ns written out, against ~50 for the fast check on the whole
   * valid record (same process, best of 9).
   */
  #inlineRecord(record: RecordDataSchema, v: string, out: string[], pad: string, k: number, at: At): void {
    const countKeys = this.#options.unrecognizedFieldMode !== UnrecognizedFieldMode.IGNORE;
    const node = this.#node(record);
    const ups = this.#push(at);
    const own = `if (loc.fail(${v}, ${node}, null, null, null)) return false; ${ups}ok = false;`;
    out.push(
      `${pad}if (typeof ${v} !== "object" || ${v} === null || Array.isArray(${v}) || ${v}[KIND] !== undefined || d > ${MAX_NESTING_DEPTH - k}) { ${own} break ${at.label}; }`,
    );
    // the record's own failures (absent fields, its key count) are one refused value, the record
    const self = this.#fresh('self');
    const present = this.#fresh('present');
    const ownOnce = `if (!${self}) { ${self} = true; ${own} }`;
    out.push(`${pad}let ${self} = false;`);
    if (countKeys) out.push(`${pad}let ${present} = 0;`);
    for (const field of record.getFields()) {
      const key = lit(field.getName());
      const f = this.#fresh('v');
      const read =
        field.getName() in Object.prototype
          ? `Object.prototype.hasOwnProperty.call(${v}, ${key}) ? ${v}[${key}] : undefined`
          : `${v}[${key}]`;
      out.push(`${pad}const ${f} = ${read};`);
      out.push(`${pad}if (${f} === undefined) {${this.#absentOk(field) ? '' : ` ${ownOnce}`} } else {`);
      if (countKeys) out.push(`${pad}  ${present}++;`);
      const label = this.#fresh('L');
      out.push(`${pad}  ${label}: {`);
      const parentKey = lit(record.getUnionMemberKey());
      const fieldAt: At = { comps: [...at.comps, key], parent: v, key, parentKey, label };
      this.#emit(field.getType(), f, out, `${pad}    `, k + 1, fieldAt);
      out.push(`${pad}  }`, `${pad}}`);
    }
    if (countKeys) {
      const total = this.#fresh('total');
      const each = this.#fresh('k');
      out.push(`${pad}let ${total} = 0;`, `${pad}for (const ${each} in ${v}) ${total}++;`);
      out.push(`${pad}if (${total} !== ${present}) { ${ownOnce} }`);
    }
  }

  /** The name of the function checking the container `schema` on its own, generating it on first use. */
  #deepFunction(schema: DataSchema): string {
    const known = this.#deepNames.get(schema);
    if (known !== undefined) return known;
    const name = `s${this.#deepNames.size}`;
    this.#deepNames.set(schema, name);
    const [inlining, inlined] = [this.#inlining, this.#inlined];
    this.#inlining = new Set();
    this.#inlined = 0;
    const label = this.#fresh('L');
    const body: string[] = ['  let ok = true;', `  ${label}: {`];
    this.#emit(schema, 'v', body, '    ', 0, atOwnValue(label));
    body.push('  }');
    this.#functions.push(`function ${name}(v, d) {\n${body.join('\n')}\n  return ok;\n}`);
    [this.#inlining, this.#inlined] = [inlining, inlined];
    return name;
  }

  /**
   * Statements that fail (see {@link Mode}) unless the value in variable `v` passes `schema`'s fast check;
   * `v` is `k` levels below the depth `d` of the enclosing function's value.
   */
  #emit(schema: DataSchema, v: string, out: string[], pad: string, k: number, mode: Mode): void {
    const deeper = `d > ${MAX_NESTING_DEPTH - k}`;
    const s = schema.getDereferencedSchema();
    const off = this.#options.coercionMode === CoercionMode.OFF;
    // made where a check can fail (a record's function reports its own failures)
    let refused: string | undefined;
    const no = (): string => (refused ??= this.#refused(v, s, mode));
    const fail = (cond: string): void => {
      out.push(`${pad}if (${cond}) ${no()}`);
    };
    /** A child value's checks, in a block of its own when failures are located. */
    const child = (c: DataSchema, e: string, comp: string, parentKey: string, inner: string): void => {
      const { mode: m, label } = this.#child(mode, v, comp, parentKey);
      if (label === '') return this.#emit(c, e, out, inner, k + 1, m);
      out.push(`${inner}${label}: {`);
      this.#emit(c, e, out, `${inner}  `, k + 1, m);
      out.push(`${inner}}`);
    };
    const type = s.getType();
    if (
      k >= MAX_INLINE &&
      (type === DataSchemaType.ARRAY || type === DataSchemaType.MAP || type === DataSchemaType.UNION)
    ) {
      return (
        out.push(`${pad}if (!${this.#deepFunction(s)}(${v}, d + ${k})) ${this.#below(mode)}`),
        undefined
      );
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
        if (symbols.length === 0) return (out.push(`${pad}${no()}`), undefined);
        out.push(`${pad}switch (${v}) {`);
        for (const sym of symbols) out.push(`${pad}  case ${lit(sym)}:`);
        out.push(`${pad}    break;`, `${pad}  default:`, `${pad}    ${no()}`, `${pad}}`);
        return;
      }
      case DataSchemaType.ARRAY: {
        fail(`!Array.isArray(${v}) || ${deeper}`);
        const i = this.#fresh('i');
        const e = this.#fresh('e');
        out.push(`${pad}for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`);
        out.push(`${pad}  const ${e} = ${v}[${i}];`);
        child((s as ArrayDataSchema).getItems(), e, i, 'null', `${pad}  `);
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
        child((s as MapDataSchema).getValues(), e, key, '"map"', `${pad}  `);
        out.push(`${pad}}`);
        return;
      }
      case DataSchemaType.UNION: {
        const union = s as UnionDataSchema;
        const hasNull = union.getTypeByMemberKey('null') !== undefined;
        out.push(`${pad}if (${v} === null) {${hasNull ? '' : ` ${no()}`} } else {`);
        const inner = `${pad}  `;
        out.push(
          `${inner}if (typeof ${v} !== "object" || Array.isArray(${v}) || ${v}[KIND] !== undefined || ${deeper}) ${no()}`,
        );
        const key = this.#fresh('key');
        const n = this.#fresh('n');
        const each = this.#fresh('k');
        out.push(`${inner}let ${key};`, `${inner}let ${n} = 0;`);
        out.push(`${inner}for (const ${each} in ${v}) { if (${n}++ === 1) ${no()} ${key} = ${each}; }`);
        out.push(`${inner}if (${n} === 0) ${no()}`);
        const e = this.#fresh('e');
        out.push(`${inner}const ${e} = ${v}[${key}];`);
        out.push(`${inner}switch (${key}) {`);
        const seen = new Set<string>();
        for (const m of union.getMembers()) {
          const mk = m.getUnionMemberKey();
          if (seen.has(mk)) continue;
          seen.add(mk);
          out.push(`${inner}  case ${lit(mk)}: {`);
          child(m.getType(), e, key, '"union"', `${inner}    `);
          out.push(`${inner}    break;`, `${inner}  }`);
        }
        out.push(`${inner}  default:`, `${inner}    ${no()}`, `${inner}}`);
        out.push(`${pad}}`);
        return;
      }
      case DataSchemaType.RECORD: {
        const record = s as RecordDataSchema;
        if (
          !isPlain(mode) &&
          k < MAX_INLINE &&
          this.#inlined < MAX_INLINE_RECORDS &&
          !this.#inlining.has(record) &&
          uniqueNames(record)
        ) {
          this.#inlined++;
          this.#inlining.add(record);
          this.#inlineRecord(record, v, out, pad, k, mode);
          this.#inlining.delete(record);
          return;
        }
        const fn = this.#recordFunction(record);
        out.push(`${pad}if (!${fn}(${v}, ${k === 0 ? 'd' : `d + ${k}`})) ${this.#below(mode)}`);
        return;
      }
      default:
        out.push(`${pad}${no()}`);
    }
  }
}

/** A generated factory body and the values it is called with. */
interface Program {
  readonly body: string;
  readonly sets: Set<string>[];
  /** The schemas whose compiled nodes the source names, in `nodes[i]` order. */
  readonly nodes: DataSchema[];
  /** How many functions besides the root one the source has. */
  readonly functions: number;
}

/**
 * The generated fast check of `schema` under `options`, or undefined where code cannot be generated from
 * strings (then the closures serve).
 */
export function generateCheck(
  schema: DataSchema,
  options: ResolvedValidationOptions,
  nodeOf?: NodeOf,
): ((raw: unknown, depth?: number) => boolean) | undefined {
  return compile(new Generator(options, false).program(schema), nodeOf);
}

/**
 * The locating check of `schema` under `options` (located-failure.ts): the same answer as
 * {@link generateCheck}, but where that returns false at the first value it refuses, this one records the
 * value in `LOCATED` and goes on, up to a second one. Undefined where code cannot be generated from strings.
 *
 * `single`: whether it is one function (every record written out inline, none calling another). Then it is
 * as fast as the fast check on valid data (the bench's ~1 KB record: ~51 ns against ~52) and `validate` runs
 * it first, instead of the fast check and then this on failure. Otherwise it runs only after the fast check
 * failed: with a function per record it is larger than the fast check's functions, which V8 inlines into
 * each other and not these (~70 ns against ~55 for the valid record, when the fast check itself located).
 */
export function generateLocating(
  schema: DataSchema,
  options: ResolvedValidationOptions,
  nodeOf?: NodeOf,
): { locate: (raw: unknown, depth?: number) => boolean; single: boolean } | undefined {
  const program = new Generator(options, true).program(schema);
  const locate = compile<(raw: unknown, depth?: number) => boolean>(program, nodeOf);
  return locate === undefined ? undefined : { locate, single: program.functions === 0 };
}

/** {@link generateLocating}'s function alone. */
export function generateLocate(
  schema: DataSchema,
  options: ResolvedValidationOptions,
  nodeOf?: NodeOf,
): ((raw: unknown, depth?: number) => boolean) | undefined {
  return generateLocating(schema, options, nodeOf)?.locate;
}

/**
 * The compiled node of a schema (compile-validator.ts `nodeFor` under the same options), which a located
 * failure names; without it, the schema itself stands there (tests that only ask for the boolean).
 */
export type NodeOf = (schema: DataSchema) => unknown;

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
  nodeOf?: NodeOf,
): FieldScan | undefined {
  return compile(new Generator(options, false).scanProgram(record), nodeOf);
}

function compile<F>({ body, sets, nodes }: Program, nodeOf: NodeOf | undefined): F | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the point of this module; see its comment
    const factory = new Function('KIND', 'isLongValue', 'isAvroString', 'sets', 'loc', 'nodes', body) as (
      kind: symbol,
      isLong: (v: unknown) => boolean,
      isAvro: (s: string) => boolean,
      sets: Set<string>[],
      loc: LocatedFailure,
      nodes: unknown[],
    ) => F;
    const table = nodeOf === undefined ? nodes : nodes.map(nodeOf);
    return factory(KIND, isLongValue, (s) => ByteString.isAvroString(s), sets, LOCATED, table);
  } catch (err) {
    if (err instanceof EvalError) return undefined;
    throw err;
  }
}

/** The generated source of `schema`'s fast check, or of its locating check (for tests and curiosity). */
export function generatedCheckSource(
  schema: DataSchema,
  options: ResolvedValidationOptions,
  locate = false,
): string {
  return new Generator(options, locate).program(schema).body;
}
