/**
 * The example service's embedded store: photos, albums and album entries in memory, seeded with a small
 * library; and the store interface (`PhotoStore`) the resources see, which the PostgreSQL store
 * (pg-store.ts) implements too.
 */
import type { Observable } from 'rxjs';
import { ImageStore } from './images';
import type { ImageInfo } from './src/main/generated/com/example/photos/ImageInfo';
import type { PhotoStatus } from './src/main/generated/com/example/photos/PhotoStatus';
import { Album } from './src/main/generated/com/example/photos/Album';
import { AlbumEntry } from './src/main/generated/com/example/photos/AlbumEntry';
import { Exif } from './src/main/generated/com/example/photos/Exif';
import { LatLong } from './src/main/generated/com/example/photos/LatLong';
import { Photo } from './src/main/generated/com/example/photos/Photo';
import { PhotoFormat } from './src/main/generated/com/example/photos/PhotoFormat';
import { DataList, DataMap, type DataValue, GetMode, StringArray } from 'svc-framework';

/** Ids are longs: numbers, or bigints beyond 2^53; the maps key them by their decimal text. */
export type Id = number | bigint;

const text = (id: Id): string => String(id);

/** Data equality of two values (containers compare by content). */
function sameData(a: DataValue | undefined, b: DataValue): boolean {
  if (a instanceof DataMap || a instanceof DataList) return a.equals(b);
  return a === b;
}

/** An album entry's key. */
export interface EntryKey {
  readonly albumId: Id;
  readonly photoId: Id;
}

/** A value now or later: the in-memory store answers at once, the PostgreSQL store (pg-store.ts) later. */
export type Awaitable<T> = T | Promise<T>;

/** Which rows of a long list: Rest.li's `start` and `count` (`ctx.paging`). */
export interface Paging {
  readonly start: number;
  readonly count: number;
}

/**
 * A page of a finder that pages itself: the elements and the total (the in-memory store), or the elements
 * streamed with demand as they are read (the PostgreSQL store: `cursorRows`, no total).
 */
export type PhotoPage = { readonly elements: Photo[]; readonly total: number } | Observable<Photo>;

/** What processing found about a photo's image, as the store keeps it. */
export interface PhotoMark {
  readonly status: PhotoStatus;
  readonly imageInfo?: ImageInfo;
  readonly processingJob: string;
}

/**
 * The store the resources (resources.ts) work on: {@link PhotoLibrary} in memory (the default), or
 * `PgPhotoStore` on PostgreSQL (pg-store.ts, when `DATABASE_URL` is set). Every method may answer at once or
 * with a promise; the example's tests run against both.
 */
export interface PhotoStore {
  readonly images: ImageStore;
  getPhoto(id: Id): Awaitable<Photo | undefined>;
  listPhotos(): Awaitable<Photo[]>;
  reservePhotoId(): Awaitable<number | bigint>;
  addPhoto(photo: Photo, id?: number | bigint): Awaitable<Photo>;
  replacePhoto(id: Id, photo: Photo): Awaitable<boolean>;
  removePhoto(id: Id): Awaitable<boolean>;
  findPhotos(title: string | undefined, format: PhotoFormat | undefined): Awaitable<Photo[]>;
  searchPhotos(title: string, format: PhotoFormat, exif: Exif | undefined): Awaitable<Photo[]>;
  /** Photos tagged `tag`, a page of them, in id order. */
  photosTaggedPage(tag: string, paging: Paging): PhotoPage;
  /** Every photo from `start`, `count` of them, in id order: the long export (`photos?q=export`). */
  exportPhotos(paging: Paging): PhotoPage;
  /** Adds a tag; the photo's number of tags, or undefined when there is no such photo. */
  addTag(id: Id, tag: string): Awaitable<number | undefined>;
  /** Records what processing found (idempotent); false when the photo is gone. */
  markPhoto(id: Id, mark: PhotoMark): Awaitable<boolean>;
  purgePhotos(before: number): Awaitable<{ photos: number; entries: number }>;
  getAlbum(id: Id): Awaitable<Album | undefined>;
  listAlbums(): Awaitable<Album[]>;
  addAlbum(album: Album): Awaitable<Album>;
  replaceAlbum(id: Id, album: Album): Awaitable<boolean>;
  removeAlbum(id: Id): Awaitable<boolean>;
  getEntry(key: EntryKey): Awaitable<AlbumEntry | undefined>;
  putEntry(key: EntryKey, entry: AlbumEntry): Awaitable<boolean>;
  removeEntry(key: EntryKey): Awaitable<boolean>;
  listEntries(filter?: Partial<EntryKey>): Awaitable<AlbumEntry[]>;
  /**
   * Stores with an outbox (PostgreSQL): adds the photo and the job over its stored image in one transaction
   * (the job is sent on from the outbox after the commit, and again after a crash); answers the stored
   * photo, PENDING with its job's id. Without it the resources add the job first, then the photo.
   */
  addPhotoWithJob?(
    photo: Photo,
    job: { readonly name: string; readonly blobIds: readonly string[] },
  ): Promise<Photo>;
}

export class PhotoLibrary implements PhotoStore {
  /** The photos' image bytes (files, streamed in and out as attachments). */
  readonly images: ImageStore;
  private readonly photos = new Map<string, Photo>();
  private readonly albums = new Map<string, Album>();
  private readonly entries = new Map<string, AlbumEntry>();
  private nextPhotoId = 1;
  private nextAlbumId = 1;
  /**
   * The photos in id order, kept until a photo is added, replaced or removed: every finder and batch-finder
   * criterion reads it, and sorting the library on each read was most of a 1 000-criteria batch finder's
   * allocation (bench/batch-stall).
   */
  private ordered: readonly Photo[] | undefined;

  /** A library whose images live in `images` (default: a directory of this process under the OS temp dir). */
  constructor(images: ImageStore = new ImageStore()) {
    this.images = images;
  }

  // ---- photos

  getPhoto(id: Id): Photo | undefined {
    return this.photos.get(text(id));
  }

  /** Photos in id order. */
  listPhotos(): Photo[] {
    return [...this.inIdOrder()];
  }

  private inIdOrder(): readonly Photo[] {
    return (this.ordered ??= [...this.photos.values()].sort(
      (a, b) => Number(a.getId()!) - Number(b.getId()!),
    ));
  }

  /**
   * An id no photo has or will be given, for a photo made visible later (`addPhoto(photo, id)`) once what
   * must come with it exists (the example's upload: its processing job).
   */
  reservePhotoId(): number {
    return this.nextPhotoId++;
  }

  /** Stores a copy of `photo` under a new id (or one from {@link reservePhotoId}); returns the stored photo. */
  addPhoto(photo: Photo, id: number = this.nextPhotoId++): Photo {
    const stored = photo.copy().setId(id);
    this.photos.set(text(stored.getId()!), stored);
    this.ordered = undefined;
    return stored;
  }

  /** Replaces photo `id`; false when there is none. */
  replacePhoto(id: Id, photo: Photo): boolean {
    if (!this.photos.has(text(id))) return false;
    this.photos.set(text(id), photo.copy().setId(id));
    this.ordered = undefined;
    return true;
  }

  /** Removes photo `id` and its album entries; false when there is none. */
  removePhoto(id: Id): boolean {
    if (!this.photos.delete(text(id))) return false;
    this.ordered = undefined;
    for (const [k, e] of this.entries) if (text(e.getPhotoId()!) === text(id)) this.entries.delete(k);
    return true;
  }

  /** Photos whose title contains `title` (any case) and/or of `format`. */
  findPhotos(title: string | undefined, format: PhotoFormat | undefined): Photo[] {
    const needle = title?.toLowerCase();
    return this.inIdOrder().filter(
      (p) =>
        (needle === undefined || p.getTitle().toLowerCase().includes(needle)) &&
        (format === undefined || p.getFormat() === format),
    );
  }

  /**
   * Photos whose title is `title` and format `format` (the photos resource of Rest.li's example service
   * matches criteria exactly), and whose EXIF data has the fields `exif` gives, if any.
   */
  searchPhotos(title: string, format: PhotoFormat, exif: Exif | undefined): Photo[] {
    const wanted = exif?.data();
    return this.inIdOrder().filter((p) => {
      if (p.getTitle() !== title || p.getFormat() !== format) return false;
      if (wanted === undefined) return true;
      const has = p.getExif(GetMode.NULL)?.data();
      return has !== undefined && [...wanted.entries()].every(([k, v]) => sameData(has.get(k), v));
    });
  }

  /** Photos tagged `tag`. */
  photosTagged(tag: string): Photo[] {
    return this.inIdOrder().filter((p) => p.getTags().includes(tag));
  }

  photosTaggedPage(tag: string, paging: Paging): PhotoPage {
    return page(this.photosTagged(tag), paging);
  }

  exportPhotos(paging: Paging): PhotoPage {
    return page(this.inIdOrder(), paging);
  }

  addTag(id: Id, tag: string): number | undefined {
    const p = this.getPhoto(id);
    if (p === undefined) return undefined;
    const tags = p.getTags().toArray();
    if (!tags.includes(tag)) p.setTags(new StringArray([...tags, tag]));
    return p.getTags().length;
  }

  markPhoto(id: Id, mark: PhotoMark): boolean {
    const p = this.getPhoto(id);
    if (p === undefined) return false;
    p.setStatus(mark.status).setProcessingJob(mark.processingJob);
    if (mark.imageInfo !== undefined) p.setImageInfo(mark.imageInfo);
    return true;
  }

  /** Removes photos taken before `before` (ms since the epoch), with their entries; returns the counts. */
  purgePhotos(before: number): { photos: number; entries: number } {
    const entriesBefore = this.entries.size;
    let photos = 0;
    for (const p of this.listPhotos()) {
      const taken = p.getTakenAt();
      if (taken !== undefined && Number(taken) < before && this.removePhoto(p.getId()!)) photos++;
    }
    return { photos, entries: entriesBefore - this.entries.size };
  }

  // ---- albums

  getAlbum(id: Id): Album | undefined {
    return this.albums.get(text(id));
  }

  listAlbums(): Album[] {
    return [...this.albums.values()].sort((a, b) => Number(a.getId()!) - Number(b.getId()!));
  }

  addAlbum(album: Album): Album {
    const stored = album.copy().setId(this.nextAlbumId++);
    this.albums.set(text(stored.getId()!), stored);
    return stored;
  }

  replaceAlbum(id: Id, album: Album): boolean {
    if (!this.albums.has(text(id))) return false;
    this.albums.set(text(id), album.copy().setId(id));
    return true;
  }

  removeAlbum(id: Id): boolean {
    if (!this.albums.delete(text(id))) return false;
    for (const [k, e] of this.entries) if (text(e.getAlbumId()!) === text(id)) this.entries.delete(k);
    return true;
  }

  // ---- album entries

  private static entryText(key: EntryKey): string {
    return `${text(key.albumId)}/${text(key.photoId)}`;
  }

  getEntry(key: EntryKey): AlbumEntry | undefined {
    return this.entries.get(PhotoLibrary.entryText(key));
  }

  /** Puts a photo into an album (or replaces its entry); false when the album or the photo does not exist. */
  putEntry(key: EntryKey, entry: AlbumEntry): boolean {
    if (this.getAlbum(key.albumId) === undefined || this.getPhoto(key.photoId) === undefined) return false;
    const stored = entry.copy().setAlbumId(key.albumId).setPhotoId(key.photoId);
    if (!stored.hasAddedAt()) stored.setAddedAt(Date.now());
    this.entries.set(PhotoLibrary.entryText(key), stored);
    return true;
  }

  removeEntry(key: EntryKey): boolean {
    return this.entries.delete(PhotoLibrary.entryText(key));
  }

  listEntries(filter: Partial<EntryKey> = {}): AlbumEntry[] {
    return [...this.entries.values()]
      .filter(
        (e) =>
          (filter.albumId === undefined || text(e.getAlbumId()!) === text(filter.albumId)) &&
          (filter.photoId === undefined || text(e.getPhotoId()!) === text(filter.photoId)),
      )
      .sort(
        (a, b) =>
          Number(a.getAlbumId()!) - Number(b.getAlbumId()!) ||
          Number(a.getPhotoId()!) - Number(b.getPhotoId()!),
      );
  }
}

function page(all: readonly Photo[], { start, count }: Paging): PhotoPage {
  return { elements: all.slice(start, start + count), total: all.length };
}

/** A library with a few photos, two albums and their entries. */
export function seededLibrary(images?: ImageStore): PhotoLibrary {
  const lib = new PhotoLibrary(images);
  for (const step of SEED) void step(lib);
  return lib;
}

/** Seeds any store (an empty one: ids start at 1) with {@link seededLibrary}'s photos, albums and entries. */
export async function seedStore(store: PhotoStore): Promise<void> {
  for (const step of SEED) await step(store);
}

/** The seed, a step at a time (each step awaited on an asynchronous store, synchronous on the library). */
const SEED: ReadonlyArray<(lib: PhotoStore) => Awaitable<unknown>> = (() => {
  const photo = (title: string, format: PhotoFormat, takenAt: number, tags: string[]): Photo =>
    new Photo().setTitle(title).setFormat(format).setTakenAt(takenAt).setTags(new StringArray(tags));
  return [
    (lib) =>
      lib.addPhoto(
        photo('Sunrise over the bay', PhotoFormat.JPEG, 1_732_262_400_000, ['sunrise', 'bay'])
          .setLocation(new LatLong().setLatitude(37.8199).setLongitude(-122.4783))
          .setExif(new Exif().setCamera('X100V').setIso(200).setFocalLength(23)),
      ),
    (lib) => lib.addPhoto(photo('Harbour lights', PhotoFormat.PNG, 1_732_300_000_000, ['night', 'bay'])),
    (lib) => lib.addPhoto(photo('Dunes at noon', PhotoFormat.JPEG, 1_700_000_000_000, ['desert'])),
    (lib) => lib.addPhoto(photo('Été à Paris ☀', PhotoFormat.HEIC, 1_720_000_000_000, ['paris', 'summer'])),
    (lib) =>
      lib.addPhoto(
        photo('Old barn', PhotoFormat.RAW, 1_600_000_000_000, ['farm']).setTags(
          new StringArray(['farm', 'bw']),
        ),
      ),
    (lib) => lib.addPhoto(photo('Fireworks', PhotoFormat.GIF, 1_735_689_600_000, ['night', 'party'])),
    (lib) => lib.addAlbum(new Album().setName('Trips').setDescription('Places we went').setCoverPhotoId(1)),
    (lib) => lib.addAlbum(new Album().setName('Favourites')),
    ...[1, 2, 3, 4].map(
      (photoId) => (lib: PhotoStore) =>
        lib.putEntry({ albumId: 1, photoId }, new AlbumEntry().setAddedAt(1_735_000_000_000)),
    ),
    ...[1, 6].map(
      (photoId) => (lib: PhotoStore) =>
        lib.putEntry({ albumId: 2, photoId }, new AlbumEntry().setAddedAt(1_735_000_000_000).setCaption('★')),
    ),
  ];
})();
