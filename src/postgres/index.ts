/**
 * PostgreSQL for Svc services (issue 27), imported as `svc-framework/postgres` so that services without a
 * database never load `pg`: rows of a server-side cursor as an Observable with demand and cancellation, a
 * small migration runner. See README.md in this folder.
 */
export { type CursorRowsOptions, cancelQuery, cursorRows } from './cursor';
export { type Migration, type MigrateOptions, type MigrateResult, migrate } from './migrations';
export { type OutboxEntry, type OutboxOptions, Outbox, outboxMigration } from './outbox';
export {
  type LargeObjectBlobStoreOptions,
  LargeObjectBlobStore,
  largeObjectBlobsMigration,
} from './large-object-blob-store';
