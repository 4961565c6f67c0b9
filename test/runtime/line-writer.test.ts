/**
 * The access log's writer: lines come out whole and in order, `flush` resolves once they are written,
 * and a process that exits right after logging (no flush) still has every line written.
 */
import { spawnSync } from 'node:child_process';
import fs, { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { LineWriter } from '../../src';
import { tempDirs } from '../support/temp-dirs';

const tempDir = tempDirs('svc-line-writer-');

it.each([
  ['small blocks (many writes)', 64, false],
  ['the default block (one write)', undefined, false],
  ['ASCII lines said to be so, in small blocks', 64, true],
  ['ASCII lines said to be so, in the default block', undefined, true],
  ['ASCII lines said to be so among UTF-8 ones, in small blocks', 64, 'mixed'],
  ['ASCII lines said to be so among UTF-8 ones, in the default block', undefined, 'mixed'],
] as const)(
  'writes every line in order with %s, and flush waits for them',
  async (_what, blockBytes, kind) => {
    const file = path.join(tempDir(), 'lines.log');
    const w = new LineWriter(file, blockBytes === undefined ? {} : { blockBytes });
    const expected: string[] = [];
    for (let i = 0; i < 500; i++) {
      // mixed: runs of ASCII lines (gathered before they are copied) broken by UTF-8 ones
      const ascii = kind === 'mixed' ? i % 13 !== 0 : kind;
      const line = `{"n":${i},"text":"${(ascii ? 'e' : 'é').repeat(i % 7)}"}\n`;
      expected.push(line);
      w.write(line, ascii);
    }
    await w.flush();
    expect(readFileSync(file, 'utf8')).toBe(expected.join(''));
    await w.close();
    expect(w.write('after close\n')).toBe(false);
  },
);

it('writes each block as it fills under a steady stream of lines, without waiting for flushMs', async () => {
  const file = path.join(tempDir(), 'steady.log');
  // 300-byte lines do not fill a 1 000-byte block exactly: each block is sealed by the line that does not fit
  const w = new LineWriter(file, { blockBytes: 1000, flushMs: 600_000 });
  const line = `${'x'.repeat(299)}\n`;
  let turns = 0;
  // a line per turn of the event loop, as requests come, until the first blocks are on disk
  while (fs.statSync(file).size < 3000 && turns < 20_000) {
    w.write(line, true);
    turns++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(fs.statSync(file).size).toBeGreaterThanOrEqual(3000);
  expect(w.dropped).toBe(0);
  await w.close();
  expect(readFileSync(file, 'utf8')).toBe(line.repeat(turns));
});

it('writes what is buffered when the process exits without a flush, ASCII lines not yet in the block too', () => {
  const file = path.join(tempDir(), 'exit.log');
  const script = `
    const { LineWriter } = require(${JSON.stringify(path.join(__dirname, '../../src/runtime/line-writer'))});
    const w = new LineWriter(process.argv[1], { flushMs: 60000 });
    for (let i = 0; i < 1000; i++) w.write('line ' + i + '\\n', i > 500);
    process.exit(0);
  `;
  const r = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script, file], {
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  expect(lines).toHaveLength(1000);
  expect(lines[999]).toBe('line 999');
});

it.each([
  ['lines', false],
  ['ASCII lines said to be so', true],
])(
  'writes %s to a pipe in whole lines of at most 4 KiB, which POSIX keeps whole among other writers',
  async (_what, ascii) => {
    const fifo = path.join(tempDir(), 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // read-write: opening does not wait for a reader, and the test reads back from the same descriptor
    const fd = openSync(fifo, 'r+');
    const sizes: string[] = [];
    const write = jest.spyOn(fs, 'write');
    try {
      const w = new LineWriter(fd);
      const expected: string[] = [];
      for (let i = 0; i < 150; i++) {
        const line = `${JSON.stringify({ i, pad: 'x'.repeat(300) })}\n`;
        expected.push(line);
        w.write(line, ascii);
      }
      await w.flush();
      for (const call of write.mock.calls) {
        const buf = call[1] as unknown as Buffer;
        sizes.push(
          `${buf.length <= 4096 ? 'fits' : `too long: ${buf.length}`} ${buf.at(-1) === 10 ? 'whole' : 'cut'}`,
        );
      }
      expect(new Set(sizes)).toEqual(new Set(['fits whole']));
      expect(sizes.length).toBeGreaterThan(10);
      const back = Buffer.alloc(65_536);
      const n = readSync(fd, back, 0, back.length, null);
      expect(back.subarray(0, n).toString()).toBe(expected.join(''));
      await w.close();
    } finally {
      write.mockRestore();
      closeSync(fd);
    }
  },
);

it('drops lines, counts them and warns once, rather than hold more than maxQueuedBytes for a destination that does not take them', async () => {
  const fifo = path.join(tempDir(), 'stalled');
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  // nobody reads the pipe until the end: once its 64 KiB are full, a write waits
  const fd = openSync(fifo, 'r+');
  const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    const w = new LineWriter(fd, { maxQueuedBytes: 32 * 1024 });
    const accepted: string[] = [];
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 100; i++) {
        const line = `${JSON.stringify({ round, i, pad: 'x'.repeat(200) })}\n`;
        if (w.write(line)) accepted.push(line);
      }
      // the event loop turns: queued blocks go to their writes
      await new Promise((r) => setImmediate(r));
    }
    const sent = Buffer.byteLength(accepted.join(''));
    expect(w.dropped).toBe(4000 - accepted.length);
    expect(w.dropped).toBeGreaterThan(0);
    // what is held or written: at most the bound, a pipe's capacity and a block
    expect(sent).toBeLessThanOrEqual(32 * 1024 + 64 * 1024 + 65_536);
    expect(warn).toHaveBeenCalledTimes(1);
    // the reader comes back: every accepted line arrives whole and in order
    const chunks: Buffer[] = [];
    let got = 0;
    const flushed = w.flush();
    while (got < sent) {
      const back = Buffer.alloc(65_536);
      const n = await new Promise<number>((resolve, reject) =>
        fs.read(fd, back, 0, back.length, null, (err, k) => (err ? reject(err) : resolve(k))),
      );
      chunks.push(back.subarray(0, n));
      got += n;
    }
    await flushed;
    expect(Buffer.concat(chunks).toString()).toBe(accepted.join(''));
    await w.close();
  } finally {
    warn.mockRestore();
    closeSync(fd);
  }
});
