import { LONG_KEY, collection } from '../../../src';
import { Photo } from '../../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoFormat } from '../../../examples/src/main/generated/com/example/photos/PhotoFormat';

/**
 * A collection for the logging tests: its get of 500 fails (an error response and the server's error
 * line), its get of 42 writes a line of its own through `ctx.log` at info, any other id answers a photo.
 */
export const things = collection({
  name: 'things',
  key: LONG_KEY,
  value: Photo,
  methods: {
    get: (id: number | bigint, ctx) => {
      if (id === 500) throw new Error('exploded');
      if (id === 42) ctx.log.info({ answer: 42 }, 'handler line');
      return new Photo().setTitle(`thing ${id}`).setFormat(PhotoFormat.PNG);
    },
  },
});
