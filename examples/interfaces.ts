/**
 * The example service's interfaces: what `photos`, `albums` and `albumEntries` offer (keys, classes,
 * methods, finders, batch finders, actions and their parameters), declared without handlers. The server
 * implements them (`resources.ts`); a client needs only this module and the generated classes
 * (`client.ts`), so it can be handed to another team without the server's code or its store.
 */
import {
  INT,
  LONG,
  LONG_KEY,
  STRING,
  actionSpec,
  associationInterface,
  assocKey,
  attachmentsParam,
  batchFinderSpec,
  collectionInterface,
  criteriaOf,
  enumOf,
  finderSpec,
  optional,
  recordOf,
} from 'svc-framework';
import { Album } from './src/main/generated/com/example/photos/Album';
import { AlbumEntry } from './src/main/generated/com/example/photos/AlbumEntry';
import { Exif } from './src/main/generated/com/example/photos/Exif';
import { Photo } from './src/main/generated/com/example/photos/Photo';
import { PhotoCriteria } from './src/main/generated/com/example/photos/PhotoCriteria';
import { PhotoFormat } from './src/main/generated/com/example/photos/PhotoFormat';
import { PurgeResult } from './src/main/generated/com/example/photos/PurgeResult';

/** The `photos` collection: `/photos`, `/photos/1`. */
export const photosInterface = collectionInterface({
  name: 'photos',
  namespace: 'com.example.photos',
  key: LONG_KEY,
  value: Photo,
  doc: 'Photos of the library.',
  // the server assigns ids: a create that sends one is refused (422), as a Rest.li @ReadOnly("id") resource
  readOnly: ['id'],
  methods: {
    get: { doc: 'A photo; with `Accept: multipart/related`, its image comes as a response attachment.' },
    batchGet: {},
    create: { doc: 'Adds a photo; a multipart/related request carries its image (`image: "cid:<id>"`).' },
    batchCreate: {},
    update: {},
    partialUpdate: {},
    delete: {},
    batchDelete: {},
    getAll: { doc: 'Every photo, a page at a time.' },
  },
  finders: {
    titleAndOrFormat: finderSpec({
      params: { title: optional(STRING), format: optional(enumOf(PhotoFormat)) },
      doc: 'Photos by title, format, or both.',
    }),
    byTag: finderSpec({ params: { tag: STRING }, paging: true, doc: 'Photos with a tag.' }),
    export: finderSpec({
      params: {},
      paging: true,
      doc: 'Every photo in id order, streamed (count up to 1,000,000).',
    }),
  },
  batchFinders: {
    searchPhotos: batchFinderSpec({
      batchParam: 'criteria',
      params: { criteria: criteriaOf(PhotoCriteria), exif: optional(recordOf(Exif)) },
      doc: 'One page of photos per criterion, in the order sent.',
    }),
  },
  actions: {
    relay: actionSpec({
      params: { photo: recordOf(Photo), image: attachmentsParam() },
      returns: LONG,
      doc: "Creates the photo on the upstream instance, its image forwarded; answers the upstream's id.",
    }),
    purge: actionSpec({
      params: { takenBefore: optional(LONG, 0) },
      returns: recordOf(PurgeResult),
      doc: 'Removes photos taken before a time, and their album entries.',
    }),
  },
  entityActions: {
    addTag: actionSpec({
      params: { tag: STRING },
      returns: INT,
      doc: 'Tags a photo; answers its number of tags.',
    }),
  },
});

/** The `albums` collection: `/albums`, `/albums/1`. */
export const albumsInterface = collectionInterface({
  name: 'albums',
  namespace: 'com.example.photos',
  key: LONG_KEY,
  value: Album,
  doc: 'Albums; their photos are the albumEntries with their id.',
  methods: ['get', 'batchGet', 'create', 'update', 'partialUpdate', 'delete', 'getAll'],
});

/** The `albumEntries` association: `/albumEntries/(albumId:1,photoId:2)`. */
export const albumEntriesInterface = associationInterface({
  name: 'albumEntries',
  namespace: 'com.example.photos',
  assocKeys: { albumId: LONG, photoId: LONG },
  value: AlbumEntry,
  doc: 'A photo in an album.',
  methods: {
    get: {},
    batchGet: {},
    update: { doc: 'Puts the photo into the album (201).' },
    delete: {},
    batchDelete: {},
    getAll: {},
  },
  finders: {
    // GET /albumEntries/(albumId:1)?q=byAlbum: the album id is the partial key in the path
    byAlbum: finderSpec({ params: { albumId: assocKey(LONG) }, doc: 'The entries of an album.' }),
    byPhoto: finderSpec({ params: { photoId: assocKey(LONG) }, doc: 'The albums a photo is in.' }),
  },
});

/** The example service's interfaces, by the property a client exposes each as. */
export const exampleInterfaces = {
  photos: photosInterface,
  albums: albumsInterface,
  albumEntries: albumEntriesInterface,
} as const;
