/**
 * The example service's embedded store: photos, albums and album entries in memory, seeded with a small
 * library. A real service would talk to a database here; the resources (resources.ts) only see this class.
 */
import { ImageStore } from './images';
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

export class PhotoLibrary {
  /** The photos' image bytes (files, streamed in and out as attachments). */
  readonly images: ImageStore;
  private readonly photos = new Map<string, Photo>();
  private readonly albums = new Map<string, Album>();
  private readonly entries = new Map<string, AlbumEntry>();
  private nextPhotoId = 1;
  private nextAlbumId = 1;

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
    return [...this.photos.values()].sort((a, b) => Number(a.getId()!) - Number(b.getId()!));
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
    return stored;
  }

  /** Replaces photo `id`; false when there is none. */
  replacePhoto(id: Id, photo: Photo): boolean {
    if (!this.photos.has(text(id))) return false;
    this.photos.set(text(id), photo.copy().setId(id));
    return true;
  }

  /** Removes photo `id` and its album entries; false when there is none. */
  removePhoto(id: Id): boolean {
    if (!this.photos.delete(text(id))) return false;
    for (const [k, e] of this.entries) if (text(e.getPhotoId()!) === text(id)) this.entries.delete(k);
    return true;
  }

  /** Photos whose title contains `title` (any case) and/or of `format`. */
  findPhotos(title: string | undefined, format: PhotoFormat | undefined): Photo[] {
    const needle = title?.toLowerCase();
    return this.listPhotos().filter(
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
    return this.listPhotos().filter((p) => {
      if (p.getTitle() !== title || p.getFormat() !== format) return false;
      if (wanted === undefined) return true;
      const has = p.getExif(GetMode.NULL)?.data();
      return has !== undefined && [...wanted.entries()].every(([k, v]) => sameData(has.get(k), v));
    });
  }

  /** Photos tagged `tag`. */
  photosTagged(tag: string): Photo[] {
    return this.listPhotos().filter((p) => p.getTags().includes(tag));
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

/** A library with a few photos, two albums and their entries. */
export function seededLibrary(images?: ImageStore): PhotoLibrary {
  const lib = new PhotoLibrary(images);
  const photo = (title: string, format: PhotoFormat, takenAt: number, tags: string[]): Photo =>
    new Photo().setTitle(title).setFormat(format).setTakenAt(takenAt).setTags(new StringArray(tags));
  lib.addPhoto(
    photo('Sunrise over the bay', PhotoFormat.JPEG, 1_732_262_400_000, ['sunrise', 'bay'])
      .setLocation(new LatLong().setLatitude(37.8199).setLongitude(-122.4783))
      .setExif(new Exif().setCamera('X100V').setIso(200).setFocalLength(23)),
  );
  lib.addPhoto(photo('Harbour lights', PhotoFormat.PNG, 1_732_300_000_000, ['night', 'bay']));
  lib.addPhoto(photo('Dunes at noon', PhotoFormat.JPEG, 1_700_000_000_000, ['desert']));
  lib.addPhoto(photo('Été à Paris ☀', PhotoFormat.HEIC, 1_720_000_000_000, ['paris', 'summer']));
  lib.addPhoto(
    photo('Old barn', PhotoFormat.RAW, 1_600_000_000_000, ['farm']).setTags(new StringArray(['farm', 'bw'])),
  );
  lib.addPhoto(photo('Fireworks', PhotoFormat.GIF, 1_735_689_600_000, ['night', 'party']));
  const trips = lib.addAlbum(
    new Album().setName('Trips').setDescription('Places we went').setCoverPhotoId(1),
  );
  const favourites = lib.addAlbum(new Album().setName('Favourites'));
  for (const photoId of [1, 2, 3, 4])
    lib.putEntry({ albumId: trips.getId()!, photoId }, new AlbumEntry().setAddedAt(1_735_000_000_000));
  for (const photoId of [1, 6]) {
    lib.putEntry(
      { albumId: favourites.getId()!, photoId },
      new AlbumEntry().setAddedAt(1_735_000_000_000).setCaption('★'),
    );
  }
  return lib;
}
