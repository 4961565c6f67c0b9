/**
 * The example's committed interface description (`examples/idl/`, what `npm run idl:check` gates releases
 * against) is what its interfaces export today: a change to an interface or a schema shows up here first,
 * with the command that refreshes the files once `npm run idl:check` says the change is compatible.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { exportIdl, idlFileTexts } from '../../src/idl';
import { exampleInterfaces } from '../../examples/interfaces';

const IDL = path.join(__dirname, '../../examples/idl');
const REFRESH =
  'refresh with: node -r @swc-node/register src/cli/run.ts idl export examples/interfaces.ts examples/idl';

describe('the example interface description', () => {
  const files = idlFileTexts(exportIdl(Object.values(exampleInterfaces)));

  it('has one committed file per exported one, and no other', () => {
    const committed = ['idl', 'snapshot'].flatMap((d) =>
      readdirSync(path.join(IDL, d)).map((f) => `${d}/${f}`),
    );
    expect({ files: committed.sort(), hint: REFRESH }).toEqual({
      files: [...files.keys()].sort(),
      hint: REFRESH,
    });
  });

  it.each([...files.keys()].map((f) => [f]))('%s is current', (file) => {
    const committed = readFileSync(path.join(IDL, file), 'utf8');
    expect({ text: committed, hint: REFRESH }).toEqual({ text: files.get(file), hint: REFRESH });
  });
});
