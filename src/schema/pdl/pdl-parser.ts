/**
 * The PDL parser (Rest.li's `.pdl` syntax, grammar `Pdl.g4`, semantics `PdlSchemaParser.java`, rest.li
 * 29.x). It translates the text into the same located JSON nodes that the `.pdsc` scanner produces (offsets
 * pointing into the PDL text), then builds the schemas from them with the rules of the `.pdsc` parser: by
 * the PDL model builder (pdl-model.ts, which knows the nodes' shape) for a plain text, or by the `.pdsc`
 * parser's generic step 1 (`parseNodes`) when a property names an attribute the model reads (`@doc`,
 * `@symbolDocs`...) or a key is given twice. Either way both syntaxes share every rule of the schema model
 * (names, includes, unions, defaults, leniency warnings and `strict`; test/schema/pdl/pdl-model.test.ts
 * holds the two ways equal), and a problem is reported at its place in the `.pdl` file.
 *
 * What is PDL's own, and done here:
 * - names: a simple name is the imported one when imported, else in the current namespace (no fallback to
 *   the name as given, unlike `.pdsc`); imports from the root namespace and imports whose simple names clash
 *   are refused, as the reference does;
 * - `{ namespace x package y record ... }` scopes; a top-level `package` applies to every named type;
 * - properties: `@a.b.c = v` builds nested maps (`Conflicting property` / `Property already defined`), a
 *   property without a value is `true`; `@aliases` on named types and fields and `@order` on fields are
 *   attributes; on an enum symbol, its doc comment goes to `symbolDocs`, `@deprecated` to
 *   `deprecatedSymbols` and any other property to `symbolProperties`; a union's properties (which `.pdsc`
 *   cannot write) go to the union schema;
 * - doc comments become `doc`; escaped identifiers (`` `record` ``) are names, never keywords.
 *
 * A syntax error stops the parse of that text (one problem: file, line, column, what was expected); the
 * problems found by the model rules are collected like those of a `.pdsc` text.
 *
 * Speed (the goal: PDL parses at least as fast as `.pdsc`, bench/pdl.bench.ts): the lexer keeps the
 * current token in its fields rather than in objects, error messages are built only when an error is
 * thrown, the nodes are built without a key given twice (every attribute and property is checked as it is
 * added, so no walk looks for duplicated keys) and without a key map unless one is asked for, and the model
 * builder reads them once, in order.
 */
import type { DataSchema } from '../data-schema';
import { MAX_NESTING_DEPTH } from '../../data/limits';
import type { JsonArray, JsonEntry, JsonNode, JsonObject } from '../json-locations';
import { isValidName } from '../schema-names';
import { parseNodes, type ParseSession, type Source } from '../schema-parser';
import { STATE, readOnlyProperties } from '../internal';
import { keepClassAlive } from './keep-classes';
import { buildPdlSchema, sortedProperties } from './pdl-model';
import {
  AT,
  COLON,
  DOT,
  EQUALS,
  QUESTION,
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
  union: new Set(),
};

/**
 * Property names that the model reads as attributes in that place (or reports there, or that would make a
 * union member look aliased): a text with one is built by the `.pdsc` step, which handles every such case,
 * rather than by the PDL model builder (pdl-model.ts), which covers the plain texts. `@aliases`, `@order`,
 * `@deprecated` (with one segment) and a typeref's `@java` are plain in this sense: the builder reads them.
 */
const GENERIC: Record<string, ReadonlySet<string>> = {
  named: new Set(['doc', 'symbolDocs', 'deprecatedSymbols', 'items', 'values', 'alias']),
  field: new Set(['doc']),
  member: new Set(['doc']),
  union: new Set(),
  complex: new Set([
    'name',
    'namespace',
    'package',
    'aliases',
    'fields',
    'include',
    'symbols',
    'symbolDocs',
    'deprecatedSymbols',
    'size',
    'ref',
    'alias',
  ]),
};

/**
 * An object node that may still take entries (`@a = {...}` then `@a.b = 1`). Its key map, which only the
 * `.pdsc` step and large JSON objects need, is built on first use: the PDL model builder reads the entries
 * in order, and the parser's own lookups are in objects of a few keys.
 */
class PdlObject implements JsonObject {
  readonly kind = 'object';
  readonly entries: JsonEntry[] = [];
  #map: Map<string, JsonEntry> | undefined = undefined;

  constructor(readonly offset: number) {}

  get map(): ReadonlyMap<string, JsonEntry> {
    if (this.#map === undefined) {
      this.#map = new Map();
      for (const e of this.entries) this.#map.set(e.key, e);
    }
    return this.#map;
  }

  /** The entry of `key` (the last one, as in {@link map}). */
  get(key: string): JsonEntry | undefined {
    const entries = this.entries;
    if (this.#map !== undefined || entries.length > 8) return this.map.get(key);
    for (let k = entries.length - 1; k >= 0; k--) if (entries[k]!.key === key) return entries[k];
    return undefined;
  }

  put(key: string, keyOffset: number, value: JsonNode): void {
    const entry: JsonEntry = { key, keyOffset, value };
    this.entries.push(entry);
    this.#map?.set(key, entry);
  }
}

function str(value: string, offset: number): JsonNode {
  return { kind: 'string', offset, value };
}

interface Prop {
  readonly path: string[];
  readonly value: JsonNode;
  readonly offset: number;
}

/**
 * Parses one PDL text into the session; returns its top-level schema (one, as PDL holds one per file).
 * `generic` sends every text through the `.pdsc` step (tests compare both ways of building).
 */
export function parsePdlSource(
  session: ParseSession,
  text: string,
  file: string | undefined,
  generic = false,
): DataSchema[] {
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
  // A plain text (the usual case) is built by the PDL model builder; the others by the `.pdsc` step.
  if (!generic && !parser.generic) return buildPdlSchema(session, source, node, parser.unionProperties);
  const first = session.unions.length;
  const tops = parseNodes(session, source, [node], parser.duplicatedKeys);
  if (parser.unionProperties.size > 0) {
    for (let k = first; k < session.unions.length; k++) {
      const { schema, site } = session.unions[k]!;
      const props = site.source === source ? parser.unionProperties.get(site.offset) : undefined;
      if (props !== undefined) schema[STATE].properties = readOnlyProperties(sortedProperties(props));
    }
  }
  return tops;
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
  /**
   * The nodes must go through the `.pdsc` parser's generic step rather than the PDL model builder: a key is
   * given twice, or a property is named like an attribute the model reads in its place (see GENERIC).
   */
  generic = false;
  /** The properties of the unions (`@p = 1 union[...]`), by the offset of their `union` keyword. */
  readonly unionProperties = new Map<number, JsonObject>();

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
    const obj = new PdlObject(kwOffset);
    obj.put('type', kwOffset, str(kw, kwOffset));
    obj.put('name', nameOffset, str(name, nameOffset));
    if (explicitScope && this.#namespace !== '')
      obj.put('namespace', kwOffset, str(this.#namespace, kwOffset));
    if (this.#package !== undefined) obj.put('package', kwOffset, str(this.#package, kwOffset));
    if (doc !== undefined) obj.put('doc', docOffset, str(doc, docOffset));
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
        obj.put('ref', eq, this.#typeAssignment());
        break;
      }
      default: {
        this.#applyProps(obj, props, 'named', NAMED_ATTRIBUTES);
        if (lx.kind !== 'number') this.#fail('the size of the fixed type (a number)');
        const size = this.#number();
        obj.put('size', size.offset, size);
      }
    }
    return obj;
  }

  #recordBody(obj: PdlObject): void {
    const lx = this.#lx;
    if (lx.isKeyword('includes')) this.#includes(obj);
    const open = this.#expect(LBRACE, '"{" opening the record fields');
    const fields: JsonNode[] = [];
    while (!lx.is(RBRACE)) fields.push(this.#field());
    lx.next();
    obj.put('fields', open, { kind: 'array', offset: open, items: fields });
    if (lx.isKeyword('includes') && obj.get('include') === undefined) this.#includes(obj);
  }

  #includes(obj: PdlObject): void {
    const kw = this.#lx.offset;
    this.#lx.next();
    const items: JsonNode[] = [this.#typeAssignment()];
    while (this.#startsType()) items.push(this.#typeAssignment());
    obj.put('include', kw, { kind: 'array', offset: kw, items });
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
    const obj = new PdlObject(nameOffset);
    obj.put('name', nameOffset, str(name, nameOffset));
    if (!lx.is(COLON)) this.#fail(`":" after the field name "${name}"`);
    lx.next();
    let optional = -1;
    if (lx.isKeyword('optional')) {
      optional = lx.offset;
      lx.next();
    }
    const type = this.#typeAssignment();
    obj.put('type', type.offset, type);
    // `name: Type?` is the first PDL grammar's spelling of `name: optional Type` (still in older trees)
    if (lx.is(QUESTION)) {
      if (optional >= 0) this.#fail(`"=" or the next field ("?" repeats "optional" on the field "${name}")`);
      optional = lx.offset;
      lx.next();
    }
    if (optional >= 0) obj.put('optional', optional, { kind: 'boolean', offset: optional, value: true });
    if (doc !== undefined) obj.put('doc', docOffset, str(doc, docOffset));
    if (lx.is(EQUALS)) {
      lx.next();
      const value = this.#jsonValue();
      obj.put('default', value.offset, value);
    }
    this.#applyProps(obj, props, 'field', FIELD_ATTRIBUTES);
    return obj;
  }

  #enumBody(obj: PdlObject, props: readonly Prop[]): void {
    const lx = this.#lx;
    this.#expect(LBRACE, '"{" opening the enum symbols');
    const symbols: JsonNode[] = [];
    const docs = new PdlObject(obj.offset);
    const deprecated = new PdlObject(obj.offset);
    const symbolProps = new PdlObject(obj.offset);
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
        if (docs.get(symbol) !== undefined) this.duplicatedKeys = this.generic = true;
        docs.put(symbol, docOffset, str(doc, docOffset));
      }
      for (const p of symbolPropList) {
        if (p.path.length === 1 && p.path[0] === 'deprecated') {
          if (deprecated.get(symbol) === undefined) deprecated.put(symbol, p.offset, p.value);
          else this.#report(p.offset, `Property already defined: [deprecated]`);
        } else {
          this.#addAt(symbolProps, [symbol, ...p.path], p.value, p.offset);
        }
      }
    }
    lx.next();
    obj.put('symbols', obj.offset, { kind: 'array', offset: obj.offset, items: symbols });
    this.#applyProps(obj, props, 'named', NAMED_ATTRIBUTES);
    const merge = (key: string, built: PdlObject): void => {
      if (built.entries.length === 0) return;
      const given = obj.get(key);
      if (given !== undefined) {
        this.#report(given.keyOffset, `Conflicting property: [${key}] (also given on the symbols)`);
        return;
      }
      obj.put(key, built.offset, built);
    };
    merge('symbolDocs', docs);
    merge('deprecatedSymbols', deprecated);
    merge('symbolProperties', symbolProps);
  }

  #union(props: readonly Prop[]): JsonNode {
    const lx = this.#lx;
    const kw = lx.offset;
    lx.next();
    if (props.length > 0) {
      // A union is a JSON array in `.pdsc`, with no place for properties: they go to the schema beside the
      // nodes (see unionProperties).
      const obj = new PdlObject(kw);
      this.#applyProps(obj, props, 'union', NO_ATTRIBUTES);
      if (obj.entries.length > 0) this.unionProperties.set(kw, obj);
    }
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
        const obj = new PdlObject(aliasOffset);
        obj.put('alias', aliasOffset, str(alias, aliasOffset));
        const type = this.#typeAssignment();
        obj.put('type', type.offset, type);
        if (doc !== undefined) obj.put('doc', docOffset, str(doc, docOffset));
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
    const obj = new PdlObject(kw);
    obj.put('type', kw, str(kind, kw));
    if (kind === 'map') {
      const key = this.#typeAssignment();
      if (key.kind !== 'string' || key.value !== 'string')
        this.#report(key.offset, 'the key type of a map must be string');
      const value = this.#typeAssignment();
      obj.put('values', value.offset, value);
    } else {
      const items = this.#typeAssignment();
      obj.put('items', items.offset, items);
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
    obj: PdlObject,
    props: readonly Prop[],
    where: keyof typeof RESERVED,
    attributes: readonly string[],
  ): void {
    for (const p of props) {
      const root = p.path[0]!;
      if (p.path.length === 1 && attributes.includes(root)) {
        if (obj.get(root) !== undefined) this.#report(p.offset, `Property already defined: [${root}]`);
        else obj.put(root, p.offset, p.value);
        continue;
      }
      if (RESERVED[where]!.has(root) || attributes.includes(root)) {
        this.#report(
          p.offset,
          `property "@${p.path.join('.')}" names a schema attribute and cannot be written here`,
        );
        continue;
      }
      if (GENERIC[where]!.has(root) || (root === 'deprecated' && p.path.length > 1)) this.generic = true;
      this.#addAt(obj, p.path, p.value, p.offset);
    }
  }

  #addAt(obj: PdlObject, path: readonly string[], value: JsonNode, offset: number): void {
    let current = obj;
    for (let i = 0; i < path.length; i++) {
      const key = path[i]!;
      const existing = current.get(key);
      if (i === path.length - 1) {
        if (existing !== undefined) this.#report(offset, `Property already defined: [${path.join(', ')}]`);
        else current.put(key, offset, value);
        return;
      }
      if (existing === undefined) {
        const next = new PdlObject(offset);
        current.put(key, offset, next);
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
    const obj = new PdlObject(open);
    while (!lx.is(RBRACE)) {
      if (lx.kind !== 'string') this.#fail('a string key or "}" closing the JSON object');
      const key = lx.text;
      const keyOffset = lx.offset;
      lx.next();
      this.#expect(COLON, '":" after the JSON object key');
      const value = this.#jsonValue();
      // The reference's PDL parser keeps the last of a key given twice in a JSON value (real schemas do it).
      const previous = obj.get(key);
      if (previous !== undefined) obj.entries.splice(obj.entries.indexOf(previous), 1);
      obj.put(key, keyOffset, value);
    }
    lx.next();
    this.#leave();
    return obj;
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

// One parser and one node that never die, so that their hidden classes outlive full GCs (see
// keep-classes.ts); the parser is never used.
keepClassAlive(new PdlTextParser(undefined as unknown as ParseSession, undefined as unknown as Source, ''));
const anchorNode = new PdlObject(0);
anchorNode.put('k', 0, { kind: 'null', offset: 0 });
void anchorNode.map;
keepClassAlive(anchorNode);

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const TYPE_KEYWORDS = new Set(['record', 'enum', 'typeref', 'fixed', 'union', 'array', 'map']);
const NAMED_KEYWORDS = new Set(['record', 'enum', 'typeref', 'fixed']);

/** Every object node is built here, so each one may still take entries (`@a = {...}` then `@a.b = 1`). */
function isMutable(node: JsonObject): node is PdlObject {
  return node instanceof PdlObject;
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
