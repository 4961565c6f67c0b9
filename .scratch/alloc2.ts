import http from 'node:http';
import inspector from 'node:inspector';
import fastify from 'fastify';
import { Data } from '../src';
import { createExampleApp } from '../examples/app';
import { seededLibrary } from '../examples/store';
import { Photo } from '../examples/src/main/generated/com/example/photos/Photo';
import { PhotoFormat } from '../examples/src/main/generated/com/example/photos/PhotoFormat';

const APP = process.env.APP ?? 'plugin';
const PATH = process.argv[2] ?? (APP === 'fastify' ? '/bare/photos?format=PNG&count=10' : '/photos?q=titleAndOrFormat&format=PNG&count=10');
const N = 20000;
(async () => {
  const library = seededLibrary();
  for (let i = 7; i <= 30; i++) library.addPhoto(new Photo().setTitle(`Photo ${i}`).setFormat(PhotoFormat.PNG).setTakenAt(1_700_000_000_000 + i));
  const photos = library.listPhotos().map((p) => Data.toJS(p.data()) as Record<string, unknown>);
  let app: { listen: (o: object) => Promise<unknown>; server: http.Server; close: () => Promise<unknown> };
  if (APP === 'plugin') app = (await createExampleApp({ library, observe: false })) as never;
  else {
    const f = fastify();
    f.get<{ Querystring: { format?: string; count?: string } }>('/bare/photos', (request, reply) => {
      const q = request.query; const count = Number(q.count ?? 10);
      const matches = photos.filter((p) => p.format === q.format);
      return reply.send({ elements: matches.slice(0, count), paging: { start: 0, count, total: matches.length, links: [{ rel: 'next', href: '/photos?count=10&format=PNG&q=titleAndOrFormat&start=10', type: 'application/json' }] } });
    });
    f.get<{ Params: { id: string } }>('/bare/photos/:id', (request, reply) => reply.send(photos[Number(request.params.id) - 1]));
    app = f as never;
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const one = () => new Promise<void>((res) => http.get({ host: '127.0.0.1', port, path: PATH, agent, headers: { 'x-svc-protocol-version': '2.0.0' } }, (r) => { r.resume(); r.on('end', () => res()); }));
  const many = async (n: number) => { let i = 0; await Promise.all([0, 1, 2, 3].map(async () => { while (i++ < n) await one(); })); };
  await many(8000);
  const session = new inspector.Session();
  session.connect();
  const post = (m: string, p?: object) => new Promise<any>((res, rej) => session.post(m, p ?? {}, (e, r) => (e ? rej(e) : res(r))));
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await many(N);
  const { profile } = await post('HeapProfiler.stopSampling');
  const self = new Map<string, number>();
  const walk = (node: any) => {
    const f = node.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.replace(/.*\/work\/main\//, '')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + node.selfSize);
    for (const c of node.children) walk(c);
  };
  walk(profile.head);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`${APP} total ~${(total / N).toFixed(0)} B/request (sampled; includes the client's side in this process)`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.ROWS ?? 50))) console.log(`${(v / N).toFixed(0).padStart(6)}  ${k}`);
  agent.destroy(); await app.close();
})();
