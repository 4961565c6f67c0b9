/**
 * Naming rules of the generator (brief, "Class naming"), in TypeScript terms:
 * - a named schema's class is its name, in the directory of its binding namespace (`package`, else
 *   `namespace`): `com/example/photos/Photo.ts`;
 * - arrays and maps are named after their item type plus one `Array`/`Map` per dimension, innermost first
 *   (`LongArrayMap` is a map of arrays of longs); those of primitives use the boxed Java names (`Integer`,
 *   `Long`, `Float`, `Double`, `Boolean`, `String`, `ByteString`);
 * - a union without typeref is named from the field (or member) that holds it, nested in the enclosing class
 *   the TypeScript way: `Enclosing_Field` in the enclosing class's file, as protobuf-es names nested
 *   messages (TypeScript has no nested classes; a namespace merge would put classes among enum values and
 *   trip linters). `Foo_Fields` is the path-spec class of `Foo`, so a union held by a field named `fields`
 *   is `Foo_FieldsUnion`;
 * - names equal to reserved words get `_` appended (`class_`), as the brief's Java rule does.
 */

/** Words that cannot name a class or a binding: JS reserved words, strict-mode ones, TS built-in type names. */
const RESERVED = new Set([
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'implements',
  'interface',
  'let',
  'package',
  'private',
  'protected',
  'public',
  'static',
  'yield',
  'await',
  'arguments',
  'eval',
  'undefined',
  'NaN',
  'Infinity',
  'any',
  'bigint',
  'boolean',
  'never',
  'number',
  'object',
  'string',
  'symbol',
  'unknown',
  'globalThis',
]);

/** Method names a generated class must not define (they are the base classes' or Object's). */
const RESERVED_MEMBERS = new Set([
  'constructor',
  'toString',
  'toLocaleString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  '__proto__',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'equals',
  'getPathComponents',
]);

/** `name` with `_` appended when it is a reserved word. */
export function escapeReserved(name: string): string {
  return RESERVED.has(name) ? `${name}_` : name;
}

/** A method name for a path-spec class: `_` appended when it would clash with a base or Object member. */
export function escapeMember(name: string): string {
  return RESERVED_MEMBERS.has(name) || RESERVED.has(name) ? `${name}_` : name;
}

/** First letter upper-cased. */
export function capitalize(name: string): string {
  return name.length === 0 ? name : name[0]!.toUpperCase() + name.slice(1);
}

/** The boxed name used for arrays and maps of a primitive type. */
export const BOXED_NAMES: Readonly<Record<string, string>> = {
  INT: 'Integer',
  LONG: 'Long',
  FLOAT: 'Float',
  DOUBLE: 'Double',
  BOOLEAN: 'Boolean',
  STRING: 'String',
  BYTES: 'ByteString',
};

/**
 * The package of generated arrays and maps of more than one dimension over primitives (`LongArrayMap`):
 * the runtime has the one-dimensional ones (`LongArray`); deeper ones are generated once per tree here.
 */
export const PRIMITIVE_COLLECTIONS_PACKAGE = 'svc.templates';

/** The directory of a binding namespace, posix separators (`com/example/photos`; '' for none). */
export function packageDir(pkg: string): string {
  return pkg === '' ? '' : pkg.split('.').join('/');
}

/** `dir/name` or just `name`. */
export function joinPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}
