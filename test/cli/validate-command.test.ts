import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliInProcess as runCli } from '../support/run-cli';
import { tempDirs } from '../support/temp-dirs';

const tempDir = tempDirs('svc-validate-');

const FIXTURES = join(__dirname, '../fixtures/pegasus');

describe('svc validate', () => {
  it('prints the data and exits 0 for a valid document, keeping longs exact', async () => {
    const doc = '{"amount": "12.50", "currencyCode": "EUR", "extra": 9007199254740993}';
    const res = await runCli(
      ['validate', '--schema', 'com.example.common.Money', '--resolver-path', FIXTURES],
      doc,
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.toString('utf8')).toBe(
      '{"amount":"12.50","currencyCode":"EUR","extra":9007199254740993}\n',
    );
  });

  it('reads the data from a file', async () => {
    const dir = tempDir();
    const file = join(dir, 'money.json');
    writeFileSync(file, '{"amount": "1"}');
    const res = await runCli(['validate', '-s', 'com.example.common.Money', '-r', FIXTURES, file]);
    expect([res.code, res.stdout.toString('utf8'), res.stderr]).toEqual([0, '{"amount":"1"}\n', '']);
    writeFileSync(file, '{}');
    const bad = await runCli(['validate', '-s', 'com.example.common.Money', '-r', FIXTURES, file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      `svc: DataValidationError [SVC_ERR_VALIDATE_INVALID]: the data (${file}) is not valid (1 message):\n` +
        'ERROR :: /amount :: field is required but not found and has no default value\n',
    );
  });

  it('prints the fixed data and the messages, and exits 1, for an invalid document', async () => {
    const doc = '{"currencyCode": 5, "amount": 1.5}';
    const res = await runCli(['validate', '-s', 'com.example.common.Money', '-r', FIXTURES], doc);
    expect(res.code).toBe(1);
    expect(res.stdout.toString('utf8')).toBe('{"currencyCode":5,"amount":1.5}\n');
    expect(res.stderr).toBe(
      'svc: DataValidationError [SVC_ERR_VALIDATE_INVALID]: the data (standard input) is not valid (2 messages):\n' +
        'ERROR :: /currencyCode :: 5 cannot be coerced to String\n' +
        'ERROR :: /amount :: 1.5 cannot be coerced to String\n',
    );
  });

  it('applies the modes it is given, in any case, and reads the resolver path from SVC_RESOLVER_PATH', async () => {
    const doc = '{"value": "leaf"}';
    const strict = await runCli(
      [
        'validate',
        '-s',
        'org.acme.graph.TreeNode',
        '--required-mode',
        'must-be-present',
        '--coercion-mode',
        'off',
      ],
      doc,
      { SVC_RESOLVER_PATH: FIXTURES },
    );
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('\nERROR :: /children :: field is required but not found\n');
    const lenient = await runCli(['validate', '-s', 'org.acme.graph.TreeNode'], doc, {
      SVC_RESOLVER_PATH: FIXTURES,
    });
    expect([lenient.code, lenient.stderr]).toEqual([0, '']);
    const strings = await runCli(
      [
        'validate',
        '-s',
        'org.acme.graph.AllDefaults',
        '-r',
        FIXTURES,
        '--required-mode',
        'FIXUP_ABSENT_WITH_DEFAULT',
        '--pretty',
      ],
      '{"anInt": "7"}',
    );
    expect(strings.code).toBe(1);
    expect(strings.stderr).toContain('ERROR :: /anInt :: 7 cannot be coerced to Integer\n');
    expect(strings.stdout.toString('utf8')).toContain('\n  "aLong": 9223372036854775807,\n');
    const coerced = await runCli(
      [
        'validate',
        '-s',
        'org.acme.graph.AllDefaults',
        '-r',
        FIXTURES,
        '--required-mode',
        'fixup_absent_with_default',
        '--coercion-mode',
        'string_to_primitive',
      ],
      '{"anInt": "7", "anEnum": "PEAR", "unknown": [1]}',
    );
    expect(coerced.stderr).toBe('');
    expect(coerced.code).toBe(0);
    expect(coerced.stdout.toString('utf8')).toMatch(
      /^\{"anInt":7,"anEnum":"PEAR","unknown":\[1\],"aLong":9223372036854775807,/,
    );
  });

  it('takes a schema file and validates a value that is not an object', async () => {
    const dir = tempDir();
    const file = join(dir, 'Four.pdsc');
    writeFileSync(file, '{ "type": "fixed", "name": "Four", "size": 4 }');
    const ok = await runCli(['validate', '-s', file], '"abcd"');
    expect([ok.code, ok.stdout.toString('utf8'), ok.stderr]).toEqual([0, '"abcd"\n', '']);
    const bad = await runCli(['validate', '-s', file], '"abc"');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      'ERROR ::  :: "abc" length (3) is inconsistent with expected fixed size of 4\n',
    );
  });

  it.each([
    [
      'an unknown mode',
      ['validate', '-s', 'x.Y', '--coercion-mode', 'sometimes'],
      /argument 'sometimes' is invalid\. Allowed: OFF, NORMAL, STRING_TO_PRIMITIVE\./,
    ],
    ['no schema', ['validate'], /required option '-s, --schema <name-or-file>' not specified/],
    [
      'a schema that is not found',
      ['validate', '-s', 'com.example.Nope', '-r', FIXTURES],
      /SchemaParseError \[SVC_ERR_SCHEMA_NOT_FOUND\]: schema "com.example.Nope" was not found/,
    ],
    [
      'a missing data file',
      ['validate', '-s', 'com.example.common.Money', '-r', FIXTURES, '/nonexistent/x.json'],
      /ENOENT/,
    ],
  ])('exits 2 on %s', async (_label, args, message) => {
    const res = await runCli(args, '{}');
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stdout.length).toBe(0);
  });

  it('exits 2 and lists every problem of a broken schema file', async () => {
    const dir = tempDir();
    const file = join(dir, 'Bad.pdsc');
    writeFileSync(
      file,
      '{ "type": "record", "name": "Bad", "fields": [ { "name": "a", "type": "Nope" }, { "name": "b" } ] }',
    );
    const res = await runCli(['validate', '-s', file], '{}');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('"Nope" cannot be resolved');
    expect(res.stderr).toContain('/fields/1: type is required but it is not present');
  });

  it('exits 2, the code for input errors, on input that is not JSON, naming where the JSON breaks', async () => {
    const res = await runCli(['validate', '-s', 'com.example.common.Money', '-r', FIXTURES], '{"amount":');
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'svc: CliUsageError [SVC_ERR_CLI_USAGE]: the data (standard input) is not JSON: ' +
        'DataDecodingException [SVC_ERR_DATA_JSON_DECODE]: Unexpected end of input at line 1, column 11 (at byte offset 10)\n',
    );
    expect(res.stdout.length).toBe(0);
  });

  it('exits 2 on empty input and on a file that is not JSON', async () => {
    const empty = await runCli(['validate', '-s', 'com.example.common.Money', '-r', FIXTURES], ' \n');
    expect([empty.code, empty.stderr]).toEqual([
      2,
      'svc: CliUsageError [SVC_ERR_CLI_USAGE]: the input is empty; expected a JSON document\n',
    ]);
    const dir = tempDir();
    const file = join(dir, 'money.json');
    writeFileSync(file, '{"amount": 1,}');
    const bad = await runCli(['validate', '-s', 'com.example.common.Money', '-r', FIXTURES, file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      `the data (${file}) is not JSON: DataDecodingException [SVC_ERR_DATA_JSON_DECODE]`,
    );
  });

  it('says in its help which exit code means what', async () => {
    const res = await runCli(['validate', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout.toString().replace(/\s+/g, ' ')).toContain(
      'exit 0 when valid, 1 when not, 2 on usage or input errors (unreadable or malformed input, schema errors)',
    );
  });
});
