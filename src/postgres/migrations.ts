import type pg from 'pg';

/** One versioned schema change. Versions are applied in ascending order, each once, in a transaction. */
export interface Migration {
  /** A positive integer; gaps are fine, a version once applied must never change. */
  readonly version: number;
  /** What it does, recorded beside the version. */
  readonly name: string;
  /** The SQL (several statements allowed). */
  readonly sql: string;
}

/** Options of {@link migrate}. */
export interface MigrateOptions {
  /** The table recording applied versions. Default `svc_migrations`. */
  readonly table?: string;
}

/** What {@link migrate} did. */
export interface MigrateResult {
  /** Versions applied now, in order. */
  readonly applied: readonly number[];
  /** The schema's version afterwards (0 for none). */
  readonly version: number;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Brings the database's schema up to date: applies each migration whose version is not recorded yet, in
 * version order, each in its own transaction together with its record, so a failing migration leaves the
 * schema at the previous version. Instances starting at once (several replicas) take turns on a
 * transaction-level advisory lock: one applies, the others then find nothing left to do.
 *
 * A runner of ~60 lines rather than a migration tool (node-pg-migrate, Flyway): what a service needs at
 * start is exactly this, with no CLI, config file or extra dependency; down-migrations are deliberately
 * absent (roll forward with a new version).
 */
export async function migrate(
  pool: pg.Pool,
  migrations: readonly Migration[],
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  const table = options.table ?? 'svc_migrations';
  if (!IDENTIFIER.test(table)) throw new TypeError(`migration table '${table}': a plain lower-case SQL name`);
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  for (let i = 0; i < sorted.length; i++) {
    const m = sorted[i]!;
    if (!Number.isInteger(m.version) || m.version < 1)
      throw new TypeError(`migration '${m.name}': version must be a positive integer`);
    if (i > 0 && sorted[i - 1]!.version === m.version)
      throw new TypeError(`two migrations have version ${m.version}`);
  }
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    // under the lock too: two CREATE TABLE IF NOT EXISTS at once can still collide
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [table]);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${table} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    }
    for (const m of sorted) {
      await client.query('BEGIN');
      try {
        // one lock per table name: instances migrating at once apply each version once
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [table]);
        const done = await client.query(`SELECT 1 FROM ${table} WHERE version = $1`, [m.version]);
        if (done.rowCount === 0) {
          await client.query(m.sql);
          await client.query(`INSERT INTO ${table} (version, name) VALUES ($1, $2)`, [m.version, m.name]);
          applied.push(m.version);
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    }
    const v = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${table}`);
    return { applied, version: v.rows[0]?.version ?? 0 };
  } finally {
    client.release();
  }
}
