import type { DataMap } from '../data';
import type { DataSchema, SchemaLocation } from './data-schema';
import { ComplexDataSchema, type ComplexState } from './complex-schema';
import { EQUALS, readOnlyProperties, STATE, type SeenPairs } from './internal';

/** The value of a `deprecated` attribute: a reason or alternative, or `true` (discouraged). */
export type Deprecation = string | boolean;

/** Attributes shared by the named schemas, for their constructors. */
export interface NamedSchemaInit {
  /** Simple name, or a full name (with dots), which then overrides `namespace`. */
  readonly name: string;
  readonly namespace?: string;
  /** Binding namespace; defaults to the namespace. */
  readonly package?: string;
  readonly doc?: string;
  /** Full names of aliases; accepted and otherwise ignored (brief, schema language difference 7). */
  readonly aliases?: readonly string[];
  readonly deprecated?: Deprecation;
  readonly properties?: DataMap;
}

/** @internal */
export interface NamedState extends ComplexState {
  name: string;
  namespace: string;
  package: string;
  doc: string;
  aliases: readonly string[];
  deprecated: Deprecation | undefined;
  location: SchemaLocation | undefined;
}

/** @internal */
export function namedState(init: NamedSchemaInit): NamedState {
  let name = init.name;
  let namespace = init.namespace ?? '';
  const dot = name.lastIndexOf('.');
  if (dot >= 0) {
    namespace = name.slice(0, dot);
    name = name.slice(dot + 1);
  }
  return {
    properties: readOnlyProperties(init.properties),
    hasError: false,
    name,
    namespace,
    package: init.package ?? '',
    doc: init.doc ?? '',
    aliases: init.aliases ?? [],
    deprecated: init.deprecated,
    location: undefined,
  };
}

/**
 * A schema with a name: record (and error), enum, fixed and typeref. The full name is the namespace and the
 * name joined with a dot; the package (binding namespace) defaults to the namespace.
 */
export abstract class NamedDataSchema extends ComplexDataSchema {
  /** @internal */
  declare readonly [STATE]: NamedState;

  /** The simple name. */
  getName(): string {
    return this[STATE].name;
  }

  /** The namespace; empty when there is none. */
  getNamespace(): string {
    return this[STATE].namespace;
  }

  /** Namespace and name joined with a dot (just the name without a namespace). */
  getFullName(): string {
    const s = this[STATE];
    return s.namespace === '' ? s.name : `${s.namespace}.${s.name}`;
  }

  /** The declared or inherited `package` (binding namespace override); undefined when there is none. */
  getPackage(): string | undefined {
    return this[STATE].package === '' ? undefined : this[STATE].package;
  }

  /** The namespace of the language binding: the package if any, else the namespace. */
  getBindingNamespace(): string {
    return this[STATE].package === '' ? this[STATE].namespace : this[STATE].package;
  }

  /** The binding namespace and the name joined with a dot. */
  getBindingName(): string {
    const ns = this.getBindingNamespace();
    return ns === '' ? this[STATE].name : `${ns}.${this[STATE].name}`;
  }

  /** The documentation; empty when there is none. */
  getDoc(): string {
    return this[STATE].doc;
  }

  /** Full names of the declared aliases (accepted and ignored: they are not bound as names). */
  getAliases(): readonly string[] {
    return this[STATE].aliases;
  }

  /** The `deprecated` attribute as written, or undefined. */
  getDeprecated(): Deprecation | undefined {
    return this[STATE].deprecated;
  }

  /** True when `deprecated` is a string or `true`. */
  isDeprecated(): boolean {
    const d = this[STATE].deprecated;
    return d !== undefined && d !== false;
  }

  /** Where the schema was defined, when it came from text. */
  getLocation(): SchemaLocation | undefined {
    return this[STATE].location;
  }

  override getUnionMemberKey(): string {
    return this.getFullName();
  }

  /** @internal */
  override [EQUALS](other: DataSchema, seen: SeenPairs): boolean {
    if (!(other instanceof NamedDataSchema) || !super[EQUALS](other, seen)) return false;
    const a = this[STATE];
    const b = other[STATE];
    return (
      a.name === b.name &&
      a.namespace === b.namespace &&
      a.package === b.package &&
      a.doc === b.doc &&
      a.deprecated === b.deprecated &&
      a.aliases.length === b.aliases.length &&
      a.aliases.every((x, i) => x === b.aliases[i])
    );
  }
}
