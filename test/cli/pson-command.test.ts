import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonCodec, PsonCodec } from '../../src';
import { runCliInProcess as runCli } from '../support/run-cli';

const PHOTO = join(__dirname, '../../examples/data/photo.json');

describe('svc pson', () => {
  it('encodes JSON to PSON and decodes it back exactly', async () => {
    const encoded = await runCli(['pson', 'encode', PHOTO]);
    expect(encoded.stderr).toBe('');
    expect(encoded.code).toBe(0);
    expect(encoded.stdout.subarray(0, 8).toString('latin1')).toBe('#!PSON1\n');

    const decoded = await runCli(['pson', 'decode', '-'], encoded.stdout);
    expect(decoded.code).toBe(0);
    const json = new JsonCodec();
    const original = json.bytesToMap(readFileSync(PHOTO));
    const back = json.stringToMap(decoded.stdout.toString('utf8'));
    expect(back.equals(original)).toBe(true);
    expect(decoded.stdout.toString('utf8')).toContain('"id":9007199254740993');
  });

  it('decodes what PsonCodec wrote, with --pretty keeping longs exact', async () => {
    const bytes = new PsonCodec().mapToBytes(
      new JsonCodec().stringToMap('{"big":-9223372036854775808,"l":[]}'),
    );
    const res = await runCli(['pson', 'decode', '--pretty'], bytes);
    expect(res.code).toBe(0);
    expect(res.stdout.toString('utf8')).toBe('{\n  "big": -9223372036854775808,\n  "l": []\n}\n');
  });

  it('honours the encoder options', async () => {
    const res = await runCli(['pson', 'encode', '--no-string-length', '--collection-count'], '["x"]');
    expect(res.code).toBe(0);
    expect([...res.stdout]).toEqual([
      0x23, 0x21, 0x50, 0x53, 0x4f, 0x4e, 0x31, 0x0a, 0x12, 0x81, 0x09, 0x78, 0x00, 0xff,
    ]);
  });

  it.each([
    [
      'malformed JSON',
      ['pson', 'encode'],
      '{"a":',
      1,
      /DataDecodingException \[SVC_ERR_DATA_JSON_DECODE\]: Unexpected end of input/,
    ],
    [
      'bytes that are not PSON',
      ['pson', 'decode'],
      'not pson at all',
      1,
      /DataDecodingException \[SVC_ERR_DATA_PSON_DECODE\]/,
    ],
    ['an unknown subcommand', ['pson', 'frobnicate'], '', 2, /unknown command/],
    ['a missing file', ['pson', 'encode', '/nonexistent/x.json'], '', 2, /ENOENT/],
  ])('fails cleanly on %s', async (_label, args, stdin, code, message) => {
    const res = await runCli(args, stdin);
    expect(res.code).toBe(code);
    expect(res.stderr).toMatch(message);
    expect(res.stdout.length).toBe(0);
  });
});
