import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createExampleApp } from '../../examples/app';
import { exampleInterfaces } from '../../examples/interfaces';
import { type OpenApiDocument, type OpenApiOperation, openApiDocument } from '../../src/openapi';
import { tempDirs } from '../support/temp-dirs';

/**
 * The example's OpenAPI document, judged by peers' tools: Redocly's linter (the `recommended` rules, less
 * the two the document breaks on purpose: see support/peer-tools.mjs), and openapi-typescript, whose types a
 * plain `fetch` call is written against, compiled by tsc under `--strict`, and run against the example.
 */

const ROOT = path.resolve(__dirname, '../..');
const tempDir = tempDirs('svc-openapi-');

let app: FastifyInstance;
let base: string;
let doc: OpenApiDocument;
let dir: string;
let peers: {
  problems: { severity: string; ruleId: string; message: string; pointer: string }[];
  types: number;
};

beforeAll(async () => {
  app = await createExampleApp({ observe: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  doc = openApiDocument(Object.values(exampleInterfaces), { title: 'Photos', version: '1.0.0' });
  dir = tempDir();
  writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
  const out = execFileSync(
    process.execPath,
    [
      path.join(__dirname, 'support/peer-tools.mjs'),
      path.join(dir, 'openapi.json'),
      path.join(dir, 'api.d.ts'),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  peers = JSON.parse(out) as typeof peers;
});

afterAll(async () => {
  await app?.close();
});

function op(p: string, method: 'get' | 'put' | 'post' | 'delete'): OpenApiOperation {
  const found = doc.paths[p]?.[method];
  if (found === undefined) throw new Error(`no ${method} ${p} in ${Object.keys(doc.paths).join(' ')}`);
  return found;
}

describe('the example service as OpenAPI 3.1', () => {
  it('validates with Redocly: no errors, and no warning but an unused criteria record', () => {
    const problems = peers.problems.filter(
      // PhotoCriteria is named in the criteria parameter's x-restli-schema, which the linter does not follow
      (p) => !(p.ruleId === 'no-unused-components' && p.message.includes('PhotoCriteria')),
    );
    expect(problems.filter((p) => p.ruleId !== 'info-license')).toEqual([]);
  });

  it.each([
    ['/photos/{photosId}', 'get', 'get'],
    ['/photos?ids=List({ids})', 'get', 'batch_get'],
    ['/photos', 'post', 'create'],
    ['/photos#batch_create', 'post', 'batch_create'],
    ['/photos/{photosId}', 'put', 'update'],
    ['/photos/{photosId}', 'post', 'partial_update'],
    ['/photos/{photosId}', 'delete', 'delete'],
    ['/photos?ids=List({ids})', 'delete', 'batch_delete'],
    ['/photos', 'get', 'get_all'],
    ['/photos?q=byTag', 'get', 'finder'],
    ['/photos?q=titleAndOrFormat', 'get', 'finder'],
    ['/photos?bq=searchPhotos', 'get', 'batch_finder'],
    ['/photos?action=purge', 'post', 'action'],
    ['/photos/{photosId}?action=addTag', 'post', 'action'],
    ['/albumEntries/(albumId:{albumId},photoId:{photoId})', 'get', 'get'],
    ['/albumEntries/(albumId:{albumId})?q=byAlbum', 'get', 'finder'],
    ['/albumEntries?ids=List({ids})', 'get', 'batch_get'],
  ] as const)('describes %s %s as the Rest.li %s method', (p, method, restli) => {
    expect(op(p, method)['x-restli-method']).toBe(restli);
  });

  it('gives every operation a curl line, the protocol version header and ErrorResponse for errors', () => {
    for (const item of Object.values(doc.paths)) {
      for (const o of Object.values(item)) {
        expect(o.description).toMatch(/```sh\ncurl -s /);
        expect(o.parameters).toContainEqual({ $ref: '#/components/parameters/ProtocolVersion' });
        expect(o.responses['4XX']).toEqual({ $ref: '#/components/responses/ErrorResponse' });
      }
    }
    expect(doc.components.parameters.ProtocolVersion?.name).toBe('X-Svc-Protocol-Version');
  });

  it('offers JSON and PSON for every body', () => {
    const get = op('/photos/{photosId}', 'get').responses['200'] as { content: Record<string, unknown> };
    expect(Object.keys(get.content)).toEqual(['application/json', 'application/x-pson']);
  });

  it('describes the batch finder criteria in the URI form and its one-page-per-criterion answer', () => {
    const bf = op('/photos?bq=searchPhotos', 'get');
    const criteria = bf.parameters?.find((p) => 'name' in p && p.name === 'criteria');
    expect(criteria).toMatchObject({
      in: 'query',
      required: true,
      allowReserved: true,
      schema: { type: 'string' },
    });
    expect((criteria as { example: string }).example).toMatch(/^List\(\(.*\)\)$/);
    expect(bf.responses['200']).toMatchObject({
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/BatchFinderResponse_com.example.photos.Photo' },
        },
      },
    });
  });

  it('compiles a strict fetch call against the openapi-typescript types, which gets the photo', async () => {
    expect(peers.types).toBeGreaterThan(0);
    writeFileSync(
      path.join(dir, 'client.ts'),
      `import type { paths } from './api';

type PhotoPath = '/photos/{photosId}';
type GetPhoto = paths[PhotoPath]['get'];
export type Photo = GetPhoto['responses'][200]['content']['application/json'];

export async function getPhoto(base: string, id: GetPhoto['parameters']['path']['photosId']): Promise<Photo> {
  const template: PhotoPath = '/photos/{photosId}';
  const res = await fetch(base + template.replace('{photosId}', String(id)), { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error('status ' + res.status);
  const photo = (await res.json()) as Photo;
  // the types know the record: title is a string, format one of the enum's symbols
  const title: string = photo.title;
  const format: 'JPEG' | 'PNG' | 'GIF' | 'HEIC' | 'RAW' = photo.format;
  void format;
  return { ...photo, title };
}
`,
    );
    const tsc = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/typescript/bin/tsc'),
        '--strict',
        '--noUncheckedIndexedAccess',
        '--target',
        'es2022',
        '--module',
        'commonjs',
        '--lib',
        'es2022,dom',
        '--skipLibCheck',
        '--outDir',
        path.join(dir, 'out'),
        path.join(dir, 'client.ts'),
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const client = require(path.join(dir, 'out/client.js')) as {
      getPhoto(base: string, id: number): Promise<{ id: number; title: string }>;
    };
    const photo = await client.getPhoto(base, 1);
    expect(photo.id).toBe(1);
    expect(typeof photo.title).toBe('string');
  });
});
