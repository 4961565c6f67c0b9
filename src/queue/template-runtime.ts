/**
 * The runtime the queue's generated records (`generated/`, from `pegasus/`) import: the templates and the
 * schema types, without going through the package index (which exports this folder: a cycle).
 */
export * from '../templates';
export type { ArrayDataSchema, EnumDataSchema, MapDataSchema, RecordDataSchema } from '../schema';
