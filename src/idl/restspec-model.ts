/**
 * The interface description (IDL) format as TypeScript types: Rest.li's `.restspec.json` (one
 * `ResourceSchema` per root resource) and `.snapshot.json` (the same plus every referenced named schema).
 *
 * The field names and optionality are the facts of Rest.li's `com.linkedin.restli.restspec` schemas
 * (`restli-common/src/main/pegasus/com/linkedin/restli/restspec/*.pdl`); the validating copies of those
 * schemas are in `./schemas/`. Types only, plus tiny helpers: other layers (export, import, the
 * compatibility checker) build on these names, so fields are only ever added, never renamed.
 *
 * Every interface is a readonly view of parsed JSON: unknown (newer) fields may be present in a file and
 * are carried along untouched (see `validateRestSpec`, which reports them as warnings).
 */

/** A JSON value as read from an IDL file. */
export type IdlJson =
  string | number | boolean | null | readonly IdlJson[] | { readonly [key: string]: IdlJson };

/** A JSON object as read from an IDL file. */
export interface IdlJsonObject {
  readonly [key: string]: IdlJson;
}

/**
 * The content of one custom annotation: a map from the annotation's member names to their values
 * (`CustomAnnotationContentSchema`, an open record in Rest.li).
 */
export type CustomAnnotationContentSchema = IdlJsonObject;

/** `CustomAnnotationSchema`: included by resources, methods, finders, actions and parameters. */
export interface CustomAnnotationSchema {
  /** Custom annotation data, keyed by annotation name (e.g. `deprecated`). */
  readonly annotations?: Readonly<Record<string, CustomAnnotationContentSchema>>;
}

/** `ServiceErrorSchema`: a service error a resource or method may return. */
export interface ServiceErrorSchema {
  /** The HTTP status code. */
  readonly status: number;
  /** The canonical error code, e.g. `INPUT_VALIDATION_FAILED`. */
  readonly code: string;
  readonly message?: string;
  /** Full name of the error detail record. */
  readonly errorDetailType?: string;
  /** Method parameters this error applies to (method-level errors only). */
  readonly parameters?: readonly string[];
}

/** `ServiceErrorsSchema`: included by resource kinds and methods. */
export interface ServiceErrorsSchema {
  readonly serviceErrors?: readonly ServiceErrorSchema[];
}

/** `SuccessStatusesSchema`: included by methods, finders and actions. */
export interface SuccessStatusesSchema {
  /** HTTP statuses the method may answer with on success. */
  readonly success?: readonly number[];
}

/**
 * `ParameterSchema`. `type` is a type name (`"string"`, `"com.example.Photo"`) or, for an unnamed type, the
 * schema JSON as a string (`"{ \"type\" : \"array\", \"items\" : \"string\" }"`); `items` is the older
 * spelling of an array's item type; `default` is the default value as JSON text (a string's default is
 * the bare string).
 */
export interface ParameterSchema extends CustomAnnotationSchema {
  readonly name: string;
  readonly type: string;
  /** Deprecated in Rest.li: the item type when `type` is `"array"`. */
  readonly items?: string;
  readonly optional?: boolean;
  readonly default?: string;
  readonly doc?: string;
}

/** `MetadataSchema`: the type of a collection response's metadata. */
export interface MetadataSchema {
  readonly type: string;
}

/** `MaxBatchSizeSchema`. */
export interface MaxBatchSizeSchema {
  readonly value: number;
  /** Default `false`. */
  readonly validate?: boolean;
}

/** `RestMethodSchema`: one of the standard methods (`get`, `batch_get`, `create`, `get_all`, ...). */
export interface RestMethodSchema extends CustomAnnotationSchema, ServiceErrorsSchema, SuccessStatusesSchema {
  /** The method name as Rest.li spells it in `supports`: lower case with underscores. */
  readonly method: string;
  readonly javaMethodName?: string;
  readonly doc?: string;
  readonly parameters?: readonly ParameterSchema[];
  readonly metadata?: MetadataSchema;
  readonly pagingSupported?: boolean;
  readonly maxBatchSize?: MaxBatchSizeSchema;
}

/** `FinderSchema`. */
export interface FinderSchema extends CustomAnnotationSchema, ServiceErrorsSchema, SuccessStatusesSchema {
  /** Optional in the format (a legacy default finder has none); always written by Svc. */
  readonly name?: string;
  readonly javaMethodName?: string;
  readonly doc?: string;
  readonly parameters?: readonly ParameterSchema[];
  readonly metadata?: MetadataSchema;
  /** Deprecated in Rest.li: the single association key the finder binds. */
  readonly assocKey?: string;
  /** The association keys the finder binds from the path. */
  readonly assocKeys?: readonly string[];
  readonly pagingSupported?: boolean;
  /** Name of a batch finder that this finder is the single-criterion form of. */
  readonly linkedBatchFinderName?: string;
}

/** `BatchFinderSchema`: a finder plus the name of its criteria parameter. */
export interface BatchFinderSchema extends FinderSchema {
  /** The name of the parameter holding the array of criteria. */
  readonly batchParam: string;
  readonly maxBatchSize?: MaxBatchSizeSchema;
}

/** `ActionSchema`. `returns` is a type name or schema JSON text, like a parameter's `type`. */
export interface ActionSchema extends CustomAnnotationSchema, ServiceErrorsSchema, SuccessStatusesSchema {
  readonly name: string;
  readonly javaMethodName?: string;
  /** Default `false`. */
  readonly readOnly?: boolean;
  readonly doc?: string;
  readonly parameters?: readonly ParameterSchema[];
  readonly returns?: string;
  /** Names of the exceptions the action declares. */
  readonly throws?: readonly string[];
}

/**
 * `IdentifierSchema`: a collection's key. `type` is the key type (or, for a complex key, the key record);
 * `params` is a complex key's parameters record.
 */
export interface IdentifierSchema {
  readonly name: string;
  readonly type: string;
  readonly params?: string;
}

/** `AssocKeySchema`: one part of an association's key. */
export interface AssocKeySchema {
  readonly name: string;
  readonly type: string;
}

/** `AlternativeKeySchema`. */
export interface AlternativeKeySchema {
  readonly name: string;
  readonly doc?: string;
  readonly type: string;
  readonly keyCoercer: string;
}

/** `EntitySchema`: the entity-level part of a resource (its path, entity actions, subresources). */
export interface EntitySchema {
  /** E.g. `/photos/{photosId}`. */
  readonly path: string;
  readonly actions?: readonly ActionSchema[];
  readonly subresources?: readonly ResourceSchema[];
}

/** `CollectionSchema`. */
export interface CollectionSchema extends ServiceErrorsSchema {
  readonly identifier: IdentifierSchema;
  readonly alternativeKeys?: readonly AlternativeKeySchema[];
  readonly supports: readonly string[];
  readonly methods?: readonly RestMethodSchema[];
  readonly finders?: readonly FinderSchema[];
  readonly batchFinders?: readonly BatchFinderSchema[];
  readonly actions?: readonly ActionSchema[];
  readonly entity: EntitySchema;
}

/** `AssociationSchema`. `identifier` is the name of the whole compound key (e.g. `albumEntryId`). */
export interface AssociationSchema extends ServiceErrorsSchema {
  readonly identifier?: string;
  readonly assocKeys: readonly AssocKeySchema[];
  readonly alternativeKeys?: readonly AlternativeKeySchema[];
  readonly supports: readonly string[];
  readonly methods?: readonly RestMethodSchema[];
  readonly finders?: readonly FinderSchema[];
  readonly batchFinders?: readonly BatchFinderSchema[];
  readonly actions?: readonly ActionSchema[];
  readonly entity: EntitySchema;
}

/** `SimpleSchema`. */
export interface SimpleSchema extends ServiceErrorsSchema {
  readonly supports: readonly string[];
  readonly methods?: readonly RestMethodSchema[];
  readonly actions?: readonly ActionSchema[];
  readonly entity: EntitySchema;
}

/** `ActionsSetSchema`: a resource that has only actions. */
export interface ActionsSetSchema extends ServiceErrorsSchema {
  readonly actions: readonly ActionSchema[];
}

/** `ResourceEntityType`. */
export type ResourceEntityType = 'STRUCTURED_DATA' | 'UNSTRUCTURED_DATA';

/**
 * `ResourceSchema`: one resource (a `.restspec.json` file holds one root resource). Exactly one of
 * `collection`, `association`, `simple`, `actionsSet` is present.
 */
export interface ResourceSchema extends CustomAnnotationSchema {
  readonly name: string;
  readonly namespace?: string;
  readonly d2ServiceName?: string;
  /** E.g. `/photos`, `/greetings/{greetingsId}/subgreetings`. */
  readonly path: string;
  /** Full name of the value record. */
  readonly schema?: string;
  /** Default `STRUCTURED_DATA`. */
  readonly entityType?: ResourceEntityType;
  readonly doc?: string;
  readonly resourceClass?: string;
  readonly collection?: CollectionSchema;
  readonly association?: AssociationSchema;
  readonly actionsSet?: ActionsSetSchema;
  readonly simple?: SimpleSchema;
}

/** A `.restspec.json` file: one root `ResourceSchema`. */
export type RestSpec = ResourceSchema;

/**
 * A named schema as written in a snapshot's `models`: the schema JSON (`{ "type" : "record", ... }`), or
 * the full name of a schema already written inline inside an earlier model.
 */
export type SnapshotModel = IdlJsonObject | string;

/**
 * A `.snapshot.json` file: every named schema the resource references, each written once (a schema
 * first met nested inside another is written there, and its name then stands alone in the list), then the
 * resource.
 */
export interface Snapshot {
  readonly models: readonly SnapshotModel[];
  readonly schema: ResourceSchema;
}

/**
 * The body of an `OPTIONS /<resource>` answer: the resource (and, as Rest.li does, only the one asked
 * for) by name, and every named schema it uses, keyed by full name.
 */
export interface OptionsResponse {
  readonly resources: Readonly<Record<string, ResourceSchema>>;
  readonly models: Readonly<Record<string, IdlJsonObject>>;
}

/** The resource kinds, as the key of `ResourceSchema` that holds each. */
export type ResourceKind = 'collection' | 'association' | 'simple' | 'actionsSet';

/** The four kind keys of a `ResourceSchema`, in the order Rest.li writes them. */
export const RESOURCE_KINDS: readonly ResourceKind[] = ['collection', 'association', 'actionsSet', 'simple'];

/**
 * The standard methods as they appear in `supports` and `RestMethodSchema.method`, in the order Rest.li
 * lists `methods` (single-entity methods first, then batch ones, then `get_all`); `supports` itself is
 * sorted alphabetically, and finders, batch finders and actions by name.
 */
export const REST_METHOD_ORDER: readonly string[] = [
  'create',
  'get',
  'update',
  'partial_update',
  'delete',
  'batch_create',
  'batch_get',
  'batch_update',
  'batch_partial_update',
  'batch_delete',
  'get_all',
];

/** File-name suffix of an IDL file. */
export const RESTSPEC_SUFFIX = '.restspec.json';
/** File-name suffix of a snapshot file. */
export const SNAPSHOT_SUFFIX = '.snapshot.json';

/** Which kind a resource is, or `undefined` when it has none of the four keys. */
export function resourceKind(resource: ResourceSchema): ResourceKind | undefined {
  return RESOURCE_KINDS.find((kind) => resource[kind] !== undefined);
}

/**
 * The file name Rest.li's tools give a root resource's IDL (`<namespace>.<name>.restspec.json`, or
 * `<name>.restspec.json` without a namespace); `suffix` switches to the snapshot's.
 */
export function idlFileName(
  resource: Pick<ResourceSchema, 'name' | 'namespace'>,
  suffix = RESTSPEC_SUFFIX,
): string {
  const base =
    resource.namespace !== undefined && resource.namespace !== ''
      ? `${resource.namespace}.${resource.name}`
      : resource.name;
  return base + suffix;
}
