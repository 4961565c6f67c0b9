/**
 * The write handle's contract (brief, "Write handle") and the writer's callbacks ("Attachment data
 * source"), row by row.
 */
import {
  type AttachmentDataSourceWriter,
  AttachmentStateError,
  type ChunkSink,
  WriteHandle,
} from '../../src/streams';

interface Recorder extends ChunkSink {
  readonly events: string[];
}

function recorder(): Recorder {
  const events: string[] = [];
  return {
    events,
    onChunk: (c) => events.push(`chunk:${Buffer.from(c).toString()}`),
    onDone: () => events.push('done'),
    onError: (e) => events.push(`error:${e.message}`),
  };
}

/** A writer that records its callbacks and lets the test write through its handle. */
function probeWriter(onWritePossible: (h: WriteHandle) => void = () => undefined) {
  const calls: string[] = [];
  let handle: WriteHandle | undefined;
  const writer: AttachmentDataSourceWriter = {
    getAttachmentID: () => 'a1',
    onInit: (h) => {
      calls.push('init');
      handle = h;
    },
    onWritePossible: () => {
      calls.push(`writePossible(${handle!.remaining()})`);
      onWritePossible(handle!);
    },
    onAbort: (e) => calls.push(`abort:${e.message}`),
  };
  return { writer, calls, handle: () => handle! };
}

const bytes = (s: string): Uint8Array => Buffer.from(s);

describe('write handle', () => {
  it('calls onInit on attach and onWritePossible when capacity is granted', () => {
    const p = probeWriter();
    const sink = recorder();
    const h = WriteHandle.attach(p.writer, sink);
    expect(p.calls).toEqual(['init']);
    expect(h.remaining()).toBe(0);
    h.grant(2);
    expect(p.calls).toEqual(['init', 'writePossible(2)']);
  });

  it('writes up to remaining() chunks, then throws an AttachmentStateError', () => {
    const p = probeWriter();
    const sink = recorder();
    const h = WriteHandle.attach(p.writer, sink);
    h.grant(2);
    h.write(bytes('a'));
    h.write(bytes('b'));
    expect(h.remaining()).toBe(0);
    expect(() => h.write(bytes('c'))).toThrow(AttachmentStateError);
    expect(() => h.write(bytes('c'))).toThrow(/no remaining capacity on attachment 'a1'/);
    expect(sink.events).toEqual(['chunk:a', 'chunk:b']);
  });

  it.each([
    ['done', (h: WriteHandle) => h.done(), /write after done\(\)/],
    ['error', (h: WriteHandle) => h.error(new Error('x')), /write after error\(\)/],
  ])('throws on write after %s, and remaining() is 0', (_n, end, message) => {
    const p = probeWriter();
    const h = WriteHandle.attach(p.writer, recorder());
    h.grant(5);
    end(h);
    expect(h.remaining()).toBe(0);
    expect(() => h.write(bytes('x'))).toThrow(message);
  });

  it('ignores writes, done and error after an abort, and reports remaining() 0', () => {
    const p = probeWriter();
    const sink = recorder();
    const h = WriteHandle.attach(p.writer, sink);
    h.grant(3);
    h.abort(new Error('gone'));
    expect(p.calls.at(-1)).toBe('abort:gone');
    expect(h.remaining()).toBe(0);
    h.write(bytes('x'));
    h.done();
    h.error(new Error('late'));
    expect(sink.events).toEqual([]);
  });

  it('ignores a second done or error', () => {
    const p = probeWriter();
    const sink = recorder();
    const h = WriteHandle.attach(p.writer, sink);
    h.done();
    h.done();
    h.error(new Error('x'));
    expect(sink.events).toEqual(['done']);
  });

  it('calls onWritePossible again only once capacity returns after reaching 0', () => {
    const p = probeWriter();
    const h = WriteHandle.attach(p.writer, recorder());
    h.grant(2);
    h.grant(1); // capacity never ran out: no second call
    expect(p.calls.filter((c) => c.startsWith('writePossible'))).toHaveLength(1);
    h.write(bytes('a'));
    h.write(bytes('b'));
    h.write(bytes('c'));
    h.grant(1);
    expect(p.calls.filter((c) => c.startsWith('writePossible'))).toEqual([
      'writePossible(2)',
      'writePossible(1)',
    ]);
  });

  it('trampolines a consumer that grants from inside onWritePossible instead of recursing', () => {
    let written = 0;
    let depth = 0;
    let maxDepth = 0;
    const p = probeWriter((h) => {
      depth++;
      maxDepth = Math.max(maxDepth, depth);
      while (h.remaining() > 0 && written < 100_000) {
        h.write(bytes('x'));
        written++;
      }
      if (written === 100_000) h.done();
      depth--;
    });
    const held: { handle?: WriteHandle } = {};
    // a synchronous consumer: every chunk it gets, it asks for the next
    const handle = WriteHandle.attach(p.writer, {
      onChunk: () => held.handle!.grant(1),
      onDone: () => undefined,
      onError: () => undefined,
    });
    held.handle = handle;
    handle.grant(1);
    expect(written).toBe(100_000);
    expect(maxDepth).toBe(1);
  });

  it('fails the stream when onWritePossible throws', () => {
    const p = probeWriter(() => {
      throw new Error('disk gone');
    });
    const sink = recorder();
    WriteHandle.attach(p.writer, sink).grant(1);
    expect(sink.events).toEqual(['error:disk gone']);
  });

  it('tells whenClosed listeners once, at once if closed already', () => {
    const p = probeWriter();
    const h = WriteHandle.attach(p.writer, recorder());
    const seen: string[] = [];
    h.whenClosed(() => seen.push('first'));
    h.done();
    h.whenClosed(() => seen.push('late'));
    expect(seen).toEqual(['first', 'late']);
  });
});
