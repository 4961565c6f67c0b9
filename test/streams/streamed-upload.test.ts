/**
 * A streamed request body through the client's transport (`nodeHttpFetch`), as a forwarding hop sends an
 * attachment: what the body yields in one turn of the event loop goes out as one chunk in one `writev`,
 * the framing is valid HTTP/1.1 (read back by Node's server, the connection reused after it), and demand
 * still goes from the receiving server back to the body.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import { nodeHttpFetch } from '../../src/client';

interface Server {
  readonly url: string;
  close(): Promise<void>;
}

async function listen(handler: http.RequestListener): Promise<Server> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/upload`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with the SHA-256 and length of the body, read in paused mode; `pace` runs after each read. */
function digestServer(pace?: (bytes: number) => Promise<void>): Promise<Server> {
  return listen((req, res) => {
    const hash = createHash('sha256');
    let size = 0;
    const next = async (): Promise<void> => {
      for (;;) {
        const chunk = req.read() as Buffer | null;
        if (chunk === null) break;
        hash.update(chunk);
        size += chunk.length;
        if (pace !== undefined) await pace(chunk.length);
      }
    };
    let reading = Promise.resolve();
    req.on('readable', () => {
      reading = reading.then(next);
    });
    req.on('end', () => {
      void reading.then(() => res.end(JSON.stringify({ sha: hash.digest('hex'), size })));
    });
  });
}

async function send(url: string, body: Readable): Promise<{ sha: string; size: number }> {
  const response = await nodeHttpFetch(url, {
    method: 'POST',
    headers: {},
    body,
    duplex: 'half',
    signal: new AbortController().signal,
  });
  expect(response.status).toBe(200);
  return JSON.parse(Buffer.from(await response.arrayBuffer()).toString()) as { sha: string; size: number };
}

describe('a streamed request body', () => {
  afterEach(() => jest.restoreAllMocks());

  it('goes out as one chunk in one writev for what one turn of the event loop yields', async () => {
    let received = 0;
    let onReceived = (): void => undefined;
    /** Resolves once the server has read `n` bytes of the body. */
    const receivedAtLeast = (n: number): Promise<void> =>
      new Promise((resolve) => {
        onReceived = () => {
          if (received >= n) resolve();
        };
        onReceived();
      });
    const server = await digestServer((bytes) => {
      received += bytes;
      onReceived();
      return Promise.resolve();
    });
    try {
      const expected = createHash('sha256');
      const piece = (n: number, fill: number): Buffer => {
        const b = Buffer.alloc(n, fill);
        expected.update(b);
        return b;
      };
      const body = new Readable({ read: () => undefined });
      const sent = send(server.url, body);
      // a first piece opens the connection
      body.push(piece(10, 1));
      await receivedAtLeast(10);
      type Writev = (chunks: unknown[], callback: () => void) => void;
      const proto = net.Socket.prototype as unknown as { _writev: Writev };
      const original = proto._writev;
      const writevs: number[] = [];
      const counted = jest.spyOn(proto, '_writev').mockImplementation(function (
        this: net.Socket,
        chunks,
        callback,
      ) {
        writevs.push(chunks.length);
        original.call(this, chunks, callback);
      });
      // as a forwarding hop receives them: two pieces from two runs of the tick queue in one turn of the
      // event loop (Node's own cork lasts until the first run's end)
      setImmediate(() => {
        body.push(piece(3000, 2));
        process.nextTick(() => body.push(piece(5000, 3)));
      });
      await receivedAtLeast(8010);
      counted.mockRestore();
      body.push(null);
      expect(await sent).toEqual({ sha: expected.digest('hex'), size: 8010 });
      // both pieces in one chunk (size line, the two pieces, CRLF) in a single writev
      expect(writevs).toEqual([4]);
    } finally {
      await server.close();
    }
  });

  it('frames empty and many-piece bodies in turn over one kept-alive connection', async () => {
    const sockets = new Set<net.Socket>();
    const server = await digestServer();
    try {
      const bodies = [[], [Buffer.from('a')], Array.from({ length: 50 }, (_, i) => Buffer.alloc(i * 997, i))];
      for (const pieces of bodies) {
        const expected = createHash('sha256');
        for (const p of pieces) expected.update(p);
        const body = Readable.from(pieces, { objectMode: false });
        const agent = http.globalAgent;
        const got = await send(server.url, body);
        expect(got).toEqual({
          sha: expected.digest('hex'),
          size: pieces.reduce((n, p) => n + p.length, 0),
        });
        for (const list of Object.values(agent.freeSockets)) for (const s of list ?? []) sockets.add(s);
      }
      // a body whose framing was off would have left the connection unusable (or been cut short)
      const plain = await nodeHttpFetch(server.url, {
        method: 'POST',
        headers: {},
        body: new Uint8Array([1, 2, 3]),
        signal: new AbortController().signal,
      });
      expect(JSON.parse(Buffer.from(await plain.arrayBuffer()).toString())).toMatchObject({ size: 3 });
      expect(sockets.size).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('is pulled only as fast as a slow server reads it, and arrives whole', async () => {
    let produced = 0;
    let read = 0;
    let maxAhead = 0;
    const server = await digestServer(async (bytes) => {
      read += bytes;
      await new Promise((r) => setTimeout(r, 1));
    });
    try {
      const chunk = Buffer.alloc(64 * 1024, 7);
      const expected = createHash('sha256');
      let left = 256;
      const body = new Readable({
        read(): void {
          if (left-- === 0) {
            this.push(null);
            return;
          }
          maxAhead = Math.max(maxAhead, produced - read);
          produced += chunk.length;
          expected.update(chunk);
          this.push(chunk);
        },
      });
      const got = await send(server.url, body);
      expect(got).toEqual({ sha: expected.digest('hex'), size: 16 * 1024 * 1024 });
      // the body could not run ahead of the server by more than the buffers between them
      expect(maxAhead).toBeLessThan(8 * 1024 * 1024);
    } finally {
      await server.close();
    }
  });
});
