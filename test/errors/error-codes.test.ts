import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_TABLE_FILE, errorModules, errorTableText, tableName } from '../../scripts/error-table';
import { ERROR_CODES, type ErrorCode } from '../../src/errors';
import * as tables from '../../src/errors/error-table';
import { isSvcError, registeredError } from '../../src/errors/svc-error';
// the package root loads every layer, so every module registers its codes
import '../../src';

interface DocRow {
  code: string;
  errorName: string;
  status: number;
  summary: string;
}

function documentedRows(): DocRow[] {
  const text = readFileSync(join(__dirname, '../../docs/errors.md'), 'utf8');
  const rows: DocRow[] = [];
  for (const line of text.split('\n')) {
    const m = /^\|\s*`(SVC_ERR_[A-Z0-9_]+)`\s*\|\s*`([A-Za-z]+)`\s*\|\s*(\d{3})\s*\|\s*(.*?)\s*\|$/.exec(
      line,
    );
    if (m) rows.push({ code: m[1]!, errorName: m[2]!, status: Number(m[3]), summary: m[4]! });
  }
  return rows;
}

describe('the error registry', () => {
  const rows = documentedRows();
  const documented = new Map(rows.map((r) => [r.code, r]));

  it('documents every code in docs/errors.md', () => {
    const missing = Object.keys(ERROR_CODES).filter((c) => !documented.has(c));
    expect(missing).toEqual([]);
  });

  it('documents no code that the registry lacks', () => {
    const stale = rows.map((r) => r.code).filter((c) => !(c in ERROR_CODES));
    expect(stale).toEqual([]);
  });

  it('documents each code with its class, status and summary', () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      const row = documented.get(code);
      if (row === undefined) continue; // reported above
      expect({ code, errorName: row.errorName, status: row.status, summary: row.summary }).toEqual({
        code,
        errorName: info.errorName,
        status: info.status,
        summary: info.summary,
      });
    }
  });

  it('names every code SVC_ERR_<AREA>_<WHAT> with a known area', () => {
    const areas = [
      'DATA',
      'SCHEMA',
      'VALIDATE',
      'TEMPLATE',
      'CODEGEN',
      'AVRO',
      'PROTOCOL',
      'ROUTE',
      'BIND',
      'INVOKE',
      'TUNNEL',
      'ATTACH',
      'QUEUE',
      'CLI',
      'CLIENT',
      'IDL',
      'COMPAT',
      'REPLAY',
      'RUNTIME',
      'AUTH',
    ];
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      const area = /^SVC_ERR_([A-Z]+)_[A-Z0-9_]+$/.exec(code)?.[1];
      expect(areas).toContain(area);
    }
  });

  it('lists each code once', () => {
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
  });

  it('has the run-time tables (error-table.ts) in step: each code with its class and status', () => {
    expect(readFileSync(ERROR_TABLE_FILE, 'utf8')).toBe(errorTableText());
    for (const table of Object.values(tables) as Array<Record<string, unknown>>)
      for (const [code, entry] of Object.entries(table)) {
        const info = ERROR_CODES[code as ErrorCode];
        expect([code, entry]).toEqual([code, [info.errorName, info.status]]);
      }
  });

  it('has every code in the table of a module that defines its error class', () => {
    const tabled = new Set(errorModules().flatMap((m) => m.codes));
    expect(Object.keys(ERROR_CODES).filter((c) => !tabled.has(c))).toEqual([]);
  });

  it('has each module register its own table where its classes are', () => {
    for (const { module } of errorModules()) {
      const text = readFileSync(join(__dirname, '../../src', module), 'utf8');
      expect([module, text.includes(`registerErrorCodes(${tableName(module)});`)]).toEqual([module, true]);
    }
  });

  it('maps every code as before when the package root is loaded: isSvcError, name and status', () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      expect([code, registeredError(code)]).toEqual([code, [info.errorName, info.status]]);
      expect([code, isSvcError({ code, name: info.errorName }, info.errorName, code as ErrorCode)]).toEqual([
        code,
        true,
      ]);
    }
  });
});
