/**
 * The IDL format's own schemas, in PDL: our copies of the facts of Rest.li's `com.linkedin.restli.restspec`
 * records (`restli-common/src/main/pegasus/com/linkedin/restli/restspec/*.pdl`): the same names, fields,
 * types, optionality and defaults, in the same field order (the exporter writes keys in this order, as
 * Rest.li's tools write them in the order of the records' fields). The docs are ours.
 *
 * They live in a module rather than in `.pdl` files so that they ship with the compiled package (`dist/`
 * holds only what `tsc` emits); `restspecSchemas()` parses them with our resolver over an in-memory file
 * system.
 */

/** The namespace of the format's records (Rest.li's). */
export const RESTSPEC_NAMESPACE = 'com.linkedin.restli.restspec';

const ns = `namespace ${RESTSPEC_NAMESPACE}\n\n`;

/** Record name → PDL text. */
export const RESTSPEC_PDL: Readonly<Record<string, string>> = {
  CustomAnnotationContentSchema: `${ns}/** One custom annotation's members; an open record: any member may appear. */
record CustomAnnotationContentSchema {}
`,
  CustomAnnotationSchema: `${ns}/** Custom annotations of a resource, method or parameter. */
record CustomAnnotationSchema {
  /** Annotation name → its members. */
  annotations: optional map[string, CustomAnnotationContentSchema]
}
`,
  ServiceErrorSchema: `${ns}/** A service error a resource or a method may answer with. */
record ServiceErrorSchema {
  /** HTTP status. */
  status: int
  /** Canonical error code. */
  code: string
  message: optional string
  /** Full name of the error detail record. */
  errorDetailType: optional string
  /** The method parameters the error concerns (method-level errors only). */
  parameters: optional array[string]
}
`,
  ServiceErrorsSchema: `${ns}/** Mixed into resources and methods that declare service errors. */
record ServiceErrorsSchema {
  serviceErrors: optional array[ServiceErrorSchema]
}
`,
  SuccessStatusesSchema: `${ns}/** Mixed into methods that declare their success statuses. */
record SuccessStatusesSchema {
  success: optional array[int]
}
`,
  ParameterSchema: `${ns}/** A query or action parameter. */
record ParameterSchema includes CustomAnnotationSchema {
  name: string
  /** A type name, or the JSON text of an unnamed schema. */
  type: string
  /** Legacy: an array's item type. */
  items: optional string
  \`optional\`: optional boolean
  /** The default value as text. */
  default: optional string
  doc: optional string
}
`,
  MetadataSchema: `${ns}/** The type of a collection response's metadata. */
record MetadataSchema {
  type: string
}
`,
  MaxBatchSizeSchema: `${ns}/** The most items a batch method takes. */
record MaxBatchSizeSchema {
  value: int
  /** Whether the server refuses larger batches. */
  validate: optional boolean = false
}
`,
  RestMethodSchema: `${ns}/** A standard method (get, create, batch_get, get_all...). */
record RestMethodSchema includes CustomAnnotationSchema, ServiceErrorsSchema, SuccessStatusesSchema {
  method: string
  javaMethodName: optional string
  doc: optional string
  parameters: optional array[ParameterSchema]
  metadata: optional MetadataSchema
  pagingSupported: optional boolean
  maxBatchSize: optional MaxBatchSizeSchema
}
`,
  FinderSchema: `${ns}/** A finder. */
record FinderSchema includes CustomAnnotationSchema, ServiceErrorsSchema, SuccessStatusesSchema {
  name: optional string
  javaMethodName: optional string
  doc: optional string
  parameters: optional array[ParameterSchema]
  metadata: optional MetadataSchema
  /** Legacy: the one association key bound from the path. */
  assocKey: optional string
  assocKeys: optional array[string]
  pagingSupported: optional boolean
  linkedBatchFinderName: optional string
}
`,
  BatchFinderSchema: `${ns}/** A batch finder: a finder plus its criteria parameter. */
record BatchFinderSchema includes FinderSchema {
  batchParam: string
  maxBatchSize: optional MaxBatchSizeSchema
}
`,
  ActionSchema: `${ns}/** An action. */
record ActionSchema includes CustomAnnotationSchema, ServiceErrorsSchema, SuccessStatusesSchema {
  name: string
  javaMethodName: optional string
  readOnly: optional boolean = false
  doc: optional string
  parameters: optional array[ParameterSchema]
  /** A type name, or the JSON text of an unnamed schema. */
  returns: optional string
  throws: optional array[string]
}
`,
  IdentifierSchema: `${ns}/** A collection's key. */
record IdentifierSchema {
  name: string
  type: string
  /** A complex key's parameters record. */
  params: optional string
}
`,
  AssocKeySchema: `${ns}/** One part of an association's key. */
record AssocKeySchema {
  name: string
  type: string
}
`,
  AlternativeKeySchema: `${ns}/** An alternative key. */
record AlternativeKeySchema {
  name: string
  doc: optional string
  type: string
  keyCoercer: string
}
`,
  EntitySchema: `${ns}/** The entity level of a resource. */
record EntitySchema {
  path: string
  actions: optional array[ActionSchema]
  subresources: optional array[ResourceSchema]
}
`,
  CollectionSchema: `${ns}/** A collection resource. */
record CollectionSchema includes ServiceErrorsSchema {
  identifier: IdentifierSchema
  alternativeKeys: optional array[AlternativeKeySchema]
  supports: array[string]
  methods: optional array[RestMethodSchema]
  finders: optional array[FinderSchema]
  batchFinders: optional array[BatchFinderSchema]
  actions: optional array[ActionSchema]
  entity: EntitySchema
}
`,
  AssociationSchema: `${ns}/** An association resource. */
record AssociationSchema includes ServiceErrorsSchema {
  identifier: optional string
  assocKeys: array[AssocKeySchema]
  alternativeKeys: optional array[AlternativeKeySchema]
  supports: array[string]
  methods: optional array[RestMethodSchema]
  finders: optional array[FinderSchema]
  batchFinders: optional array[BatchFinderSchema]
  actions: optional array[ActionSchema]
  entity: EntitySchema
}
`,
  SimpleSchema: `${ns}/** A simple resource. */
record SimpleSchema includes ServiceErrorsSchema {
  supports: array[string]
  methods: optional array[RestMethodSchema]
  actions: optional array[ActionSchema]
  entity: EntitySchema
}
`,
  ActionsSetSchema: `${ns}/** A resource of actions only. */
record ActionsSetSchema includes ServiceErrorsSchema {
  actions: array[ActionSchema]
}
`,
  ResourceSchema: `${ns}/** A resource: the content of a .restspec.json file. */
record ResourceSchema includes CustomAnnotationSchema {
  name: string
  \`namespace\`: optional string
  d2ServiceName: optional string
  path: string
  /** Full name of the value record. */
  schema: optional string
  entityType: enum ResourceEntityType {
    STRUCTURED_DATA
    UNSTRUCTURED_DATA
  } = "STRUCTURED_DATA"
  doc: optional string
  resourceClass: optional string
  collection: optional CollectionSchema
  association: optional AssociationSchema
  actionsSet: optional ActionsSetSchema
  simple: optional SimpleSchema
}
`,
};
