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
 */
import type { DataSchema } from '../data-schema';
import { MAX_NESTING_DEPTH } from '../../data/limits';
import type { JsonArray, JsonEntry, JsonNode, JsonObject } from '../json-locations';
import { isValidName } from '../schema-names';
import { parseNodes, type ParseSession, type Source } from '../schema-parser';
import { PdlLexer, PdlSyntax, type PdlToken, KEYWORDS } from './pdl-lexer';

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

interface Scope {
  namespace: string;
  package: string | undefined;
}

/** Parses one PDL text into the session; returns its top-level schema (one, as PDL holds one per file). */
export function parsePdlSource(session: ParseSession, text: string, file: string | undefined): DataSchema[] {
  const source = session.addSource(file, text);
  let node: JsonNode;
  try {
    node = new PdlTextParser(session, source, text).document();
  } catch (err) {
    if (!(err instanceof PdlSyntax)) throw err;
    session.report({ source, path: '', offset: err.offset }, err.message);
    return [];
  }
  return parseNodes(session, source, [node]);
}

class PdlTextParser {
  readonly #lexer: PdlLexer;
  #tok: PdlToken;
  #imports = new Map<string, string>();
  #scope: Scope = { namespace: '', package: undefined };
  #depth = 0;

  constructor(
    private readonly session: ParseSession,
    private readonly source: Source,
    text: string,
  ) {
    this.#lexer = new PdlLexer(text);
    this.#tok = this.#lexer.next();
  }

  // ---- tokens ----

  #advance(): PdlToken {
    const t = this.#tok;
    this.#tok = this.#lexer.next();
    return t;
  }

  #isPunct(p: string): boolean {
    return this.#tok.kind === 'punct' && this.#tok.text === p;
  }

  #isKeyword(k: string): boolean {
    return this.#tok.kind === 'id' && !this.#tok.escaped && this.#tok.text === k;
  }

  #fail(expected: string, at: PdlToken = this.#tok): never {
    throw new PdlSyntax(`expected ${expected} but found ${describe(at)}`, at.offset);
  }

  #expectPunct(p: string, expected = `"${p}"`): PdlToken {
    if (!this.#isPunct(p)) this.#fail(expected);
    return this.#advance();
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

  /** `ID` that is not a keyword (unless escaped). */
  #identifier(what: string): PdlToken {
    const t = this.#tok;
    if (t.kind !== 'id' || (!t.escaped && KEYWORDS.has(t.text))) this.#fail(what);
    return this.#advance();
  }

  /** `ID (. ID)*`. */
  #typeName(what: string): { name: string; offset: number } {
    const first = this.#identifier(what);
    let name = first.text;
    while (this.#isPunct('.')) {
      this.#advance();
      name += `.${this.#identifier(`a name segment after "." in ${what}`).text}`;
    }
    return { name, offset: first.offset };
  }

  // ---- document ----

  document(): JsonNode {
    if (this.#isKeyword('namespace')) {
      this.#advance();
      this.#scope.namespace = this.#typeName('a namespace').name;
    }
    if (this.#isKeyword('package')) {
      this.#advance();
      this.#scope.package = this.#typeName('a package').name;
    }
    const bySimple = new Map<string, string>();
    while (this.#isKeyword('import')) {
      this.#advance();
      const { name, offset } = this.#typeName('an imported type name');
      const dot = name.lastIndexOf('.');
      const ns = dot < 0 ? '' : name.slice(0, dot);
      const simple = name.slice(dot + 1);
      if (ns === this.#scope.namespace) {
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
    if (this.#tok.kind !== 'eof') this.#fail('the end of the text (a .pdl file holds one type declaration)');
    return node;
  }

  /** `scopedNamedTypeDeclaration | namedTypeDeclaration | anonymousTypeDeclaration`. */
  #typeDeclaration(topLevel: boolean): JsonNode {
    if (this.#isPunct('{')) return this.#scoped();
    const doc = this.#tok.doc;
    const docOffset = this.#tok.docOffset;
    const props = this.#props();
    const t = this.#tok;
    if (t.kind === 'id' && !t.escaped) {
      switch (t.text) {
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
    const open = this.#advance();
    this.#enter(open.offset);
    const saved = { ...this.#scope };
    if (this.#isKeyword('namespace')) {
      this.#advance();
      this.#scope.namespace = this.#typeName('a namespace').name;
    }
    if (this.#isKeyword('package')) {
      this.#advance();
      this.#scope.package = this.#typeName('a package').name;
    }
    const doc = this.#tok.doc;
    const docOffset = this.#tok.docOffset;
    const props = this.#props();
    const t = this.#tok;
    if (t.kind !== 'id' || t.escaped || !['record', 'enum', 'typeref', 'fixed'].includes(t.text))
      this.#fail('a named type declaration (record, enum, typeref or fixed) in a namespace scope');
    const node = this.#named(doc, docOffset, props, true);
    this.#expectPunct('}', '"}" closing the namespace scope');
    this.#scope = saved;
    this.#leave();
    return node;
  }

  /** A name used as a type: its full name, as the reference computes it. */
  #reference(name: string): string {
    if (name === 'null' || name.includes('.')) return name;
    if (PRIMITIVES.has(name)) return name;
    const imported = this.#imports.get(name);
    if (imported !== undefined) return imported;
    return this.#scope.namespace === '' ? name : `${this.#scope.namespace}.${name}`;
  }

  /** `typeReference | typeDeclaration`. */
  #typeAssignment(): JsonNode {
    const t = this.#tok;
    if (t.kind === 'id' && !t.escaped && t.text === 'null') {
      this.#advance();
      return str('null', t.offset);
    }
    if (t.kind === 'id' && (t.escaped || !KEYWORDS.has(t.text))) {
      const { name, offset } = this.#typeName('a type');
      return str(this.#reference(name), offset);
    }
    if ((t.kind === 'punct' && (t.text === '{' || t.text === '@')) || (t.kind === 'id' && !t.escaped)) {
      this.#enter(t.offset);
      const node = this.#typeDeclaration(false);
      this.#leave();
      return node;
    }
    return this.#fail('a type (a name, or a type declaration)');
  }

  #named(doc: string | undefined, docOffset: number, props: Prop[], explicitScope: boolean): JsonNode {
    const kw = this.#advance();
    const name = this.#identifier(`the name of the ${kw.text}`);
    const obj = object(kw.offset);
    put(obj, 'type', kw.offset, str(kw.text, kw.offset));
    put(obj, 'name', name.offset, str(name.text, name.offset));
    if (explicitScope && this.#scope.namespace !== '')
      put(obj, 'namespace', kw.offset, str(this.#scope.namespace, kw.offset));
    if (this.#scope.package !== undefined)
      put(obj, 'package', kw.offset, str(this.#scope.package, kw.offset));
    if (doc !== undefined) put(obj, 'doc', docOffset, str(doc, docOffset));
    switch (kw.text) {
      case 'record':
        this.#applyProps(obj, props, 'named', ['aliases']);
        this.#recordBody(obj);
        break;
      case 'enum':
        this.#enumBody(obj, props);
        break;
      case 'typeref': {
        this.#applyProps(obj, props, 'named', ['aliases']);
        const eq = this.#expectPunct('=', '"=" after the typeref name');
        put(obj, 'ref', eq.offset, this.#typeAssignment());
        break;
      }
      default: {
        this.#applyProps(obj, props, 'named', ['aliases']);
        const size = this.#tok;
        if (size.kind !== 'number') this.#fail('the size of the fixed type (a number)');
        this.#advance();
        put(obj, 'size', size.offset, this.#number(size));
      }
    }
    return obj;
  }

  #recordBody(obj: MutableObject): void {
    if (this.#isKeyword('includes')) this.#includes(obj);
    const open = this.#expectPunct('{', '"{" opening the record fields');
    const fields: JsonNode[] = [];
    while (!this.#isPunct('}')) fields.push(this.#field());
    this.#advance();
    put(obj, 'fields', open.offset, { kind: 'array', offset: open.offset, items: fields });
    if (this.#isKeyword('includes') && !obj.map.has('include')) this.#includes(obj);
  }

  #includes(obj: MutableObject): void {
    const kw = this.#advance();
    const items: JsonNode[] = [this.#typeAssignment()];
    while (this.#startsType()) items.push(this.#typeAssignment());
    put(obj, 'include', kw.offset, { kind: 'array', offset: kw.offset, items });
  }

  /** True when the current token can start a type assignment (for `includes A, B`). */
  #startsType(): boolean {
    const t = this.#tok;
    if (t.kind === 'id')
      return t.escaped || !KEYWORDS.has(t.text) || t.text === 'null' || TYPE_KEYWORDS.has(t.text);
    return t.kind === 'punct' && t.text === '@';
  }

  #field(): JsonNode {
    const doc = this.#tok.doc;
    const docOffset = this.#tok.docOffset;
    if (this.#tok.kind === 'eof') this.#fail('a field or "}" closing the record');
    const props = this.#props();
    const name = this.#identifier('a field name');
    const obj = object(name.offset);
    put(obj, 'name', name.offset, str(name.text, name.offset));
    this.#expectPunct(':', `":" after the field name "${name.text}"`);
    const optional = this.#isKeyword('optional') ? this.#advance() : undefined;
    const type = this.#typeAssignment();
    put(obj, 'type', type.offset, type);
    if (optional !== undefined)
      put(obj, 'optional', optional.offset, { kind: 'boolean', offset: optional.offset, value: true });
    if (doc !== undefined) put(obj, 'doc', docOffset, str(doc, docOffset));
    if (this.#isPunct('=')) {
      this.#advance();
      const value = this.#jsonValue();
      put(obj, 'default', value.offset, value);
    }
    this.#applyProps(obj, props, 'field', ['aliases', 'order']);
    return obj;
  }

  #enumBody(obj: MutableObject, props: Prop[]): void {
    this.#expectPunct('{', '"{" opening the enum symbols');
    const symbols: JsonNode[] = [];
    const docs = object(obj.offset);
    const deprecated = object(obj.offset);
    const symbolProps = object(obj.offset);
    while (!this.#isPunct('}')) {
      if (this.#tok.kind === 'eof') this.#fail('an enum symbol or "}" closing the enum');
      const doc = this.#tok.doc;
      const docOffset = this.#tok.docOffset;
      const symbolPropList = this.#props();
      const symbol = this.#identifier('an enum symbol');
      symbols.push(str(symbol.text, symbol.offset));
      if (doc !== undefined) put(docs, symbol.text, docOffset, str(doc, docOffset));
      for (const p of symbolPropList) {
        if (p.path.length === 1 && p.path[0] === 'deprecated') {
          if (!deprecated.map.has(symbol.text)) put(deprecated, symbol.text, p.offset, p.value);
          else this.#report(p.offset, `Property already defined: [deprecated]`);
        } else {
          this.#addAt(symbolProps, [symbol.text, ...p.path], p.value, p.offset);
        }
      }
    }
    this.#advance();
    put(obj, 'symbols', obj.offset, { kind: 'array', offset: obj.offset, items: symbols });
    this.#applyProps(obj, props, 'named', ['aliases']);
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

  #union(props: Prop[]): JsonNode {
    const kw = this.#advance();
    if (props.length > 0)
      this.session.warn(
        { source: this.source, path: '', offset: props[0]!.offset },
        'properties on a union are dropped (a union has no properties in the schema model)',
      );
    this.#expectPunct('[', '"[" after "union"');
    const items: JsonNode[] = [];
    while (!this.#isPunct(']')) {
      if (this.#tok.kind === 'eof') this.#fail('a union member or "]" closing the union');
      items.push(this.#member());
    }
    this.#advance();
    const node: JsonArray = { kind: 'array', offset: kw.offset, items };
    return node;
  }

  /** `unionMemberAlias? typeAssignment`: an alias is an identifier followed by `:`. */
  #member(): JsonNode {
    const doc = this.#tok.doc;
    const docOffset = this.#tok.docOffset;
    const start = this.#saveState();
    const props = this.#props();
    const id = this.#tok;
    if (id.kind === 'id' && (id.escaped || !KEYWORDS.has(id.text))) {
      const afterProps = this.#saveState();
      this.#advance();
      if (this.#isPunct(':')) {
        this.#advance();
        const obj = object(id.offset);
        put(obj, 'alias', id.offset, str(id.text, id.offset));
        const type = this.#typeAssignment();
        put(obj, 'type', type.offset, type);
        if (doc !== undefined) put(obj, 'doc', docOffset, str(doc, docOffset));
        this.#applyProps(obj, props, 'member', []);
        return obj;
      }
      this.#restoreState(afterProps);
    }
    // Not aliased: properties before the member belong to its (anonymous) type declaration.
    if (props.length > 0) this.#restoreState(start);
    return this.#typeAssignment();
  }

  #collection(kind: 'array' | 'map', props: Prop[]): JsonNode {
    const kw = this.#advance();
    this.#expectPunct('[', `"[" after "${kind}"`);
    const obj = object(kw.offset);
    put(obj, 'type', kw.offset, str(kind, kw.offset));
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
    this.#expectPunct(']', `"]" closing the ${kind} type`);
    this.#applyProps(obj, props, 'complex', []);
    return obj;
  }

  // ---- properties ----

  #props(): Prop[] {
    const out: Prop[] = [];
    while (this.#isPunct('@')) {
      const at = this.#tok;
      // The name follows "@" directly: lex it by the property name rules.
      const path = [this.#lexer.propSegment().value];
      while (this.#lexer.peekChar('.')) {
        this.#lexer.advance();
        path.push(this.#lexer.propSegment().value);
      }
      this.#tok = this.#lexer.next();
      let value: JsonNode = { kind: 'boolean', offset: at.offset, value: true };
      if (this.#isPunct('=')) {
        this.#advance();
        value = this.#jsonValue();
      }
      out.push({ path, value, offset: at.offset });
    }
    return out;
  }

  /** Adds properties to `obj`; single-segment `attributes` are the schema's own (`aliases`, `order`). */
  #applyProps(obj: MutableObject, props: Prop[], where: keyof typeof RESERVED, attributes: string[]): void {
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
    const t = this.#tok;
    switch (t.kind) {
      case 'string':
        this.#advance();
        return str(t.text, t.offset);
      case 'number':
        this.#advance();
        return this.#number(t);
      case 'id':
        if (!t.escaped && (t.text === 'true' || t.text === 'false')) {
          this.#advance();
          return { kind: 'boolean', offset: t.offset, value: t.text === 'true' };
        }
        if (!t.escaped && t.text === 'null') {
          this.#advance();
          return { kind: 'null', offset: t.offset };
        }
        break;
      case 'punct':
        if (t.text === '{') return this.#jsonObject();
        if (t.text === '[') return this.#jsonArray();
        break;
      default:
    }
    return this.#fail('a JSON value (string, number, object, array, true, false or null)');
  }

  #number(t: PdlToken): JsonNode {
    const integral = !/[.eE]/.test(t.text);
    const value = Number(t.text);
    if (!Number.isFinite(value))
      throw new PdlSyntax(`Number ${t.text} is outside the double range`, t.offset);
    if (integral && (value > SAFE || value < -SAFE)) {
      const big = BigInt(t.text);
      if (big >= LONG_MIN && big <= LONG_MAX)
        return { kind: 'number', offset: t.offset, value: big, integral };
    }
    return { kind: 'number', offset: t.offset, value, integral };
  }

  #jsonObject(): JsonObject {
    const open = this.#advance();
    this.#enter(open.offset);
    const obj = object(open.offset);
    while (!this.#isPunct('}')) {
      const key = this.#tok;
      if (key.kind !== 'string') this.#fail('a string key or "}" closing the JSON object');
      this.#advance();
      this.#expectPunct(':', '":" after the JSON object key');
      const value = this.#jsonValue();
      // The reference's PDL parser keeps the last of a key given twice in a JSON value (real schemas do it).
      const previous = obj.map.get(key.text);
      if (previous !== undefined) obj.entries.splice(obj.entries.indexOf(previous), 1);
      put(obj, key.text, key.offset, value);
    }
    this.#advance();
    this.#leave();
    return { kind: 'object', offset: obj.offset, entries: obj.entries, map: obj.map };
  }

  #jsonArray(): JsonArray {
    const open = this.#advance();
    this.#enter(open.offset);
    const items: JsonNode[] = [];
    while (!this.#isPunct(']')) {
      if (this.#tok.kind === 'eof') this.#fail('a JSON value or "]" closing the JSON array');
      items.push(this.#jsonValue());
    }
    this.#advance();
    this.#leave();
    return { kind: 'array', offset: open.offset, items };
  }

  // ---- backtracking for union member aliases ----

  #saveState(): { tok: PdlToken; pos: number } {
    return { tok: this.#tok, pos: this.#lexer.position };
  }

  #restoreState(state: { tok: PdlToken; pos: number }): void {
    this.#tok = state.tok;
    this.#lexer.seek(state.pos);
  }
}

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const TYPE_KEYWORDS = new Set(['record', 'enum', 'typeref', 'fixed', 'union', 'array', 'map']);

/** Every object node is built here, so each one may still take entries (`@a = {...}` then `@a.b = 1`). */
function isMutable(node: JsonObject): node is MutableObject {
  return node.map instanceof Map;
}

function describe(t: PdlToken): string {
  switch (t.kind) {
    case 'eof':
      return 'the end of the text';
    case 'string':
      return `string ${JSON.stringify(t.text)}`;
    case 'number':
      return `number ${t.text}`;
    case 'id':
      return t.escaped ? `\`${t.text}\`` : `"${t.text}"`;
    default:
      return `"${t.text}"`;
  }
}

/** True when `name` could be a reference written in PDL (for the writer). */
export function isPdlName(name: string): boolean {
  return isValidName(name) && name.split('.').every((s) => !KEYWORDS.has(s));
}
