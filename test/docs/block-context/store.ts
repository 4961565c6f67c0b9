/**
 * `./store` for the documentation's blocks: the application's own storage, which the pages import as a
 * user's module and call. Declared, not implemented: the blocks are compiled, never run, and what is
 * checked is the framework's API around these calls.
 */
import type { AlbumEntry } from '../../../examples/src/main/generated/com/example/photos/AlbumEntry';
import type { Exif } from '../../../examples/src/main/generated/com/example/photos/Exif';
import type { Photo } from '../../../examples/src/main/generated/com/example/photos/Photo';
import type { PhotoCriteria } from '../../../examples/src/main/generated/com/example/photos/PhotoCriteria';
import type { PhotoFormat } from '../../../examples/src/main/generated/com/example/photos/PhotoFormat';

type Id = number | bigint;

/** What the pages' handlers ask of their storage. */
export interface Store {
  get(id: Id): Photo | undefined;
  add(photo: Photo): number;
  put(id: Id, photo: Photo): void;
  patch(id: Id, photo: Photo): Photo;
  remove(id: Id): void;
  all(): Photo[];
  find(title?: string, format?: PhotoFormat): Photo[];
  recent(days: number, start: number, count: number): Photo[];
  purge(takenBefore: Id): number;
  tag(id: Id, tag: string): number;
  tagged(tag: string): Photo[];
  search(criteria: PhotoCriteria, exif?: Exif): Photo[];
  entry(albumId: Id, photoId: Id): AlbumEntry | undefined;
  entries(albumId: Id): AlbumEntry[];
}

export declare const store: Store;
