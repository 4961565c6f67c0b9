/** Fields path specs: records, unions, and arrays and maps that (transitively) contain records or unions. */
import { ArrayPathSpec, MapPathSpec, PathSpec, arrayPathSpecs } from '../../src';
import { Collections } from '../generated/binding/com/example/binding/Collections';
import { Holder } from '../generated/binding/com/example/binding/Holder';
import { Node, Node_Fields } from '../generated/binding/com/example/binding/Node';
import { package_ } from '../generated/binding/com/example/binding/package_';
import { Album } from '../generated/fixtures/com/example/photos/Album';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoStream } from '../generated/fixtures/com/example/photos/PhotoStream';

describe('path specs', () => {
  it('chain through records', () => {
    expect(Photo.fields().exif().camera().lens().focalLengthMm().toString()).toBe(
      '/exif/camera/lens/focalLengthMm',
    );
    expect(Photo.fields().exif().camera().getPathComponents()).toEqual(['exif', 'camera']);
    expect(Photo.fields().time().toString()).toBe('/time'); // an included field
  });

  it('step through arrays and maps with items() and values() ($*)', () => {
    expect(Album.fields().entries().items().albumId().toString()).toBe('/entries/$*/albumId');
    expect(Collections.fields().pointLists().values().items().x().toString()).toBe('/pointLists/$*/$*/x');
    expect(Node.fields().byKey().values().children().items().name().toString()).toBe(
      '/byKey/$*/children/$*/name',
    );
    expect(Album.fields().entries()).toBeInstanceOf(ArrayPathSpec);
    expect(Collections.fields().pointLists()).toBeInstanceOf(MapPathSpec);
  });

  it('are plain paths for arrays and maps of primitives', () => {
    const ints = Collections.fields().ints();
    expect(ints.toString()).toBe('/ints');
    expect(ints).not.toBeInstanceOf(ArrayPathSpec);
  });

  it('name union members by their keys', () => {
    expect(Holder.fields().plain().Point().x().toString()).toBe('/plain/com.example.binding.Point/x');
    expect(Holder.fields().aliased().Count().toString()).toBe('/aliased/count');
    expect(Holder.fields().shape().Circle().radius().toString()).toBe('/shape/circle/radius');
    expect(PhotoStream.fields().events().items().Created().photo().title().toString()).toBe(
      '/events/$*/created/photo/title',
    );
    expect(Holder.fields().nested().Array().items().Point().y().toString()).toBe(
      '/nested/array/$*/com.example.binding.Point/y',
    );
  });

  it('escape method names that are reserved', () => {
    const f = package_.fields();
    expect(f.class_().toString()).toBe('/class');
    expect(f.constructor_().toString()).toBe('/constructor');
    expect(f.toString_().toString()).toBe('/toString');
    expect(f.__proto___().toString()).toBe('/__proto__');
  });

  it('compare by their segments', () => {
    expect(
      Photo.fields()
        .exif()
        .equals(new PathSpec(['exif'])),
    ).toBe(true);
    expect(Photo.fields().exif().equals(Photo.fields().location())).toBe(false);
    expect(new PathSpec().toString()).toBe('');
    expect(PathSpec.WILDCARD).toBe('$*');
  });

  it('share one spec class per item class', () => {
    expect(arrayPathSpecs(Node_Fields)).toBe(arrayPathSpecs(Node_Fields));
  });
});
