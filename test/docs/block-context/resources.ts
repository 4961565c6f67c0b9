/**
 * `./resources` for the documentation's blocks: an application's resource definitions and interfaces, as
 * the pages import them from a user's module; here the example service's.
 */
import { albumEntriesResource, albumsResource, photosResource } from '../../../examples/resources';
import { seededLibrary } from '../../../examples/store';

export { albumEntriesInterface, albumsInterface, photosInterface } from '../../../examples/interfaces';

const library = seededLibrary();
export const photos = photosResource(library);
export const albums = albumsResource(library);
export const albumEntries = albumEntriesResource(library);
