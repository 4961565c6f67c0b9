/**
 * The PDL parser (Rest.li's `.pdl` syntax, grammar `Pdl.g4`, semantics `PdlSchemaParser.java`, rest.li
 * 29.x). It does not build schemas itself: it translates the text into the same located JSON nodes that the
 * `.pdsc` scanner produces (offsets pointing into the PDL text), and hands them to the `.pdsc` parser's
 * step 1 (`parseNodes`). So both syntaxes share every rule of the schema model (names, includes, unions,
 * defaults, leniency warnings and `strict`), and a problem is reported at its place in the `.pdl` file.
 *
 * What is PDL's own, and done here:
 * - names: a simple name is the imported one when imported, else in the current namespace (no fallback to
 *   the name as given, unlike `.pdsc`); imports from the root namespace and imports whose simple names clash
 *   are refused, as the reference does;
 * - `{ namespace x package y record ... }` scopes; a top-level `package` applies to every named type;
 * - properties: `@a.b.c = v` builds nested maps (`Conflicting property` / `Property already defined`), a
 *   property without a value is `true`; `@aliases` on named types and fields and `@order` on fields are
 *   attributes; on an enum symbol, its doc comment goes to `symbolDocs`, `@deprecated` to
 *   `deprecatedSymbols` and any other property to `symbolProperties`;
 * - doc comments become `doc`; escaped identifiers (`` `record` ``) are names, never keywords.
 *
 * A syntax error stops the parse of that text (one problem: file, line, column, what was expected); the
 * problems found by the model rules are collected like those of a `.pdsc` text.
 *
 * Speed (the goal: PDL parses at least as fast as `.pdsc`, bench/pdl.bench.ts): the lexer keeps the
 * current token in its fields rather than in objects, error messages are built only when an error is
 * thrown, and the nodes are built without a key given twice (every attribute and property is checked as it
 * is added), so the `.pdsc` step's walk looking for duplicated keys is skipped unless a duplicated enum
 * symbol made one.
 */
import type { DataSchema } from '../data-schema';
import { MAX_NESTING_DEPTH } from '../../data/limits';
import type { JsonArray, JsonEntry, JsonNode, JsonObject } from '../json-locations';
import { isValidName } from '../schema-names';
import { parseNodes, type ParseSession, type Source } from '../schema-parser';
import {
  AT,
  COLON,
  DOT,
  EQUALS,
  KEYWORDS,
  LBRACE,
  LBRACKET,
  PdlLexer,
  PdlSyntax,
  RBRACE,
  RBRACKET,
} from './pdl-lexer';

const SAFE = Number.MAX_SAFE_INTEGER;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/**
 * Property names that would be read as schema attributes once translated: a PDL property may not use them
 * (the reference keeps them as plain properties; a `.pdsc` text cannot express that, so the tree would not
 * translate).
 */
const RESERVED: Record<string, ReadonlySet<string>> = {
  named: new Set(['type', 'name', 'namespace', 'package', 'fields', 'include', 'symbols', 'size', 'ref']),
  field: new Set(['name', 'type', 'optional', 'default']),
  member: new Set(['alias', 'type']),
  complex: new Set(['type', 'items', 'values']),
};

interface MutableObject {
  readonly kind: 'object';
  readonly offset: number;
  readonly entries: JsonEntry[];
  readonly map: Map<string, JsonEntry>;
}

function object(offset: number): MutableObject {
  return { kind: 'object', offset, entries: [], map: new Map() };
}

function put(obj: MutableObject, key: string, keyOffset: number, value: JsonNode): void {
  const entry: JsonEntry = { key, keyOffset, value };
  obj.entries.push(entry);
  obj.map.set(key, entry);
}

function str(value: string, offset: number): JsonNode {
  return { kind: 'string', offset, value };
}

interface Prop {
  readonly path: string[];
  readonly value: JsonNode;
  readonly offset: number;
}

/** Parses one PDL text into the session; returns its top-level schema (one, as PDL holds one per file). */
export function parsePdlSource(session: ParseSession, text: string, file: string | undefined): DataSchema[] {
  const source = session.addSource(file, text);
  const parser = new PdlTextParser(session, source, text);
  let node: JsonNode;
  try {
    node = parser.document();
  } catch (err) {
    if (!(err instanceof PdlSyntax)) throw err;
    session.report({ source, path: '', offset: err.offset }, err.message);
    return [];
  }
  return parseNodes(session, source, [node], parser.duplicatedKeys);
}

const NO_PROPS: readonly Prop[] = [];
const NO_ATTRIBUTES: readonly string[] = [];
const NAMED_ATTRIBUTES: readonly string[] = ['aliases'];
const FIELD_ATTRIBUTES: readonly string[] = ['aliases', 'order'];

class PdlTextParser {
  readonly #lx: PdlLexer;
  #imports = new Map<string, string>();
  #namespace = '';
  #package: string | undefined = undefined;
  #depth = 0;
  /** A node holds a key twice (a doc on a duplicated enum symbol): the `.pdsc` step must look for them. */
  duplicatedKeys = false;

  constructor(
    private readonly session: ParseSession,
    private readonly source: Source,
    text: string,
  ) {
    this.#lx = new PdlLexer(text);
  }

  // ---- tokens ----

  /** Throws "expected <expected> but found <the current token>". */
  #fail(expected: string): never {
    throw new PdlSyntax(`expected ${expected} but found ${describe(this.#lx)}`, this.#lx.offset);
  }

  /** Moves past the punctuation `code`, or fails with `expected`; returns its offset. */
  #expect(code: number, expected: string): number {
    const lx = this.#lx;
    if (!lx.is(code)) this.#fail(expected);
    const offset = lx.offset;
    lx.next();
    return offset;
  }

  #report(offset: number, message: string): void {
    this.session.report({ source: this.source, path: '', offset }, message);
  }

  #enter(offset: number): void {
    if (++this.#depth > MAX_NESTING_DEPTH)
      throw new PdlSyntax(`nesting deeper than ${MAX_NESTING_DEPTH} levels`, offset);
  }

  #leave(): void {
    this.#depth--;
  }

  /** True when the current token is an `ID` that is not a keyword (unless escaped). */
  #atName(): boolean {
    const lx = this.#lx;
    return lx.kind === 'id' && (lx.escaped || !KEYWORDS.has(lx.text));
  }

  /** `ID` that is not a keyword (unless escaped); returns the name. */
  #identifier(what: string): string {
    if (!this.#atName()) this.#fail(what);
    const name = this.#lx.text;
    this.#lx.next();
    return name;
  }

  /** `ID (. ID)*`. */
  #typeName(what: string): string {
    const lx = this.#lx;
    let name = this.#identifier(what);
    while (lx.is(DOT)) {
      lx.next();
      if (!this.#atName()) this.#fail(`a name segment after "." in ${what}`);
      name += `.${lx.text}`;
      lx.next();
    }
    return name;
  }

  // ---- document ----

  document(): JsonNode {
    const lx = this.#lx;
    lx.next();
    if (lx.isKeyword('namespace')) {
      lx.next();
      this.#namespace = this.#typeName('a namespace');
    }
    if (lx.isKeyword('package')) {
      lx.next();
      this.#package = this.#typeName('a package');
    }
    const bySimple = new Map<string, string>();
    while (lx.isKeyword('import')) {
      lx.next();
      const offset = lx.offset;
      const name = this.#typeName('an imported type name');
      const dot = name.lastIndexOf('.');
      const ns = dot < 0 ? '' : name.slice(0, dot);
      const simple = name.slice(dot + 1);
      if (ns === this.#namespace) {
        this.#report(
          offset,
          `Import '${name}' is from within the document's root namespace and is thus unnecessary. Please remove it.`,
        );
      }
      const previous = bySimple.get(simple);
      if (previous !== undefined) {
        this.#report(
          offset,
          `Import '${name}' conflicts with import '${previous}'. Please remove one and instead use its fully qualified name.`,
        );
      }
      bySimple.set(simple, name);
    }
    this.#imports = bySimple;
    const node = this.#typeDeclaration(true);
    if (lx.kind !== 'eof') this.#fail('the end of the text (a .pdl file holds one type declaration)');
    return node;
  }

  /** `scopedNamedTypeDeclaration | namedTypeDeclaration | anonymousTypeDeclaration`. */
  #typeDeclaration(topLevel: boolean): JsonNode {
    const lx = this.#lx;
    if (lx.is(LBRACE)) return this.#scoped();
    const docOffset = lx.docOffset;
    const doc = lx.doc();
    const props = this.#props();
    if (lx.kind === 'id' && !lx.escaped) {
      switch (lx.text) {
        case 'record':
        case 'enum':
        case 'typeref':
        case 'fixed':
          return this.#named(doc, docOffset, props, topLevel);
        case 'union':
          return this.#union(props);
        case 'array':
          return this.#collection('array', props);
        case 'map':
          return this.#collection('map', props);
      }
    }
    return this.#fail('a type declaration (record, enum, typeref, fixed, union, array or map)');
  }

  #scoped(): JsonNode {
    const lx = this.#lx;
    const open = lx.offset;
    lx.next();
    this.#enter(open);
    const savedNamespace = this.#namespace;
    const savedPackage = this.#package;
    if (lx.isKeyword('namespace')) {
      lx.next();
      this.#namespace = this.#typeName('a namespace');
    }
    if (lx.isKeyword('package')) {
      lx.next();
      this.#package = this.#typeName('a package');
    }
    const docOffset = lx.docOffset;
    const doc = lx.doc();
    const props = this.#props();
    if (lx.kind !== 'id' || lx.escaped || !NAMED_KEYWORDS.has(lx.text))
      this.#fail('a named type declaration (record, enum, typeref or fixed) in a namespace scope');
    const node = this.#named(doc, docOffset, props, true);
    this.#expect(RBRACE, '"}" closing the namespace scope');
    this.#namespace = savedNamespace;
    this.#package = savedPackage;
    this.#leave();
    return node;
  }

  /** A name used as a type: its full name, as the reference computes it. */
  #reference(name: string): string {
    if (name === 'null' || name.includes('.')) return name;
    if (PRIMITIVES.has(name)) return name;
    const imported = this.#imports.get(name);
    if (imported !== undefined) return imported;
    return this.#namespace === '' ? name : `${this.#namespace}.${name}`;
  }

  /** `typeReference | typeDeclaration`. */
  #typeAssignment(): JsonNode {
    const lx = this.#lx;
    const offset = lx.offset;
    if (lx.kind === 'id') {
      if (!lx.escaped && lx.text === 'null') {
        lx.next();
        return str('null', offset);
      }
      if (lx.escaped || !KEYWORDS.has(lx.text)) return str(this.#reference(this.#typeName('a type')), offset);
    }
    if (
      (lx.kind === 'punct' && (lx.code === LBRACE || lx.code === AT)) ||
      (lx.kind === 'id' && !lx.escaped)
    ) {
      this.#enter(offset);
      const node = this.#typeDeclaration(false);
      this.#leave();
      return node;
    }
    return this.#fail('a type (a name, or a type declaration)');
  }

  #named(
    doc: string | undefined,
    docOffset: number,
    props: readonly Prop[],
    explicitScope: boolean,
  ): JsonNode {
    const lx = this.#lx;
    const kw = lx.text;
    const kwOffset = lx.offset;
    lx.next();
    const nameOffset = lx.offset;
    if (!this.#atName()) this.#fail(`the name of the ${kw}`);
    const name = lx.text;
    lx.next();
    const obj = object(kwOffset);
    put(obj, 'type', kwOffset, str(kw, kwOffset));
    put(obj, 'name', nameOffset, str(name, nameOffset));
    if (explicitScope && this.#namespace !== '')
      put(obj, 'namespace', kwOffset, str(this.#namespace, kwOffset));
    if (this.#package !== undefined) put(obj, 'package', kwOffset, str(this.#package, kwOffset));
    if (doc !== undefined) put(obj, 'doc', docOffset, str(doc, docOffset));
    switch (kw) {
      case 'record':
        this.#applyProps(obj, props, 'named', NAMED_ATTRIBUTES);
        this.#recordBody(obj);
        break;
      case 'enum':
        this.#enumBody(obj, props);
        break;
      case 'typeref': {
        this.#applyProps(obj, props, 'named', NAMED_ATTRIBUTES);
        const eq = this.#expect(EQUALS, '"=" after the typeref name');
        put(obj, 'ref', eq, this.#typeAssignment());
        break;
      }
      default: {
        this.#applyProps(obj, props, 'named', NAMED_ATTRIBUTES);
        if (lx.kind !== 'number') this.#fail('the size of the fixed type (a number)');
        const size = this.#number();
        put(obj, 'size', size.offset, size);
      }
    }
    return obj;
  }

  #recordBody(obj: MutableObject): void {
    const lx = this.#lx;
    if (lx.isKeyword('includes')) this.#includes(obj);
    const open = this.#expect(LBRACE, '"{" opening the record fields');
    const fields: JsonNode[] = [];
    while (!lx.is(RBRACE)) fields.push(this.#field());
    lx.next();
    put(obj, 'fields', open, { kind: 'array', offset: open, items: fields });
    if (lx.isKeyword('includes') && !obj.map.has('include')) this.#includes(obj);
  }

  #includes(obj: MutableObject): void {
    const kw = this.#lx.offset;
    this.#lx.next();
    const items: JsonNode[] = [this.#typeAssignment()];
    while (this.#startsType()) items.push(this.#typeAssignment());
    put(obj, 'include', kw, { kind: 'array', offset: kw, items });
  }

  /** True when the current token can start a type assignment (for `includes A, B`). */
  #startsType(): boolean {
    const lx = this.#lx;
    if (lx.kind === 'id')
      return lx.escaped || !KEYWORDS.has(lx.text) || lx.text === 'null' || TYPE_KEYWORDS.has(lx.text);
    return lx.is(AT);
  }

  #field(): JsonNode {
    const lx = this.#lx;
    if (lx.kind === 'eof') this.#fail('a field or "}" closing the record');
    const docOffset = lx.docOffset;
    const doc = lx.doc();
    const props = this.#props();
    const nameOffset = lx.offset;
    const name = this.#identifier('a field name');
    const obj = object(nameOffset);
    put(obj, 'name', nameOffset, str(name, nameOffset));
    if (!lx.is(COLON)) this.#fail(`":" after the field name "${name}"`);
    lx.next();
    let optional = -1;
    if (lx.isKeyword('optional')) {
      optional = lx.offset;
      lx.next();
    }
    const type = this.#typeAssignment();
    put(obj, 'type', type.offset, type);
    if (optional >= 0) put(obj, 'optional', optional, { kind: 'boolean', offset: optional, value: true });
    if (doc !== undefined) put(obj, 'doc', docOffset, str(doc, docOffset));
    if (lx.is(EQUALS)) {
      lx.next();
      const value = this.#jsonValue();
      put(obj, 'default', value.offset, value);
    }
    this.#applyProps(obj, props, 'field', FIELD_ATTRIBUTES);
    return obj;
  }

  #enumBody(obj: MutableObject, props: readonly Prop[]): void {
    const lx = this.#lx;
    this.#expect(LBRACE, '"{" opening the enum symbols');
    const symbols: JsonNode[] = [];
    const docs = object(obj.offset);
    const deprecated = object(obj.offset);
    const symbolProps = object(obj.offset);
    while (!lx.is(RBRACE)) {
      if (lx.kind === 'eof') this.#fail('an enum symbol or "}" closing the enum');
      const docOffset = lx.docOffset;
      const doc = lx.doc();
      const symbolPropList = this.#props();
      const symbolOffset = lx.offset;
      const symbol = this.#identifier('an enum symbol');
      symbols.push(str(symbol, symbolOffset));
      if (doc !== undefined) {
        // A symbol given twice with a doc each: the `.pdsc` step reports the key given twice in symbolDocs.
        if (docs.map.has(symbol)) this.duplicatedKeys = true;
        put(docs, symbol, docOffset, str(doc, docOffset));
      }
      for (const p of symbolPropList) {
        if (p.path.length === 1 && p.path[0] === 'deprecated') {
          if (!deprecated.map.has(symbol)) put(deprecated, symbol, p.offset, p.value);
          else this.#report(p.offset, `Property already defined: [deprecated]`);
        } else {
          this.#addAt(symbolProps, [symbol, ...p.path], p.value, p.offset);
        }
      }
    }
    lx.next();
    put(obj, 'symbols', obj.offset, { kind: 'array', offset: obj.offset, items: symbols });
    this.#applyProps(obj, props, 'named', NAMED_ATTRIBUTES);
    const merge = (key: string, built: MutableObject): void => {
      if (built.entries.length === 0) return;
      if (obj.map.has(key)) {
        this.#report(
          obj.map.get(key)!.keyOffset,
          `Conflicting property: [${key}] (also given on the symbols)`,
        );
        return;
      }
      put(obj, key, built.offset, built);
    };
    merge('symbolDocs', docs);
    merge('deprecatedSymbols', deprecated);
    merge('symbolProperties', symbolProps);
  }

  #union(props: readonly Prop[]): JsonNode {
    const lx = this.#lx;
    const kw = lx.offset;
    lx.next();
    if (props.length > 0)
      this.session.warn(
        { source: this.source, path: '', offset: props[0]!.offset },
        'properties on a union are dropped (a union has no properties in the schema model)',
      );
    this.#expect(LBRACKET, '"[" after "union"');
    const items: JsonNode[] = [];
    while (!lx.is(RBRACKET)) {
      if (lx.kind === 'eof') this.#fail('a union member or "]" closing the union');
      items.push(this.#member());
    }
    lx.next();
    const node: JsonArray = { kind: 'array', offset: kw, items };
    return node;
  }

  /** `unionMemberAlias? typeAssignment`: an alias is an identifier followed by `:`. */
  #member(): JsonNode {
    const lx = this.#lx;
    const docOffset = lx.docOffset;
    const doc = lx.doc();
    const restartAt = lx.restartOffset();
    const props = this.#props();
    if (this.#atName()) {
      const alias = lx.text;
      const aliasOffset = lx.offset;
      lx.next();
      if (lx.is(COLON)) {
        lx.next();
        const obj = object(aliasOffset);
        put(obj, 'alias', aliasOffset, str(alias, aliasOffset));
        const type = this.#typeAssignment();
        put(obj, 'type', type.offset, type);
        if (doc !== undefined) put(obj, 'doc', docOffset, str(doc, docOffset));
        this.#applyProps(obj, props, 'member', NO_ATTRIBUTES);
        return obj;
      }
      // Not aliased: read the member again as a type assignment (its properties, if any, belong to its
      // anonymous type declaration).
      lx.restart(restartAt);
    } else if (props.length > 0) {
      lx.restart(restartAt);
    }
    return this.#typeAssignment();
  }

  #collection(kind: 'array' | 'map', props: readonly Prop[]): JsonNode {
    const lx = this.#lx;
    const kw = lx.offset;
    lx.next();
    if (!lx.is(LBRACKET)) this.#fail(`"[" after "${kind}"`);
    lx.next();
    const obj = object(kw);
    put(obj, 'type', kw, str(kind, kw));
    if (kind === 'map') {
      const key = this.#typeAssignment();
      if (key.kind !== 'string' || key.value !== 'string')
        this.#report(key.offset, 'the key type of a map must be string');
      const value = this.#typeAssignment();
      put(obj, 'values', value.offset, value);
    } else {
      const items = this.#typeAssignment();
      put(obj, 'items', items.offset, items);
    }
    if (!lx.is(RBRACKET)) this.#fail(`"]" closing the ${kind} type`);
    lx.next();
    this.#applyProps(obj, props, 'complex', NO_ATTRIBUTES);
    return obj;
  }

  // ---- properties ----

  #props(): readonly Prop[] {
    const lx = this.#lx;
    if (!lx.is(AT)) return NO_PROPS;
    const out: Prop[] = [];
    while (lx.is(AT)) {
      const at = lx.offset;
      // The name follows "@" directly: lex it by the property name rules.
      const path = [lx.propSegment()];
      while (lx.propDot()) path.push(lx.propSegment());
      lx.next();
      let value: JsonNode = { kind: 'boolean', offset: at, value: true };
      if (lx.is(EQUALS)) {
        lx.next();
        value = this.#jsonValue();
      }
      out.push({ path, value, offset: at });
    }
    return out;
  }

  /** Adds properties to `obj`; single-segment `attributes` are the schema's own (`aliases`, `order`). */
  #applyProps(
    obj: MutableObject,
    props: readonly Prop[],
    where: keyof typeof RESERVED,
    attributes: readonly string[],
  ): void {
    for (const p of props) {
      const root = p.path[0]!;
      if (p.path.length === 1 && attributes.includes(root)) {
        if (obj.map.has(root)) this.#report(p.offset, `Property already defined: [${root}]`);
        else put(obj, root, p.offset, p.value);
        continue;
      }
      if (RESERVED[where]!.has(root) || attributes.includes(root)) {
        this.#report(
          p.offset,
          `property "@${p.path.join('.')}" names a schema attribute and cannot be written here`,
        );
        continue;
      }
      this.#addAt(obj, p.path, p.value, p.offset);
    }
  }

  #addAt(obj: MutableObject, path: readonly string[], value: JsonNode, offset: number): void {
    let current = obj;
    for (let i = 0; i < path.length; i++) {
      const key = path[i]!;
      const existing = current.map.get(key);
      if (i === path.length - 1) {
        if (existing !== undefined) this.#report(offset, `Property already defined: [${path.join(', ')}]`);
        else put(current, key, offset, value);
        return;
      }
      if (existing === undefined) {
        const next = object(offset);
        put(current, key, offset, next);
        current = next;
      } else if (existing.value.kind === 'object' && isMutable(existing.value)) {
        current = existing.value;
      } else {
        this.#report(offset, `Conflicting property: [${path.join(', ')}]`);
        return;
      }
    }
  }

  // ---- JSON values ----

  #jsonValue(): JsonNode {
    const lx = this.#lx;
    const offset = lx.offset;
    switch (lx.kind) {
      case 'string': {
        const value = lx.text;
        lx.next();
        return str(value, offset);
      }
      case 'number':
        return this.#number();
      case 'id':
        if (!lx.escaped && (lx.text === 'true' || lx.text === 'false')) {
          const value = lx.text === 'true';
          lx.next();
          return { kind: 'boolean', offset, value };
        }
        if (!lx.escaped && lx.text === 'null') {
          lx.next();
          return { kind: 'null', offset };
        }
        break;
      case 'punct':
        if (lx.code === LBRACE) return this.#jsonObject();
        if (lx.code === LBRACKET) return this.#jsonArray();
        break;
      default:
    }
    return this.#fail('a JSON value (string, number, object, array, true, false or null)');
  }

  /** The current number token, moved past (before its range is checked, as a token error comes first). */
  #number(): JsonNode {
    const lx = this.#lx;
    const text = lx.text;
    const offset = lx.offset;
    const integral = lx.integral;
    lx.next();
    const value = Number(text);
    if (!Number.isFinite(value)) throw new PdlSyntax(`Number ${text} is outside the double range`, offset);
    if (integral && (value > SAFE || value < -SAFE)) {
      const big = BigInt(text);
      if (big >= LONG_MIN && big <= LONG_MAX) return { kind: 'number', offset, value: big, integral };
    }
    return { kind: 'number', offset, value, integral };
  }

  #jsonObject(): JsonObject {
    const lx = this.#lx;
    const open = lx.offset;
    lx.next();
    this.#enter(open);
    const obj = object(open);
    while (!lx.is(RBRACE)) {
      if (lx.kind !== 'string') this.#fail('a string key or "}" closing the JSON object');
      const key = lx.text;
      const keyOffset = lx.offset;
      lx.next();
      this.#expect(COLON, '":" after the JSON object key');
      const value = this.#jsonValue();
      // The reference's PDL parser keeps the last of a key given twice in a JSON value (real schemas do it).
      const previous = obj.map.get(key);
      if (previous !== undefined) obj.entries.splice(obj.entries.indexOf(previous), 1);
      put(obj, key, keyOffset, value);
    }
    lx.next();
    this.#leave();
    return { kind: 'object', offset: obj.offset, entries: obj.entries, map: obj.map };
  }

  #jsonArray(): JsonArray {
    const lx = this.#lx;
    const open = lx.offset;
    lx.next();
    this.#enter(open);
    const items: JsonNode[] = [];
    while (!lx.is(RBRACKET)) {
      if (lx.kind === 'eof') this.#fail('a JSON value or "]" closing the JSON array');
      items.push(this.#jsonValue());
    }
    lx.next();
    this.#leave();
    return { kind: 'array', offset: open, items };
  }
}

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const TYPE_KEYWORDS = new Set(['record', 'enum', 'typeref', 'fixed', 'union', 'array', 'map']);
const NAMED_KEYWORDS = new Set(['record', 'enum', 'typeref', 'fixed']);

/** Every object node is built here, so each one may still take entries (`@a = {...}` then `@a.b = 1`). */
function isMutable(node: JsonObject): node is MutableObject {
  return node.map instanceof Map;
}

/** The current token, for "expected ... but found ...". */
function describe(lx: PdlLexer): string {
  switch (lx.kind) {
    case 'eof':
      return 'the end of the text';
    case 'string':
      return `string ${JSON.stringify(lx.text)}`;
    case 'number':
      return `number ${lx.text}`;
    case 'id':
      return lx.escaped ? `\`${lx.text}\`` : `"${lx.text}"`;
    default:
      return `"${String.fromCharCode(lx.code)}"`;
  }
}

/** True when `name` could be a reference written in PDL (for the writer). */
export function isPdlName(name: string): boolean {
  return isValidName(name) && name.split('.').every((s) => !KEYWORDS.has(s));
}
