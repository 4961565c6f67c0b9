/**
 * The example's store on PostgreSQL (issue 27), used when `DATABASE_URL` is set: the same `PhotoStore`
 * interface as the in-memory library (store.ts), over a `pg` pool. The schema comes from the versioned
 * migrations below, applied at start (`migrate`, svc-framework/postgres). Entities are kept as their
 * data (`doc`, JSON written and read by the framework's codec, so longs stay exact), with the columns the
 * queries filter and sort on beside them. The long reads (`byTag`, the `export` finder) stream rows from a
 * server-side cursor with demand (`cursorRows`).
 */
import pg from 'pg';
import type { Observable } from 'rxjs';
import { DataMap, GetMode, JsonCodec } from 'svc-framework';
import { type AttachmentQueue } from 'svc-framework';
import {
  LargeObjectBlobStore,
  type Migration,
  Outbox,
  cursorRows,
  largeObjectBlobsMigration,
  migrate,
  outboxMigration,
} from 'svc-framework/postgres';
import { ImageStore } from './images';
import { withImageJob } from './resources';
import { Album } from './src/main/generated/com/example/photos/Album';
import { AlbumEntry } from './src/main/generated/com/example/photos/AlbumEntry';
import type { Exif } from './src/main/generated/com/example/photos/Exif';
import { Photo } from './src/main/generated/com/example/photos/Photo';
import type { PhotoFormat } from './src/main/generated/com/example/photos/PhotoFormat';
import {
  type EntryKey,
  type Id,
  type Paging,
  type PhotoMark,
  type PhotoPage,
  type PhotoStore,
  seedStore,
} from './store';

/** The example's schema, version by version (never edit an applied one: add the next). */
export const EXAMPLE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'photos, albums, album entries',
    sql: `
      CREATE TABLE photos (
        id bigserial PRIMARY KEY,
        title text NOT NULL,
        format text NOT NULL,
        taken_at bigint,
        tags text[] NOT NULL DEFAULT '{}',
        doc jsonb NOT NULL
      );
      CREATE INDEX photos_tags ON photos USING gin (tags);
      CREATE INDEX photos_title_format ON photos (title, format);
      CREATE TABLE albums (id bigserial PRIMARY KEY, doc jsonb NOT NULL);
      CREATE TABLE album_entries (
        album_id bigint NOT NULL REFERENCES albums ON DELETE CASCADE,
        photo_id bigint NOT NULL REFERENCES photos ON DELETE CASCADE,
        doc jsonb NOT NULL,
        PRIMARY KEY (album_id, photo_id)
      );
      CREATE INDEX album_entries_photo ON album_entries (photo_id);
    `,
  },
  // uploads: the photo and its processing job in one transaction (addPhotoWithJob)
  outboxMigration(2),
  // uploads' blobs as large objects, when BLOB_STORE=postgres (app.ts)
  largeObjectBlobsMigration(3),
];

/**
 * Where the example may be told to stop dead (`SVC_EXAMPLE_PAUSE_AT`), for the test that kills it there:
 * `after-outbox-commit` (an upload's photo and outbox entry are committed, its job not yet sent). The
 * process says so on stdout and waits to be killed; nothing else reads this variable.
 */
async function pauseAt(point: string): Promise<void> {
  if (process.env.SVC_EXAMPLE_PAUSE_AT !== point) return;
  process.stdout.write(`paused at ${point}\n`);
  await new Promise<never>(() => undefined);
}

const json = new JsonCodec();

/** A bigint column's text as an id: a number when exact, else a bigint. */
function idOf(text: string): Id {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

/** An entity's data without its key fields, as JSON text for a `jsonb` column. */
function docOf(data: DataMap, ...without: string[]): string {
  const copy = data.copy();
  for (const k of without) copy.remove(k);
  return json.mapToString(copy);
}

interface PhotoRow {
  id: string;
  doc: string;
}

function photoOf(row: PhotoRow): Photo {
  return new Photo(json.stringToMap(row.doc)).setId(idOf(row.id));
}

/** A photo's columns: title, format, taken_at, tags, doc. */
function photoColumns(photo: Photo): unknown[] {
  return [
    photo.getTitle(),
    photo.getFormat(),
    photo.getTakenAt(GetMode.NULL) === undefined ? null : String(photo.getTakenAt()),
    photo.getTags(GetMode.NULL)?.toArray() ?? [],
    docOf(photo.data(), 'id'),
  ];
}

/** The job id of an outbox entry: the same however often the entry is sent. */
function jobIdOf(entryId: string): string {
  return `outbox-${entryId}`;
}

/**
 * Columns of a photo row as read: the doc as text, decoded by the framework (exact longs). The key comes
 * back as text under its own name, so an ORDER BY must name the table's column (`photos.id`): a bare `id`
 * is the output column, the text, which sorts 10 before 9 and cannot use the primary key's index (a
 * 1,000,000-row export then sorted the whole table before its first row: 1.1 s; by the index, milliseconds).
 */
const PHOTO = 'id::text AS id, doc::text AS doc';

/** Options of {@link PgPhotoStore.open}. */
export interface PgPhotoStoreOptions {
  /** The database (`DATABASE_URL`). */
  readonly connectionString: string;
  /** Connections in the pool. Default 10. */
  readonly poolSize?: number;
  /** Image files. Default a directory of this process under the OS temp dir. */
  readonly images?: ImageStore;
  /** Empty the tables and seed the example library (tests; `npm start` seeds an empty database). Default false. */
  readonly reset?: boolean;
}

/** The example's photos, albums and entries in PostgreSQL. */
export class PgPhotoStore implements PhotoStore {
  readonly images: ImageStore;
  readonly pool: pg.Pool;

  private constructor(pool: pg.Pool, images: ImageStore) {
    this.pool = pool;
    this.images = images;
  }

  /** Connects, migrates, and seeds an empty (or, with `reset`, emptied) database. */
  static async open(options: PgPhotoStoreOptions): Promise<PgPhotoStore> {
    const pool = new pg.Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10 });
    // an idle connection the server drops (restart, cancel) must not crash the process
    pool.on('error', () => undefined);
    try {
      await migrate(pool, EXAMPLE_MIGRATIONS);
      const store = new PgPhotoStore(pool, options.images ?? new ImageStore());
      if (options.reset === true)
        await pool.query('TRUNCATE photos, albums, album_entries RESTART IDENTITY CASCADE');
      const empty = await pool.query('SELECT 1 FROM photos LIMIT 1');
      const noAlbums = await pool.query('SELECT 1 FROM albums LIMIT 1');
      if (empty.rowCount === 0 && noAlbums.rowCount === 0) await seedStore(store);
      return store;
    } catch (err) {
      await pool.end();
      throw err;
    }
  }

  #outbox: Outbox | undefined;

  /** A blob store in this database (large objects): uploads readable by any instance or worker that reaches it. */
  blobStore(): LargeObjectBlobStore {
    return new LargeObjectBlobStore(this.pool);
  }

  /**
   * Sends uploads' jobs from the outbox to `queue` (job id `outbox-<entry id>`, so a job sent twice is added
   * once), now (what a previous process committed and never sent: recovery after a crash) and after each
   * upload. Resolves once the pending entries are sent.
   */
  async sendJobsTo(queue: AttachmentQueue): Promise<void> {
    this.#outbox = new Outbox(this.pool, {
      dispatch: async (entry) => {
        const { photoId, blobIds } = entry.payload as { photoId: string; blobIds: string[] };
        await queue.enqueue(entry.topic, { blobIds }, { photoId }, { jobId: jobIdOf(entry.id) });
      },
    });
    await this.#outbox.dispatchPending();
  }

  async addPhotoWithJob(photo: Photo, job: { name: string; blobIds: readonly string[] }): Promise<Photo> {
    const outbox = this.#outbox;
    if (outbox === undefined) throw new Error('sendJobsTo(queue) first: there is nobody to send the job to');
    const client = await this.pool.connect();
    let stored: Photo;
    try {
      await client.query('BEGIN');
      const id = (await client.query<{ id: string }>("SELECT nextval('photos_id_seq')::text AS id")).rows[0]!
        .id;
      const entry = await outbox.add(client, job.name, { photoId: id, blobIds: [...job.blobIds] });
      stored = withImageJob(photo, { id: jobIdOf(entry) }, false).setId(idOf(id));
      await client.query(
        'INSERT INTO photos (id, title, format, taken_at, tags, doc) VALUES ($1, $2, $3, $4, $5, $6::jsonb)',
        [id, ...photoColumns(stored)],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    await pauseAt('after-outbox-commit');
    // the job is sent now; if this fails (Redis away), the photo stays PENDING and the entry is sent by
    // the next dispatch (the next upload, or the next start)
    await outbox.dispatchPending().catch(() => undefined);
    return stored;
  }

  /** Closes the pool (connections in use are released first). */
  close(): Promise<void> {
    return this.pool.end();
  }

  private async photos(where: string, values: unknown[] = []): Promise<Photo[]> {
    const r = await this.pool.query<PhotoRow>(`SELECT ${PHOTO} FROM photos ${where}`, values);
    return r.rows.map(photoOf);
  }

  // ---- photos

  async getPhoto(id: Id): Promise<Photo | undefined> {
    return (await this.photos('WHERE id = $1', [String(id)]))[0];
  }

  listPhotos(): Promise<Photo[]> {
    return this.photos('ORDER BY photos.id');
  }

  async reservePhotoId(): Promise<Id> {
    const r = await this.pool.query<{ id: string }>("SELECT nextval('photos_id_seq')::text AS id");
    return idOf(r.rows[0]!.id);
  }

  async addPhoto(photo: Photo, id?: Id): Promise<Photo> {
    const values = photoColumns(photo);
    const r =
      id === undefined
        ? await this.pool.query<{ id: string }>(
            'INSERT INTO photos (title, format, taken_at, tags, doc) VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING id::text AS id',
            values,
          )
        : await this.pool.query<{ id: string }>(
            'INSERT INTO photos (id, title, format, taken_at, tags, doc) VALUES ($6, $1, $2, $3, $4, $5::jsonb) RETURNING id::text AS id',
            [...values, String(id)],
          );
    return photo.copy().setId(idOf(r.rows[0]!.id));
  }

  async replacePhoto(id: Id, photo: Photo): Promise<boolean> {
    const r = await this.pool.query(
      'UPDATE photos SET title = $2, format = $3, taken_at = $4, tags = $5, doc = $6::jsonb WHERE id = $1',
      [String(id), ...photoColumns(photo)],
    );
    return r.rowCount === 1;
  }

  async removePhoto(id: Id): Promise<boolean> {
    const r = await this.pool.query('DELETE FROM photos WHERE id = $1', [String(id)]);
    return r.rowCount === 1;
  }

  findPhotos(title: string | undefined, format: PhotoFormat | undefined): Promise<Photo[]> {
    // "contains, any case": strpos on lower() rather than ILIKE, so that % and _ in a title are plain text
    return this.photos(
      'WHERE ($1::text IS NULL OR strpos(lower(title), lower($1)) > 0) AND ($2::text IS NULL OR format = $2) ORDER BY photos.id',
      [title ?? null, format ?? null],
    );
  }

  searchPhotos(title: string, format: PhotoFormat, exif: Exif | undefined): Promise<Photo[]> {
    return this.photos(
      "WHERE title = $1 AND format = $2 AND ($3::jsonb IS NULL OR doc->'exif' @> $3::jsonb) ORDER BY photos.id",
      [title, format, exif === undefined ? null : json.mapToString(exif.data())],
    );
  }

  photosTaggedPage(tag: string, { start, count }: Paging): PhotoPage {
    return this.stream('WHERE tags @> ARRAY[$3::text] ORDER BY photos.id LIMIT $1 OFFSET $2', [
      count,
      start,
      tag,
    ]);
  }

  exportPhotos({ start, count }: Paging): PhotoPage {
    return this.stream('ORDER BY photos.id LIMIT $1 OFFSET $2', [count, start]);
  }

  /** Photos read from a server-side cursor as the response is written (see `cursorRows`). */
  private stream(where: string, values: unknown[]): Observable<Photo> {
    return cursorRows<PhotoRow, Photo>(
      this.pool,
      { text: `SELECT ${PHOTO} FROM photos ${where}`, values },
      // the next batch is read while this one is mapped and written: 0.1-0.2× more of a bare cursor's rows/s
      { map: photoOf, readAhead: true },
    );
  }

  async addTag(id: Id, tag: string): Promise<number | undefined> {
    // one statement: concurrent tags on one photo do not lose each other
    const r = await this.pool.query<{ n: number }>(
      `UPDATE photos SET
         tags = CASE WHEN tags @> ARRAY[$2::text] THEN tags ELSE tags || $2::text END,
         doc = jsonb_set(doc, '{tags}', to_jsonb(CASE WHEN tags @> ARRAY[$2::text] THEN tags ELSE tags || $2::text END))
       WHERE id = $1 RETURNING cardinality(tags) AS n`,
      [String(id), tag],
    );
    return r.rows[0]?.n;
  }

  async markPhoto(id: Id, mark: PhotoMark): Promise<boolean> {
    const patch = new DataMap([
      ['status', mark.status],
      ['processingJob', mark.processingJob],
    ]);
    if (mark.imageInfo !== undefined) patch.put('imageInfo', mark.imageInfo.data());
    const r = await this.pool.query('UPDATE photos SET doc = doc || $2::jsonb WHERE id = $1', [
      String(id),
      json.mapToString(patch),
    ]);
    return r.rowCount === 1;
  }

  async purgePhotos(before: number): Promise<{ photos: number; entries: number }> {
    const r = await this.pool.query<{ photos: string; entries: string }>(
      `WITH gone AS (DELETE FROM photos WHERE taken_at < $1 RETURNING id),
            entries AS (DELETE FROM album_entries WHERE photo_id IN (SELECT id FROM gone) RETURNING 1)
       SELECT (SELECT count(*) FROM gone)::text AS photos, (SELECT count(*) FROM entries)::text AS entries`,
      [before],
    );
    return { photos: Number(r.rows[0]!.photos), entries: Number(r.rows[0]!.entries) };
  }

  // ---- albums

  private async albums(where: string, values: unknown[] = []): Promise<Album[]> {
    const r = await this.pool.query<{ id: string; doc: string }>(
      `SELECT id::text AS id, doc::text AS doc FROM albums ${where}`,
      values,
    );
    return r.rows.map((row) => new Album(json.stringToMap(row.doc)).setId(idOf(row.id)));
  }

  async getAlbum(id: Id): Promise<Album | undefined> {
    return (await this.albums('WHERE id = $1', [String(id)]))[0];
  }

  listAlbums(): Promise<Album[]> {
    return this.albums('ORDER BY albums.id');
  }

  async addAlbum(album: Album): Promise<Album> {
    const r = await this.pool.query<{ id: string }>(
      'INSERT INTO albums (doc) VALUES ($1::jsonb) RETURNING id::text AS id',
      [docOf(album.data(), 'id')],
    );
    return album.copy().setId(idOf(r.rows[0]!.id));
  }

  async replaceAlbum(id: Id, album: Album): Promise<boolean> {
    const r = await this.pool.query('UPDATE albums SET doc = $2::jsonb WHERE id = $1', [
      String(id),
      docOf(album.data(), 'id'),
    ]);
    return r.rowCount === 1;
  }

  async removeAlbum(id: Id): Promise<boolean> {
    const r = await this.pool.query('DELETE FROM albums WHERE id = $1', [String(id)]);
    return r.rowCount === 1;
  }

  // ---- album entries

  private async entries(where: string, values: unknown[] = []): Promise<AlbumEntry[]> {
    const r = await this.pool.query<{ album_id: string; photo_id: string; doc: string }>(
      `SELECT album_id::text AS album_id, photo_id::text AS photo_id, doc::text AS doc FROM album_entries ${where}`,
      values,
    );
    return r.rows.map((row) =>
      new AlbumEntry(json.stringToMap(row.doc)).setAlbumId(idOf(row.album_id)).setPhotoId(idOf(row.photo_id)),
    );
  }

  async getEntry(key: EntryKey): Promise<AlbumEntry | undefined> {
    return (
      await this.entries('WHERE album_id = $1 AND photo_id = $2', [String(key.albumId), String(key.photoId)])
    )[0];
  }

  async putEntry(key: EntryKey, entry: AlbumEntry): Promise<boolean> {
    const stored = entry.copy();
    if (!stored.hasAddedAt()) stored.setAddedAt(Date.now());
    // the album and the photo must exist: the insert selects from both, so a missing one inserts nothing
    const r = await this.pool.query(
      `INSERT INTO album_entries (album_id, photo_id, doc)
       SELECT a.id, p.id, $3::jsonb FROM albums a, photos p WHERE a.id = $1 AND p.id = $2
       ON CONFLICT (album_id, photo_id) DO UPDATE SET doc = EXCLUDED.doc`,
      [String(key.albumId), String(key.photoId), docOf(stored.data(), 'albumId', 'photoId')],
    );
    return r.rowCount === 1;
  }

  async removeEntry(key: EntryKey): Promise<boolean> {
    const r = await this.pool.query('DELETE FROM album_entries WHERE album_id = $1 AND photo_id = $2', [
      String(key.albumId),
      String(key.photoId),
    ]);
    return r.rowCount === 1;
  }

  listEntries(filter: Partial<EntryKey> = {}): Promise<AlbumEntry[]> {
    return this.entries(
      'WHERE ($1::bigint IS NULL OR album_id = $1) AND ($2::bigint IS NULL OR photo_id = $2) ORDER BY album_entries.album_id, album_entries.photo_id',
      [
        filter.albumId === undefined ? null : String(filter.albumId),
        filter.photoId === undefined ? null : String(filter.photoId),
      ],
    );
  }
}
