import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type pg from 'pg';
import { BlobNotFoundError, BlobWriteError, type BlobSource, type BlobStat, type BlobStore } from '../queue';
import type { Migration } from './migrations';

/** Options of {@link LargeObjectBlobStore}. */
export interface LargeObjectBlobStoreOptions {
  /** The table naming the blobs (id, large object, size). Default `svc_blobs`. */
  readonly table?: string;
  /** Bytes gathered before each write to the server, and read per read. Default 256 KiB. */
  readonly chunkBytes?: number;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;
/** Blob ids are UUIDs: anything else is no blob, without a query. */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// lo_open modes (libpq-fs.h)
const INV_WRITE = 0x20000;
const INV_READ = 0x40000;

/** The blobs table, as a migration of the service's own list (give it the next free version). */
export function largeObjectBlobsMigration(version: number, table = 'svc_blobs'): Migration {
  if (!IDENTIFIER.test(table)) throw new TypeError(`blob table '${table}': a plain lower-case SQL name`);
  return {
    version,
    name: `large-object blobs ${table}`,
    sql: `CREATE TABLE ${table} (
            id uuid PRIMARY KEY,
            oid oid NOT NULL,
            size bigint NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now()
          );`,
  };
}

/**
 * Blobs as PostgreSQL large objects, behind the queue's {@link BlobStore} interface (issue 27): any machine
 * that reaches the database reads an upload's bytes, with no shared volume. The behaviour of the file
 * store (`FileBlobStore`):
 *
 * | | how |
 * |---|---|
 * | atomic visibility | the large object and its row are written in one transaction: a blob exists for others only once committed, whole |
 * | no partial object after an abort | a failing source (or write) rolls the transaction back, and the large object with it |
 * | streamed with demand | a write pulls the next chunk only once the previous one is on the server; a read sends `loread` for the next chunk only when the stream is read |
 * | removal after the job's final outcome | the queue calls {@link delete} as with any store; it unlinks the large object and its row in one transaction |
 *
 * A read holds a connection of the pool (a transaction: large-object descriptors live in one) until the
 * stream ends or is destroyed. An S3-compatible store (`@aws-sdk/client-s3`, multipart uploads, visible
 * on completion) fits the same interface; none can run on these machines, so it is not here (README).
 */
export class LargeObjectBlobStore implements BlobStore {
  readonly table: string;
  readonly #pool: pg.Pool;
  readonly #chunkBytes: number;

  constructor(pool: pg.Pool, options: LargeObjectBlobStoreOptions = {}) {
    this.table = options.table ?? 'svc_blobs';
    if (!IDENTIFIER.test(this.table))
      throw new TypeError(`blob table '${this.table}': a plain lower-case SQL name`);
    this.#pool = pool;
    this.#chunkBytes = options.chunkBytes ?? 256 * 1024;
  }

  async put(source: BlobSource): Promise<BlobStat> {
    const id = randomUUID();
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (err) {
      throw new BlobWriteError(`the blob store's database is unreachable: ${(err as Error).message}`, {
        cause: err,
      });
    }
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const oid = (await client.query<{ oid: number }>('SELECT lo_create(0) AS oid')).rows[0]!.oid;
      const fd = (await client.query<{ fd: number }>('SELECT lo_open($1, $2) AS fd', [oid, INV_WRITE]))
        .rows[0]!.fd;
      let size = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async (): Promise<void> => {
        if (pendingBytes === 0) return;
        const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
        await client.query('SELECT lowrite($1, $2)', [fd, data]);
      };
      try {
        for await (const chunk of source) {
          pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          pendingBytes += chunk.byteLength;
          size += chunk.byteLength;
          if (pendingBytes >= this.#chunkBytes) await flush();
        }
        await flush();
        await client.query('SELECT lo_close($1)', [fd]);
        await client.query(`INSERT INTO ${this.table} (id, oid, size) VALUES ($1, $2, $3)`, [id, oid, size]);
        await client.query('COMMIT');
      } catch (err) {
        // the large object goes with the transaction: nothing of the blob is left
        await client.query('ROLLBACK').catch((e: unknown) => {
          broken = e as Error;
        });
        throw err;
      }
      return { id, size, createdAt: Date.now() };
    } catch (err) {
      if (err instanceof BlobWriteError) throw err;
      throw new BlobWriteError(`the blob could not be stored: ${(err as Error).message}`, { cause: err });
    } finally {
      client.release(broken);
    }
  }

  async get(id: string): Promise<Readable> {
    if (!ID.test(id)) throw new BlobNotFoundError(id);
    const client = await this.#pool.connect();
    let fd: number;
    try {
      await client.query('BEGIN READ ONLY');
      const row = await client.query<{ oid: number }>(`SELECT oid FROM ${this.table} WHERE id = $1`, [id]);
      if (row.rowCount === 0) throw new BlobNotFoundError(id);
      fd = (await client.query<{ fd: number }>('SELECT lo_open($1, $2) AS fd', [row.rows[0]!.oid, INV_READ]))
        .rows[0]!.fd;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      throw err;
    }
    const chunkBytes = this.#chunkBytes;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      // ending the transaction closes the descriptor
      client.query('ROLLBACK').then(
        () => client.release(),
        (err: unknown) => client.release(err as Error),
      );
    };
    return new Readable({
      // one loread per read(): a consumer that stops reading stops the reads
      read() {
        client.query<{ data: Buffer }>('SELECT loread($1, $2) AS data', [fd, chunkBytes]).then(
          (r) => {
            const data = r.rows[0]!.data;
            if (data.length > 0) this.push(data);
            if (data.length < chunkBytes) {
              release();
              this.push(null);
            }
          },
          (err: unknown) => this.destroy(err as Error),
        );
      },
      destroy(err, callback) {
        release();
        callback(err);
      },
    });
  }

  async stat(id: string): Promise<BlobStat | undefined> {
    if (!ID.test(id)) return undefined;
    const r = await this.#pool.query<{ size: string; created: string }>(
      `SELECT size::text AS size, (extract(epoch FROM created_at) * 1000)::bigint::text AS created FROM ${this.table} WHERE id = $1`,
      [id],
    );
    const row = r.rows[0];
    return row === undefined ? undefined : { id, size: Number(row.size), createdAt: Number(row.created) };
  }

  async delete(id: string): Promise<boolean> {
    if (!ID.test(id)) return false;
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const r = await client.query<{ oid: number }>(`DELETE FROM ${this.table} WHERE id = $1 RETURNING oid`, [
        id,
      ]);
      if (r.rowCount === 1) await client.query('SELECT lo_unlink($1)', [r.rows[0]!.oid]);
      await client.query('COMMIT');
      return r.rowCount === 1;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
}
