import { Data } from '../src';
import { seededLibrary } from '../examples/store';
import { Photo } from '../examples/src/main/generated/com/example/photos/Photo';
import { PhotoFormat } from '../examples/src/main/generated/com/example/photos/PhotoFormat';
const library = seededLibrary();
for (let i = 7; i <= 30; i++) library.addPhoto(new Photo().setTitle(`Photo ${i}`).setFormat(PhotoFormat.PNG).setTakenAt(1_700_000_000_000 + i));
const photos = library.listPhotos();
const plain = photos.map((p) => Data.toJS(p.data()) as Record<string, unknown>);
const fmt = PhotoFormat.PNG;
function a(): number { let n = 0; for (const p of photos) if (p.getFormat() === fmt) n++; return n; }
function b(): number { let n = 0; for (const p of plain) if (p.format === fmt) n++; return n; }
function c(): number { return library.findPhotos(undefined, fmt).length; }
function d(): number { let n = 0; for (const p of photos) if (p.data().get('format') === fmt) n++; return n; }
for (const [name, f] of [['getFormat', a], ['plain', b], ['findPhotos', c], ['DataMap.get', d]] as const) {
  for (let w = 0; w < 20000; w++) f();
  const t = process.hrtime.bigint(); let s = 0;
  for (let i = 0; i < 200000; i++) s += f();
  console.log(name, (Number(process.hrtime.bigint() - t) / 200000 / 30).toFixed(2), 'ns/photo', s);
}
