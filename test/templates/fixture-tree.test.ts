/**
 * The classes generated from the shared fixture tree (test/fixtures/pegasus), used as an application would:
 * defaults of every type, includes, typerefs, unions with and without typeref, recursive and mutually
 * referring records, package overrides.
 */
import { ByteString, Data, DataMap, GetMode, JsonCodec, LongArray, StringArray, StringMap } from '../../src';
import { AuditStamp } from '../generated/fixtures/com/example/common/AuditStamp';
import { Money } from '../generated/fixtures/com/example/common/Money';
import { AllDefaults } from '../generated/fixtures/org/acme/graph/AllDefaults';
import { Fruit } from '../generated/fixtures/org/acme/graph/Fruit';
import { TreeNode } from '../generated/fixtures/org/acme/graph/TreeNode';
import { Graph } from '../generated/fixtures/org/acme/graph/Graph';
import { EdgeArray } from '../generated/fixtures/org/acme/graph/EdgeArray';
import { Edge, Edge_Label } from '../generated/fixtures/org/acme/graph/Edge';
import { Badge } from '../generated/fixtures/org/acme/hr/api/Badge';
import { AccessLevel } from '../generated/fixtures/org/acme/hr/api/AccessLevel';
import { Site } from '../generated/fixtures/org/acme/hr/api/sites/Site';
import { Employee } from '../generated/fixtures/org/acme/hr/Employee';
import { Department } from '../generated/fixtures/org/acme/hr/Department';
import { Album } from '../generated/fixtures/com/example/photos/Album';
import { MediaContent } from '../generated/fixtures/com/example/photos/MediaContent';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoEvent } from '../generated/fixtures/com/example/photos/PhotoEvent';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';
import { PhotoStream } from '../generated/fixtures/com/example/photos/PhotoStream';
import { Visibility } from '../generated/fixtures/com/example/photos/Visibility';
import { SearchQuery } from '../generated/fixtures/com/example/photos/search/SearchQuery';
import { SearchResult } from '../generated/fixtures/com/example/photos/search/SearchResult';
import { SortOrder } from '../generated/fixtures/com/example/photos/search/SortOrder';
import { Video } from '../generated/fixtures/com/example/video/Video';
import { VideoCodec } from '../generated/fixtures/com/example/video/VideoCodec';

describe('the generated fixture tree', () => {
  it('gives a default of every type through the getters', () => {
    const d = new AllDefaults();
    expect(d.getAnInt()).toBe(-2147483648);
    expect(d.getALong()).toBe(9223372036854775807n);
    expect(d.getAFloat()).toBe(3.5);
    expect(d.getADouble()).toBe(1e-300);
    expect(d.getABoolean()).toBe(true);
    expect(d.getAString()).toBe('café ☃');
    expect(d.getSomeBytes().equals(ByteString.copy([0, 0x7f, 0x80, 0xff]))).toBe(true);
    expect(d.getAnEnum()).toBe(Fruit.PEAR);
    expect(d.getAFixed().bytes().asAvroString()).toBe('abcd');
    expect(d.getAnArray().toArray()).toEqual([1, 2, 3]);
    expect(d.getAMap().get('x')).toBe(Fruit.APPLE);
    expect(d.getARecord().getChildren().get(0).getValue()).toBe('leaf');
    expect(d.getAUnion().getFruit()).toBe(Fruit.APPLE);
    expect(d.getAnAliasedUnion().getTotal()).toBe(7);
    expect(d.getANullableUnion().isNull()).toBe(true);
    expect(d.getATyperef()).toBe(1700000000000);
    expect(d.getAnUrnList().toArray()).toEqual(['urn:li:photo:1']);
    expect(d.data().size).toBe(0);
  });

  it('builds a photo with included fields, typerefs, enums and defaults', () => {
    const photo = new Photo()
      .setId(9007199254740993n)
      .setTime(1700000000000)
      .setActor('urn:li:member:1')
      .setUrn('urn:li:photo:9')
      .setTitle('Sunset')
      .setFormat(PhotoFormat.JPEG)
      .setTags(new StringArray(['sky']))
      .setAttributes(new StringMap({ camera: 'x100' }));
    expect(photo.getId()).toBe(9007199254740993n);
    expect(photo.getVisibility()).toBe(Visibility.PUBLIC);
    expect(photo.getThumbnail().length).toBe(3);
    const json = new JsonCodec().mapToString(photo.data());
    expect(json).toContain('"id":9007199254740993');
    const back = new Photo(new JsonCodec().stringToMap(json));
    expect(back.equals(photo)).toBe(true);
    expect(back.getTags().get(0)).toBe('sky');
    expect(back.getAttributes().get('camera')).toBe('x100');
  });

  it('uses typeref unions and their arrays and maps', () => {
    const stream = new PhotoStream();
    expect(stream.getLastEvent().getMovedToAlbum()).toBe(7);
    expect(stream.getFirstContent().getExternalUrl()).toBe('https://example.com/a.jpg');
    expect(stream.getFirstContent(GetMode.NULL)).toBeUndefined();
    expect(stream.getContents().size).toBe(0);
    const event = PhotoEvent.createWithRetagged(new StringArray(['a']));
    expect(event.typerefInfo().fullName()).toBe('com.example.photos.PhotoEvent');
    expect(new MediaContent().isNull()).toBe(true);
    expect(MediaContent.createWithExternalId('urn:x:y:z').getExternalId()).toBe('urn:x:y:z');
  });

  it('supports structured defaults', () => {
    const q = new SearchQuery();
    expect(q.getKeywords().toArray()).toEqual(['sunset']);
    expect(q.getFilters().getFormats().toArray()).toEqual([PhotoFormat.JPEG, PhotoFormat.PNG]);
    expect(q.getFilters().getMinWidth()).toBe(0);
    expect(q.getSort().getSortOrder()).toBe(SortOrder.RELEVANCE);
    expect(q.getBoosts().get('title')).toBe(2);
    expect(q.getPage().getCount()).toBe(10);
    expect(new SearchResult().getFacets().get('format')!.getCounts().get('JPEG')).toBe(12);
  });

  it('binds recursive and mutually referring records', () => {
    const root = new TreeNode().setValue('a');
    const graph = new Graph().setRoot(root);
    expect(graph.getRoot()!.getChildren().length).toBe(0);
    const edges = new EdgeArray([new Edge().setFrom('a').setTo('b')]);
    graph.setEdges(edges);
    expect(graph.getEdges().get(0).getWeight()).toBe(1);
    expect(graph.getEdges().get(0).getLabel().isNull()).toBe(true);
    expect(new Edge_Label(new DataMap({ string: 'x' })).getString()).toBe('x');
    const boss = new Employee().setName('Ann');
    const dept = new Department().setCode('R&D').setHead(boss);
    const dev = new Employee().setName('Bob').setDepartment(dept).setManager(boss);
    expect(dev.getDepartment()!.getHead()!.getName()).toBe('Ann');
  });

  it('puts classes in the binding package, nested ones inheriting it', () => {
    const badge = new Badge().setNumber('7').setSite(new Site().setCode('HQ'));
    expect(badge.getLevel()).toBe(AccessLevel.STAFF);
    expect(badge.schema().getFullName()).toBe('org.acme.hr.Badge');
    expect(badge.getSite()!.schema().getFullName()).toBe('org.acme.hr.sites.Site');
  });

  it('gives includes their own classes and list defaults', () => {
    const v = new Video();
    expect(v.getCodec()).toBe(VideoCodec.H264);
    expect(v.getRenditions().get(0).getWidth()).toBe(640);
    const stamp = new AuditStamp().setTime(1).setActor('urn:a:b:c');
    expect(stamp.getImpersonator()).toBeUndefined();
    expect(new Money().setAmount('1.5').getCurrencyCode()).toBe('USD');
    const album = new Album(Data.fromJS({ photosByTag: { sky: [1, 2] } }) as DataMap);
    expect(album.getPhotosByTag()!.get('sky')).toBeInstanceOf(LongArray);
    expect(album.getEntries().length).toBe(0);
  });
});
