/**
 * The IDL import on mangled files: valid restspecs of every kind with a value replaced, a member removed or
 * the text cut short give a result or a typed error (the format's, the import's, the schema parser's or the
 * generator's), never a crash or an untyped exception. SVC_FUZZ_RUNS raises the run count.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { generateFromIdl, isSvcError } from '../../src';
import { fuzzRuns } from '../data/fuzz-runs';

const SHOP = path.join(__dirname, 'fixtures/import');
const FILES = fs
  .readdirSync(path.join(SHOP, 'idl'))
  .sort()
  .map((f) => JSON.parse(fs.readFileSync(path.join(SHOP, 'idl', f), 'utf8')) as unknown);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value inside `v` (arrays by index, objects by key). */
function paths(v: Json, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...at, i])));
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
  return out;
}

function mutate(v: Json, at: readonly (string | number)[], replacement: Json | undefined): Json {
  if (at.length === 0) return replacement ?? null;
  const [head, ...rest] = at;
  if (Array.isArray(v)) {
    const copy = [...v];
    if (rest.length === 0 && replacement === undefined) copy.splice(head as number, 1);
    else copy[head as number] = mutate(copy[head as number]!, rest, replacement);
    return copy;
  }
  const obj = { ...(v as { [key: string]: Json }) };
  if (rest.length === 0 && replacement === undefined) delete obj[head as string];
  else obj[head as string] = mutate(obj[head as string]!, rest, replacement);
  return obj;
}

describe('the IDL import on mangled files', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-idl-fuzz-'));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives a result or a typed error', () => {
    const typeTexts = fc.constantFrom(
      'string',
      'long',
      'null',
      'com.example.shop.Product',
      'com.example.shop.Reaction',
      '{ "type" : "map", "values" : "com.example.shop.Checksum" }',
      '[ "int", "string" ]',
      '{ "type" : "array", "items" : { "type" : "array", "items" : "int" } }',
      'no.Such',
      '{',
    );
    fc.assert(
      fc.property(
        fc.nat(FILES.length - 1),
        fc.nat(),
        fc.option(fc.oneof(fc.jsonValue({ maxDepth: 2 }), typeTexts), { nil: undefined }),
        fc.option(fc.nat(400), { nil: undefined }),
        (fileIndex, pathIndex, replacement, cut) => {
          const original = FILES[fileIndex] as Json;
          const all = paths(original);
          const changed = mutate(original, all[pathIndex % all.length]!, replacement as Json | undefined);
          let text = JSON.stringify(changed, null, 2);
          if (cut !== undefined && cut < text.length && cut % 7 === 0) text = text.slice(0, cut);
          const file = path.join(dir, 'x.restspec.json');
          fs.writeFileSync(file, text);
          try {
            generateFromIdl({ sources: [file], resolverPath: [path.join(SHOP, 'pegasus')] });
          } catch (err) {
            if (!isSvcError(err)) throw err;
          }
        },
      ),
      { numRuns: fuzzRuns(300) },
    );
  });
});
