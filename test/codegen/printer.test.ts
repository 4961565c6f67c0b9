/** The import-tracking printer, line by line. */
import { SourceFile, RUNTIME } from '../../src/codegen/printer';

const file = (path = 'com/acme/Foo', runtimeModule = 'svc-framework'): SourceFile =>
  new SourceFile(path, { runtimeModule, header: ['Generated.', ''] });

describe('the source file printer', () => {
  it('prints the header, sorted imports and the body', () => {
    const f = file();
    f.declareLocal('Foo');
    const bar = f.value('Bar', { kind: 'file', path: 'com/acme/Bar' });
    const t = f.type('DataMap', RUNTIME);
    const rt = f.value('RecordTemplate', RUNTIME);
    f.push(`export class Foo extends ${rt} { b?: ${bar}; m?: ${t}; }`);
    expect(f.render()).toBe(
      [
        '// Generated.',
        '//',
        '/* eslint-disable */',
        '',
        "import { type DataMap, RecordTemplate } from 'svc-framework';",
        "import { Bar } from './Bar';",
        '',
        'export class Foo extends RecordTemplate { b?: Bar; m?: DataMap; }',
        '',
      ].join('\n'),
    );
  });

  it('imports a name once, as a value once any use is one', () => {
    const f = file();
    expect(f.type('X', RUNTIME)).toBe('X');
    expect(f.value('X', RUNTIME)).toBe('X');
    expect(f.type('X', RUNTIME)).toBe('X');
    expect(f.render()).toContain("import { X } from 'svc-framework';");
  });

  it('aliases imports that clash with locals or with each other', () => {
    const f = file();
    f.declareLocal('StringMap');
    expect(f.type('StringMap', RUNTIME)).toBe('StringMap$1');
    expect(f.value('Foo', { kind: 'file', path: 'a/Foo' })).toBe('Foo');
    expect(f.value('Foo', { kind: 'file', path: 'b/Foo' })).toBe('Foo$1');
    const text = f.render();
    expect(text).toContain("import type { StringMap as StringMap$1 } from 'svc-framework';");
    expect(text).toContain("import { Foo } from '../../a/Foo';");
    expect(text).toContain("import { Foo as Foo$1 } from '../../b/Foo';");
  });

  it('loads modules for their side effects unless a value import loads them', () => {
    const f = file();
    f.load({ kind: 'file', path: 'com/acme/Time' });
    f.type('Time', { kind: 'file', path: 'com/acme/Time' });
    f.load({ kind: 'file', path: 'com/acme/Bar' });
    f.value('Bar', { kind: 'file', path: 'com/acme/Bar' });
    f.load({ kind: 'file', path: 'com/other/Baz' });
    const imports = f
      .render()
      .split('\n')
      .filter((l) => l.startsWith('import'));
    expect(imports).toEqual([
      "import '../other/Baz';",
      "import { Bar } from './Bar';",
      "import type { Time } from './Time';",
      "import './Time';",
    ]);
  });

  it('never imports from the file itself', () => {
    const f = file();
    expect(f.value('Foo_Bar', { kind: 'file', path: 'com/acme/Foo' })).toBe('Foo_Bar');
    f.load({ kind: 'file', path: 'com/acme/Foo' });
    expect(f.render()).not.toContain('import');
  });

  it('makes runtime and module paths that start with ./ relative to the output root', () => {
    const f = file('com/acme/Foo', './lib/runtime');
    f.value('A', RUNTIME);
    f.value('B', { kind: 'module', specifier: '../shared/b' });
    f.value('C', { kind: 'module', specifier: '@acme/c' });
    const text = f.render();
    expect(text).toContain("import { A } from '../../lib/runtime';");
    expect(text).toContain("import { B } from '../../../shared/b';");
    expect(text).toContain("import { C } from '@acme/c';");
    expect(text.indexOf('@acme/c')).toBeLessThan(text.indexOf('../../lib/runtime'));
  });

  it('qualifies a global that a local name shadows', () => {
    const f = file();
    expect(f.global('Date')).toBe('Date');
    f.declareLocal('Date');
    expect(f.global('Date')).toBe('globalThis.Date');
  });

  it('wraps long import lists one name per line', () => {
    const f = file();
    for (const n of [
      'Alpha',
      'Bravo',
      'Charlie',
      'Delta',
      'Echo',
      'Foxtrot',
      'Golf',
      'Hotel',
      'India',
      'Juliett',
      'Kilo',
      'Lima',
    ]) {
      f.value(n, RUNTIME);
    }
    expect(f.render()).toContain('import {\n  Alpha,\n  Bravo,\n');
  });
});
