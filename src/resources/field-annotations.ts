// the schema modules themselves, not the barrel: the browser client reaches this file (resources/portable.ts)
// and the barrel would bring the PDL parser and Avro (node:path, avsc) with it
import type { ArrayDataSchema } from '../schema/array-schema';
import type { DataSchema } from '../schema/data-schema';
import { DataSchemaType } from '../schema/data-schema-type';
import type { MapDataSchema } from '../schema/map-schema';
import type { RecordDataSchema } from '../schema/record-schema';
import type { UnionDataSchema } from '../schema/union-schema';
import type { ValidationPath } from '../schema/validation/validation-message';
import { type DefinitionLocation, ResourceDefinitionError } from './errors';

/**
 * Read-only and create-only fields: the reference's `@ReadOnly({...})` and `@CreateOnly({...})` resource
 * annotations, declared on a resource as lists of field paths of its value record (`'id'`,
 * `'location/latitude'`, `'exif/$*'`) and honoured by the validation filter:
 *
 * - a read-only field may be absent from a create or update even when the schema requires it (the server
 *   assigns it), and may not be set by a create, batch_create, partial_update or batch_partial_update
 *   (422 `ReadOnly field present in a create request`), nor deleted by a patch;
 * - a create-only field may be set on create but not by a patch (422 `CreateOnly field present in a
 *   partial_update request`), nor deleted by one.
 *
 * An update (PUT) may carry both: the reference expects it to repeat the stored values and leaves that check
 * to the resource, so a client that gets an entity and puts it back keeps working.
 *
 * Paths are written as the reference writes them (a PathSpec's text): components separated by `/`, a
 * leading `/` ignored, `$*` (or `*`) matching any one component (an array index or a map key); a union
 * member is named by its member key. A path matches the data element at exactly that place.
 */

/** What a resource declares (its definition's and interface's `readOnly` and `createOnly`). */
export interface FieldAnnotationsInput {
  /** Paths of fields clients cannot set: the reference's `@ReadOnly`. */
  readonly readOnly?: readonly string[];
  /** Paths of fields clients can set on create only: the reference's `@CreateOnly`. */
  readonly createOnly?: readonly string[];
}

/** One declared path, compiled to its components. */
class FieldPathPattern {
  readonly text: string;
  readonly #parts: readonly (string | undefined)[];

  constructor(text: string) {
    this.text = text;
    const body = text.startsWith('/') ? text.slice(1) : text;
    // undefined: the wildcard (PathSpec.WILDCARD, `$*`), matching any one component
    this.#parts = body.split('/').map((p) => (p === '$*' || p === '*' ? undefined : p));
  }

  /** The element at `path` is this field. */
  matches(path: ValidationPath): boolean {
    return path.length === this.#parts.length && this.#prefixOf(path);
  }

  /** The element at `path` is this field or lies inside it. */
  covers(path: ValidationPath): boolean {
    return path.length >= this.#parts.length && this.#prefixOf(path);
  }

  #prefixOf(path: ValidationPath): boolean {
    const parts = this.#parts;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (p !== undefined && p !== String(path[i])) return false;
    }
    return true;
  }
}

/** A resource's read-only and create-only fields, compiled at registration. */
export class FieldRules {
  readonly readOnly: readonly string[];
  readonly createOnly: readonly string[];
  readonly #readOnly: readonly FieldPathPattern[];
  readonly #createOnly: readonly FieldPathPattern[];

  constructor(readOnly: readonly string[], createOnly: readonly string[]) {
    this.readOnly = Object.freeze([...readOnly]);
    this.createOnly = Object.freeze([...createOnly]);
    this.#readOnly = readOnly.map((p) => new FieldPathPattern(p));
    this.#createOnly = createOnly.map((p) => new FieldPathPattern(p));
  }

  /** The element at `path` is a read-only field. */
  isReadOnly(path: ValidationPath): boolean {
    return this.#readOnly.some((p) => p.matches(path));
  }

  /** The element at `path` is a create-only field. */
  isCreateOnly(path: ValidationPath): boolean {
    return this.#createOnly.some((p) => p.matches(path));
  }

  /** The element at `path` is a read-only field or inside one. */
  inReadOnly(path: ValidationPath): boolean {
    return this.#readOnly.some((p) => p.covers(path));
  }

  /** The element at `path` is a create-only field or inside one. */
  inCreateOnly(path: ValidationPath): boolean {
    return this.#createOnly.some((p) => p.covers(path));
  }
}

/**
 * Whether `path` names a place in `schema`: record fields by name, union members by member key (or alias),
 * array items and map values by `$*` or crossed without a component (the reference's IDL writes both).
 */
function resolves(schema: DataSchema, parts: readonly string[]): boolean {
  if (parts.length === 0) return true;
  const s = schema.getDereferencedSchema();
  const [head, ...rest] = parts as [string, ...string[]];
  switch (s.getType()) {
    case DataSchemaType.RECORD: {
      const field = (s as RecordDataSchema).getField(head);
      return field !== undefined && resolves(field.getType(), rest);
    }
    case DataSchemaType.UNION: {
      const union = s as UnionDataSchema;
      const member =
        union.getMemberByMemberKey(head) ?? union.getMembers().find((m) => m.getAlias() === head);
      return member !== undefined && resolves(member.getType(), rest);
    }
    case DataSchemaType.ARRAY:
    case DataSchemaType.MAP: {
      const inner =
        s.getType() === DataSchemaType.ARRAY
          ? (s as ArrayDataSchema).getItems()
          : (s as MapDataSchema).getValues();
      return head === '$*' || head === '*' ? resolves(inner, rest) : resolves(inner, parts);
    }
    default:
      return false;
  }
}

function pathList(v: unknown, name: string, schema: RecordDataSchema, at: DefinitionLocation): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v))
    throw new ResourceDefinitionError({ ...at, parameter: name }, `'${name}' must be a list of field paths`);
  const out: string[] = [];
  for (const p of v as unknown[]) {
    if (typeof p !== 'string' || p.replace(/^\//, '') === '')
      throw new ResourceDefinitionError(
        { ...at, parameter: name },
        `'${name}' must be a list of field paths`,
      );
    const parts = p.replace(/^\//, '').split('/');
    if (parts.some((x) => x === '') || !resolves(schema, parts))
      throw new ResourceDefinitionError(
        { ...at, parameter: name },
        `'${name}' path '${p}' names no field of ${schema.getFullName()}`,
      );
    out.push(p);
  }
  return out;
}

/**
 * The compiled rules of a definition's `readOnly` and `createOnly` (undefined when it declares neither).
 * @throws ResourceDefinitionError for a path that is not a list of strings or names no field of the value
 */
export function compileFieldRules(
  def: { readonly readOnly?: unknown; readonly createOnly?: unknown },
  schema: RecordDataSchema,
  at: DefinitionLocation,
): FieldRules | undefined {
  const readOnly = pathList(def.readOnly, 'readOnly', schema, at);
  const createOnly = pathList(def.createOnly, 'createOnly', schema, at);
  if (readOnly.length === 0 && createOnly.length === 0) return undefined;
  return new FieldRules(readOnly, createOnly);
}

/** The declared lists of a definition or interface, copied only when given (so that specs compare as before). */
export function fieldAnnotationsOf(v: FieldAnnotationsInput): FieldAnnotationsInput {
  return {
    ...(v.readOnly === undefined ? {} : { readOnly: Object.freeze([...v.readOnly]) }),
    ...(v.createOnly === undefined ? {} : { createOnly: Object.freeze([...v.createOnly]) }),
  };
}
