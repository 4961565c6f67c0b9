/**
 * The compatibility checker: two versions of a resource's IDL (snapshots) or of a schema tree, every change
 * classified as Rest.li does, and the levels that turn them into a release gate (`svc compat`).
 */
export {
  compareSchemas,
  compareSchemaSets,
  isErrorImpact,
  type SchemaChange,
  type SchemaChangeKind,
  type SchemaCompatOptions,
  type SchemaImpact,
} from './schema-compat';
export {
  COMPAT_KINDS,
  compareSnapshots,
  schemaChangeToCompat,
  type CompatChange,
  type CompatClass,
  type CompatKind,
  type ResourceCompatOptions,
  type ResourceCompatResult,
  type TypeUsage,
} from './resource-compat';
export {
  COMPAT_EXIT,
  COMPAT_LEVELS,
  DEFAULT_COMPAT_LEVEL,
  compatExitCode,
  failingCount,
  failsAt,
  parseCompatLevel,
  type CompatLevel,
} from './compat-level';
export {
  compareIdlDirectories,
  compareIdlFiles,
  compareInputs,
  compareSchemaTrees,
  compatReportJson,
  countByClass,
  formatCompatReport,
  type CompareInputsOptions,
  type CompatReport,
} from './compare-inputs';
export { CompatCheckFailedError, CompatInputError } from './errors';
