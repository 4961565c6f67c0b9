/**
 * The reader contracts (brief, "Attachment reading") over in-process writers, proxying (an incoming
 * attachment is a writer, an incoming reader a data source iterator), and the RxJS face with demand.
 */
import { createHash } from 'node:crypto';
import {
  Observable,
  Subject,
  firstValueFrom,
  lastValueFrom,
  concatMap,
  from,
  timer,
  toArray,
  map,
} from 'rxjs';
import {
  type AttachmentDataSourceWriter,
  AttachmentReader,
  type AttachmentReaderCallback,
  AttachmentStateError,
  type PartsChannel,
  type SingleAttachmentReader,
  attachmentChunks$,
  attachments$,
  channelFromWriter,
  consumeChunks,
  dataSourceIterator,
  partsFromIterator,
  writerChunks$,
  writerFromAsyncIterable,
  writerFromBytes,
  writerFromObservable,
  writerFromSyncInput,
} from '../../src/streams';
import { quiescent } from '../support/quiescent';

const text = (chunks: readonly Uint8Array[]): string => Buffer.concat(chunks).toString();
const bytes = (s: string): Uint8Array => Buffer.from(s);

function readerOf(writers: AttachmentDataSourceWriter[]): AttachmentReader {
  return new AttachmentReader(partsFromIterator(dataSourceIterator(writers)));
}

/** Reads every attachment with the callback API, one chunk per request; resolves id → text. */
function readAll(reader: AttachmentReader): Promise<Array<[string, string]>> {
  return new Promise((resolve, reject) => {
    const out: Array<[string, string]> = [];
    reader.registerAttachmentReaderCallback({
      onNewAttachment: (single) => {
        const chunks: Uint8Array[] = [];
        single.registerCallback({
          onAttachmentDataAvailable: (c) => {
            chunks.push(c);
            single.requestAttachmentData();
          },
          onFinished: () => out.push([single.getAttachmentID(), text(chunks)]),
          onDrainComplete: () => out.push([single.getAttachmentID(), '(drained)']),
          onAttachmentError: reject,
        });
        single.requestAttachmentData();
      },
      onFinished: () => resolve(out),
      onDrainComplete: () => resolve(out),
      onStreamError: reject,
    });
  });
}

describe('attachment reader', () => {
  it('offers each attachment after the previous finished, with its chunks in order', async () => {
    const reader = readerOf([
      writerFromBytes('a', bytes('hello world'), 3),
      writerFromBytes('empty', new Uint8Array(0)),
      writerFromBytes('one', bytes('x')),
    ]);
    expect(await readAll(reader)).toEqual([
      ['a', 'hello world'],
      ['empty', ''],
      ['one', 'x'],
    ]);
    expect(reader.haveAllAttachmentsFinished()).toBe(true);
  });

  it('finishes at once when there are no attachments', async () => {
    expect(await readAll(readerOf([]))).toEqual([]);
  });

  it('delivers one chunk per request and refuses a second outstanding request', async () => {
    const reader = readerOf([writerFromBytes('a', bytes('abcdef'), 2)]);
    const single = await new Promise<SingleAttachmentReader>((resolve) =>
      reader.registerAttachmentReaderCallback({ ...ignore, onNewAttachment: resolve }),
    );
    const got: string[] = [];
    single.registerCallback({
      ...ignoreSingle,
      onAttachmentDataAvailable: (c) => got.push(Buffer.from(c).toString()),
    });
    expect(() => single.registerCallback(ignoreSingle)).toThrow(AttachmentStateError);
    single.requestAttachmentData();
    expect(got).toEqual(['ab']);
    single.requestAttachmentData();
    expect(got).toEqual(['ab', 'cd']);
  });

  it('refuses to read before a callback is registered', async () => {
    const reader = readerOf([writerFromBytes('a', bytes('abc'))]);
    const single = await new Promise<SingleAttachmentReader>((resolve) =>
      reader.registerAttachmentReaderCallback({ ...ignore, onNewAttachment: resolve }),
    );
    expect(() => single.requestAttachmentData()).toThrow(/register a callback/);
  });

  it('drains one attachment and goes on to the next', async () => {
    const reader = readerOf([
      writerFromBytes('skip', bytes('zzzzzz'), 1),
      writerFromBytes('keep', bytes('ok')),
    ]);
    const out: string[] = [];
    await new Promise<void>((resolve, reject) =>
      reader.registerAttachmentReaderCallback({
        onNewAttachment: (single) => {
          const chunks: Uint8Array[] = [];
          single.registerCallback({
            onAttachmentDataAvailable: (c) => {
              chunks.push(c);
              single.requestAttachmentData();
            },
            onFinished: () => out.push(`${single.getAttachmentID()}=${text(chunks)}`),
            onDrainComplete: () => out.push(`${single.getAttachmentID()} drained`),
            onAttachmentError: reject,
          });
          if (single.getAttachmentID() === 'skip') single.drainAttachment();
          else single.requestAttachmentData();
        },
        onFinished: resolve,
        onDrainComplete: reject,
        onStreamError: reject,
      }),
    );
    expect(out).toEqual(['skip drained', 'keep=ok']);
  });

  it('drains everything left and reports onDrainComplete', async () => {
    const reader = readerOf([writerFromBytes('a', bytes('aaa'), 1), writerFromBytes('b', bytes('bbb'))]);
    const done = new Promise<string>((resolve, reject) =>
      reader.registerAttachmentReaderCallback({
        onNewAttachment: (single) => {
          single.registerCallback(ignoreSingle);
          reader.drainAllAttachments();
        },
        onFinished: () => reject(new Error('finished instead of drained')),
        onDrainComplete: () => resolve('drained'),
        onStreamError: reject,
      }),
    );
    expect(await done).toBe('drained');
    expect(reader.haveAllAttachmentsFinished()).toBe(true);
  });

  it('drains a reader nobody registered with', async () => {
    const reader = readerOf([writerFromBytes('a', bytes('aaa'))]);
    reader.drainAllAttachments();
    await until(() => reader.haveAllAttachmentsFinished());
  });

  it('fails the stream on an attachment part without Content-ID', async () => {
    const parts: PartsChannel = {
      setListener: (l) => {
        parts.request = () =>
          l.onPart({ headers: new Map(), body: channelFromWriter(writerFromBytes('x', bytes('x'))) });
      },
      request: () => undefined,
      cancel: () => undefined,
    };
    await expect(readAll(new AttachmentReader(parts))).rejects.toThrow(
      'Illegally formed multipart mime envelope. RestLi attachment is missing the ContentID!',
    );
  });

  it('reads Content-ID with or without angle brackets', async () => {
    const parts: PartsChannel = {
      setListener: (l) => {
        let n = 0;
        parts.request = () => {
          n++;
          if (n === 1)
            l.onPart({
              headers: new Map([['content-id', '<abc>']]),
              body: channelFromWriter(writerFromBytes('?', bytes('1'))),
            });
          else if (n === 2)
            l.onPart({
              headers: new Map([['content-id', 'def']]),
              body: channelFromWriter(writerFromBytes('?', bytes('2'))),
            });
          else l.onEnd();
        };
      },
      request: () => undefined,
      cancel: () => undefined,
    };
    expect(await readAll(new AttachmentReader(parts))).toEqual([
      ['abc', '1'],
      ['def', '2'],
    ]);
  });

  it('reports a writer that fails as an attachment error and a stream error', async () => {
    const failing: AttachmentDataSourceWriter = {
      getAttachmentID: () => 'bad',
      onInit: () => undefined,
      onWritePossible: () => {
        throw new Error('disk gone');
      },
      onAbort: () => undefined,
    };
    await expect(readAll(readerOf([failing, writerFromBytes('b', bytes('b'))]))).rejects.toThrow('disk gone');
  });
});

describe('proxying', () => {
  it('forwards an incoming attachment as a writer, bytes intact', async () => {
    const payload = Buffer.alloc(300_000, 7).map((_, i) => i % 251);
    const incoming = readerOf([writerFromBytes('big', payload, 4096)]);
    const forwarded = await firstAttachment(incoming);
    const out = await lastValueFrom(writerChunks$(forwarded).pipe(toArray()));
    expect(Buffer.compare(Buffer.concat(out), payload)).toBe(0);
  });

  it('forwards every incoming attachment as a data source iterator, through two hops', async () => {
    const first = readerOf([writerFromBytes('a', bytes('alpha'), 2), writerFromBytes('b', bytes('beta'))]);
    const second = new AttachmentReader(partsFromIterator(first));
    const third = new AttachmentReader(partsFromIterator(second));
    expect(await readAll(third)).toEqual([
      ['a', 'alpha'],
      ['b', 'beta'],
    ]);
  });
});

describe('RxJS face', () => {
  it('emits the attachments and their data with attachments$', async () => {
    const reader = readerOf([
      writerFromBytes('a', bytes('one two'), 2),
      writerFromBytes('b', bytes('three')),
    ]);
    const got = await lastValueFrom(
      attachments$(reader).pipe(
        concatMap((a) =>
          a.data$.pipe(
            toArray(),
            map((chunks) => `${a.id}:${text(chunks)}`),
          ),
        ),
        toArray(),
      ),
    );
    expect(got).toEqual(['a:one two', 'b:three']);
  });

  it('pulls only what demand$ asks for', async () => {
    let pulled = 0;
    async function* source(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 10; i++) {
        await Promise.resolve();
        pulled++;
        yield bytes(String(i));
      }
    }
    const demand = new Subject<number>();
    const seen: string[] = [];
    const sub = writerChunks$(writerFromAsyncIterable('g', source()), demand).subscribe((c) =>
      seen.push(Buffer.from(c).toString()),
    );
    await quiescent(() => pulled);
    expect(pulled).toBe(0);
    demand.next(3);
    await until(() => seen.length === 3);
    await quiescent(() => pulled);
    expect(pulled).toBe(3);
    expect(seen).toEqual(['0', '1', '2']);
    sub.unsubscribe();
  });

  it('aborts the writer when the subscriber unsubscribes', () => {
    const calls: string[] = [];
    const writer: AttachmentDataSourceWriter = {
      getAttachmentID: () => 'w',
      onInit: () => calls.push('init'),
      onWritePossible: () => calls.push('writePossible'),
      onAbort: (e) => calls.push(`abort:${e.name}`),
    };
    writerChunks$(writer).subscribe().unsubscribe();
    expect(calls).toEqual(['init', 'writePossible', 'abort:AttachmentAbortedError']);
  });

  it('drains the rest of an attachment whose subscriber unsubscribes, so the next one comes', async () => {
    const reader = readerOf([writerFromBytes('a', bytes('abcdef'), 1), writerFromBytes('b', bytes('ok'))]);
    const got = await lastValueFrom(
      attachments$(reader).pipe(
        concatMap((a) =>
          a.id === 'a'
            ? from(firstValueFrom(a.data$)).pipe(map((c) => `a:${Buffer.from(c).toString()}`))
            : a.data$.pipe(
                toArray(),
                map((c) => `b:${text(c)}`),
              ),
        ),
        toArray(),
      ),
    );
    expect(got).toEqual(['a:a', 'b:ok']);
  });

  it('consumeChunks keeps one chunk in flight while the work is asynchronous', async () => {
    const reader = readerOf([writerFromBytes('a', bytes('abcdefgh'), 1)]);
    const single = await firstAttachment(reader);
    let inFlight = 0;
    let maxInFlight = 0;
    const out = await lastValueFrom(
      consumeChunks(
        (demand$) => attachmentChunks$(single, demand$),
        (chunk) => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          return timer(1).pipe(
            map(() => {
              inFlight--;
              return Buffer.from(chunk).toString();
            }),
          );
        },
      ).pipe(toArray()),
    );
    expect(out.join('')).toBe('abcdefgh');
    expect(maxInFlight).toBe(1);
  });

  it('writes a demand-aware Observable source only as fast as asked', async () => {
    const asked: number[] = [];
    const writer = writerFromObservable(
      'o',
      (demand$) =>
        new Observable<Uint8Array>((s) => {
          let sent = 0;
          const sub = demand$.subscribe((n) => {
            asked.push(n);
            for (let i = 0; i < n && sent < 5; i++) s.next(bytes(String(sent++)));
            if (sent === 5) s.complete();
          });
          return sub;
        }),
    );
    const out = await lastValueFrom(writerChunks$(writer).pipe(toArray()));
    expect(text(out)).toBe('01234');
    expect(Math.max(...asked)).toBe(1);
  });

  it('fails a plain Observable source that runs too far ahead of demand', async () => {
    const writer = writerFromObservable('o', from(Array.from({ length: 100 }, (_, i) => bytes(String(i)))), {
      maxBufferedChunks: 4,
    });
    const demand = new Subject<number>();
    const result = lastValueFrom(writerChunks$(writer, demand).pipe(toArray()));
    demand.next(1);
    await expect(result).rejects.toThrow(/ran more than 4 chunks ahead of demand/);
  });

  it('wraps a synchronous input (discouraged, but there)', async () => {
    const chunks = ['a', 'b', 'c'];
    let closed = false;
    const writer = writerFromSyncInput('s', {
      read: () => (chunks.length > 0 ? bytes(chunks.shift()!) : null),
      close: () => (closed = true),
    });
    expect(text(await lastValueFrom(writerChunks$(writer).pipe(toArray())))).toBe('abc');
    expect(closed).toBe(true);
  });

  it('streams 64 MiB generated on the fly with bounded memory, checksum intact', async () => {
    const size = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 1);
    async function* generate(): AsyncGenerator<Uint8Array> {
      for (let sent = 0; sent < size; sent += chunk.length) {
        await Promise.resolve();
        yield chunk;
      }
    }
    const expected = createHash('sha256');
    for (let sent = 0; sent < size; sent += chunk.length) expected.update(chunk);
    const hash = createHash('sha256');
    const reader = readerOf([writerFromAsyncIterable('big', generate())]);
    let total = 0;
    await lastValueFrom(
      attachments$(reader).pipe(
        concatMap((a) => a.data$),
        map((c) => {
          total += c.length;
          hash.update(c);
          return c.length;
        }),
        toArray(),
      ),
    );
    expect(total).toBe(size);
    expect(hash.digest('hex')).toBe(expected.digest('hex'));
  });
});

const ignore: AttachmentReaderCallback = {
  onNewAttachment: () => undefined,
  onFinished: () => undefined,
  onDrainComplete: () => undefined,
  onStreamError: () => undefined,
};
const ignoreSingle = {
  onAttachmentDataAvailable: (): void => undefined,
  onFinished: (): void => undefined,
  onDrainComplete: (): void => undefined,
  onAttachmentError: (): void => undefined,
};

/** The first attachment, through the callback API (unsubscribing from attachments$ would drain it). */
function firstAttachment(reader: AttachmentReader): Promise<SingleAttachmentReader> {
  return new Promise((resolve, reject) =>
    reader.registerAttachmentReaderCallback({ ...ignore, onNewAttachment: resolve, onStreamError: reject }),
  );
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await tick();
  expect(condition()).toBe(true);
}
