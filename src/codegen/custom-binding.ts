/**
 * Custom bindings of typerefs of primitives (brief, "Custom binding for primitive types").
 *
 * A typeref binds its values to a custom TypeScript class with either attribute:
 * - `"typescript": { "class": "Date" }` (a global class) or `{ "class": "Urn", "module": "@acme/urns" }` (an
 *   export of a module; a relative module path is relative to the output root);
 * - `"java": { "class": "java.util.Date" }`, the brief's attribute, kept for schemas shared with Java
 *   services: it binds when the generator knows a TypeScript class for that Java class (option
 *   `javaClasses`, default {@link DEFAULT_JAVA_CLASSES}); other Java classes are ignored (the values stay
 *   primitives) and the typeref's documentation says so.
 * The first typeref with a binding along a typeref chain wins. The class's coercer must be registered
 * with the runtime (`registerCoercer`) by the time a value is converted; `Date`'s is built in.
 */
import type { DataSchema } from '../schema/data-schema';
import { DataMap } from '../data/data-map';
import { TyperefDataSchema } from '../schema/typeref-schema';
import { CodegenError } from './errors';

/** A TypeScript class for a custom binding. */
export interface CustomClassRef {
  /** The exported (or global) class name. */
  readonly class: string;
  /** The module that exports it; absent for a global class such as `Date`. */
  readonly module?: string;
}

/** Java classes with a known TypeScript binding. */
export const DEFAULT_JAVA_CLASSES: Readonly<Record<string, CustomClassRef>> = {
  'java.util.Date': { class: 'Date' },
};

/** The binding of a typeref chain. */
export interface CustomBinding {
  /** The typeref that declares the binding. */
  readonly typeref: TyperefDataSchema;
  readonly ref: CustomClassRef;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function bad(typeref: TyperefDataSchema, what: string): CodegenError {
  return new CodegenError('SVC_ERR_CODEGEN_BAD_BINDING', `typeref ${typeref.getFullName()}: ${what}`);
}

/** The `typescript` attribute of one typeref, checked, or undefined. */
function typescriptAttribute(typeref: TyperefDataSchema): CustomClassRef | undefined {
  const attr = typeref.getProperties().get('typescript');
  if (attr === undefined) return undefined;
  if (!(attr instanceof DataMap)) throw bad(typeref, '"typescript" must be a map');
  const cls = attr.get('class');
  if (typeof cls !== 'string' || !IDENTIFIER.test(cls)) {
    throw bad(typeref, '"typescript" needs a "class" that is a TypeScript identifier');
  }
  const module = attr.get('module');
  if (module !== undefined && (typeof module !== 'string' || module === '')) {
    throw bad(typeref, '"typescript.module" must be a module specifier');
  }
  return module === undefined ? { class: cls } : { class: cls, module };
}

/** The Java class of `typeref`'s own `java` attribute when it binds nothing here (for the generated docs). */
export function unmappedJavaClasses(
  typeref: TyperefDataSchema,
  javaClasses: Readonly<Record<string, CustomClassRef>>,
): string[] {
  const java = typeref.getJavaBinding()?.className;
  if (java === undefined || typescriptAttribute(typeref) !== undefined || javaClasses[java] !== undefined)
    return [];
  return [java];
}

/**
 * The custom binding of `schema` (a typeref chain), or undefined.
 * @throws CodegenError for a malformed attribute, or a binding on a typeref of a non-primitive type.
 */
export function customBindingOf(
  schema: DataSchema,
  javaClasses: Readonly<Record<string, CustomClassRef>>,
): CustomBinding | undefined {
  for (let s: DataSchema = schema; s instanceof TyperefDataSchema; s = s.getRef()) {
    const java = s.getJavaBinding()?.className;
    const ref = typescriptAttribute(s) ?? (java === undefined ? undefined : javaClasses[java]);
    if (ref === undefined) continue;
    const target = s.getDereferencedSchema();
    if (!target.isPrimitive() || target.getType() === 'NULL') {
      throw new CodegenError(
        'SVC_ERR_CODEGEN_UNSUPPORTED',
        `typeref ${s.getFullName()} binds a custom class, but custom classes bind typerefs of primitive types only`,
      );
    }
    return { typeref: s, ref };
  }
  return undefined;
}
