import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the stub saw it on the wire. */
export interface SeenRequest {
  readonly method: string;
  /** The raw request target, e.g. `/photos?ids=List(1,2)`. */
  readonly url: string;
  /** Lower-case names, as Node gives them. */
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

export type StubHandler = (req: SeenRequest, res: ServerResponse) => void;

/**
 * A tiny HTTP server on loopback that answers with raw bytes written from the wire facts, never with our
 * own server code. Each test sets `handler`; every request is recorded in `seen`.
 */
export class StubServer {
  handler: StubHandler = (_req, res) => {
    res.statusCode = 500;
    res.end('no handler');
  };
  readonly seen: SeenRequest[] = [];
  /** Requests whose connection closed before the stub answered (aborted or timed out by the client). */
  readonly closedEarly: string[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      // watched from the request's start, not from its body's end: a client that gives up before the
      // (empty) body's 'end' is delivered (a 100 ms timeout on a loaded CI machine) closed early too
      res.on('close', () => {
        if (!res.writableFinished) this.closedEarly.push(req.url ?? '');
      });
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const seen: SeenRequest = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks),
        };
        this.seen.push(seen);
        this.handler(seen, res);
      });
    });
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  static async start(): Promise<StubServer> {
    const stub = new StubServer();
    await new Promise<void>((resolve) => stub.server.listen(0, '127.0.0.1', resolve));
    return stub;
  }

  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  get last(): SeenRequest {
    const r = this.seen[this.seen.length - 1];
    if (r === undefined) throw new Error('no request seen');
    return r;
  }

  /** Answers every request with the given status, headers and body. */
  reply(status: number, headers: Record<string, string>, body?: string | Uint8Array): void {
    this.handler = (_req, res) => {
      res.writeHead(status, headers);
      res.end(body === undefined ? undefined : Buffer.from(body));
    };
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Resolves after `ms`. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `f` holds (polling), or fails after `ms`. */
export async function eventually(f: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!f()) {
    if (Date.now() > until) throw new Error('condition not reached');
    await delay(5);
  }
}
