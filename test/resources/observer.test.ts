/**
 * The request observer seam (observer.ts) over real HTTP: each request's probe sees `run` (if it has one) around the rest
 * of the request, `routed` with the method and batch size, `finished` once with the response and the
 * error an error response stands for; errors raised outside the pipeline (a body too large) are observed
 * too; an observer that returns no probe is left out; a probe that throws cannot change a response.
 */
import type { EncodedResponse, Invocation, RequestObserver, ResourceRequest } from '../../src';
import { startServer } from './support/http';
import { photoService } from './support/photos';

interface Seen {
  url: string;
  events: string[];
}

function recorder(seen: Seen[], options: { throwIn?: 'finished'; run?: false } = {}): RequestObserver {
  return {
    start(request: ResourceRequest) {
      const s: Seen = { url: request.url, events: ['start'] };
      seen.push(s);
      let depth = 0;
      const run = <T>(fn: () => T): T => {
        depth++;
        s.events.push('run');
        try {
          return fn();
        } finally {
          depth--;
        }
      };
      return {
        ...(options.run === false ? {} : { run }),
        routed(invocation: Invocation, batchSize: number) {
          s.events.push(
            `routed ${invocation.resource.path} ${invocation.method} ${batchSize} inRun=${depth > 0}`,
          );
        },
        finished(response: EncodedResponse, error: unknown) {
          s.events.push(`finished ${response.status} ${error === undefined ? '-' : (error as Error).name}`);
          if (options.throwIn === 'finished') throw new Error('observer bug');
        },
      };
    },
  };
}

describe('request observers', () => {
  it.each([
    [
      'a get',
      'GET',
      '/photos/1',
      undefined,
      ['start', 'run', 'routed photos get 0 inRun=true', 'finished 200 -'],
    ],
    [
      'a batch_get',
      'GET',
      '/photos?ids=List(1,2,3)',
      undefined,
      ['start', 'run', 'routed photos batch_get 3 inRun=true', 'finished 200 -'],
    ],
    [
      'a path no resource has',
      'GET',
      '/nothing/1',
      undefined,
      ['start', 'run', 'finished 404 ResourceNotFoundError'],
    ],
    [
      'a handler failing',
      'GET',
      '/photos/500',
      undefined,
      ['start', 'run', 'routed photos get 0 inRun=true', 'finished 500 Error'],
    ],
    [
      'a body over the limit (refused before the pipeline)',
      'POST',
      '/photos',
      'x'.repeat(2048),
      ['start', 'finished 413 RequestBodyError'],
    ],
  ])('sees %s', async (_what, method, path, raw, expected) => {
    const seen: Seen[] = [];
    const s = await startServer({
      resources: [photoService().resource],
      maxBodyBytes: 1024,
      observers: [recorder(seen)],
    });
    try {
      await s.request(
        method,
        path,
        raw === undefined ? {} : { raw, headers: { 'content-type': 'application/json' } },
      );
      expect(seen).toEqual([{ url: path, events: expected }]);
    } finally {
      await s.close();
    }
  });

  it('leaves a request alone when an observer returns no probe, and composes the others', async () => {
    const seen: Seen[] = [];
    const none: RequestObserver = { start: () => undefined };
    const s = await startServer({
      resources: [photoService().resource],
      observers: [none, recorder(seen), none, recorder(seen), recorder(seen)],
    });
    try {
      expect((await s.request('GET', '/photos/2')).status).toBe(200);
      expect(seen.map((x) => x.events)).toEqual([
        ['start', 'run', 'routed photos get 0 inRun=true', 'finished 200 -'],
        ['start', 'run', 'routed photos get 0 inRun=true', 'finished 200 -'],
        ['start', 'run', 'routed photos get 0 inRun=true', 'finished 200 -'],
      ]);
    } finally {
      await s.close();
    }
  });

  it.each([
    ['alone', [false], [['start', 'routed photos get 0 inRun=false', 'finished 200 -']]],
    [
      'beside a probe that runs the rest',
      [false, true],
      [
        ['start', 'routed photos get 0 inRun=false', 'finished 200 -'],
        ['start', 'run', 'routed photos get 0 inRun=true', 'finished 200 -'],
      ],
    ],
  ])('observes a request with a probe that has no run, %s', async (_what, runs, expected) => {
    const seen: Seen[] = [];
    const s = await startServer({
      resources: [photoService().resource],
      observers: runs.map((r) => recorder(seen, r ? {} : { run: false })),
    });
    try {
      expect((await s.request('GET', '/photos/2')).status).toBe(200);
      expect(seen.map((x) => x.events)).toEqual(expected);
    } finally {
      await s.close();
    }
  });

  it('answers as usual when a probe throws in finished', async () => {
    const seen: Seen[] = [];
    const s = await startServer({
      resources: [photoService().resource],
      observers: [recorder(seen, { throwIn: 'finished' })],
    });
    try {
      const r = await s.request('GET', '/photos/1');
      expect(r.status).toBe(200);
      expect(r.json.title).toBe('Sunrise');
    } finally {
      await s.close();
    }
  });

  it('refuses observers without a start method', async () => {
    await expect(
      startServer({ resources: [photoService().resource], observers: [{} as RequestObserver] }),
    ).rejects.toMatchObject({ name: 'SvcPluginOptionsError' });
  });
});
