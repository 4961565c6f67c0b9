/** detectModuleFormat: the import extension generated files need, from the package they are written into. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { detectModuleFormat, isSvcError } from '../../src';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-module-format-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(rel: string, text: string): string {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

describe('detectModuleFormat', () => {
  it('asks for .js below a package with "type": "module", even for a target that does not exist yet', () => {
    const pkg = write('app/package.json', '{ "name": "app", "type": "module" }');
    expect(detectModuleFormat(path.join(dir, 'app/src/generated/deeper'))).toEqual({
      format: 'module',
      packageJson: pkg,
      importExtension: '.js',
    });
  });

  it('asks for no extension below a CommonJS package, with or without a type field', () => {
    const pkg = write('app/package.json', '{ "name": "app" }');
    expect(detectModuleFormat(path.join(dir, 'app/gen'))).toEqual({
      format: 'commonjs',
      packageJson: pkg,
      importExtension: '',
    });
    fs.writeFileSync(pkg, '{ "type": "commonjs" }');
    expect(detectModuleFormat(path.join(dir, 'app/gen')).importExtension).toBe('');
  });

  it('takes the nearest package.json, as Node and TypeScript do', () => {
    write('package.json', '{ "type": "module" }');
    const inner = write('app/packages/lib/package.json', '{}');
    expect(detectModuleFormat(path.join(dir, 'app/packages/lib/src')).packageJson).toBe(inner);
    expect(detectModuleFormat(path.join(dir, 'app/packages/other')).importExtension).toBe('.js');
  });

  it('does not look past a node_modules folder', () => {
    write('package.json', '{ "type": "module" }');
    expect(detectModuleFormat(path.join(dir, 'node_modules/gen')).packageJson).toBeUndefined();
  });

  it('refuses a package.json that is not a JSON object, naming it and the option that decides instead', () => {
    const pkg = write('app/package.json', '{ "type": "module", }');
    const failure = (): unknown => {
      try {
        detectModuleFormat(path.join(dir, 'app/gen'));
      } catch (err) {
        return err;
      }
      return undefined;
    };
    const err = failure();
    expect(isSvcError(err, 'CodegenError', 'SVC_ERR_CODEGEN_INPUT')).toBe(true);
    expect((err as Error).message).toContain(`${pkg} is not JSON`);
    expect((err as Error).message).toContain('--import-extension');
    fs.writeFileSync(pkg, '["module"]');
    expect((failure() as Error).message).toContain(`${pkg} is not a JSON object`);
  });
});
