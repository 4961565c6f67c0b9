import { Command } from 'commander';
import { JsonCodec } from '../../data/codecs/json-codec';
import { PsonCodec } from '../../data/codecs/pson-codec';
import type { DataList } from '../../data/data-list';
import type { DataMap } from '../../data/data-map';
import { readInput, writeOutput } from '../io';

const json = new JsonCodec();

function isListDocument(bytes: Uint8Array, pson: boolean): boolean {
  if (pson) return bytes[8] === 0x10 || bytes[8] === 0x11 || bytes[8] === 0x12; // first marker after the header
  const text = Buffer.from(bytes.subarray(0, 64)).toString('utf8').trimStart();
  return text.startsWith('[') || text.startsWith('\ufeff[');
}

/** `svc pson encode|decode`: convert between JSON and PSON. */
export function psonCommand(): Command {
  const cmd = new Command('pson').description('convert between JSON and PSON (application/x-pson)');

  cmd
    .command('encode')
    .description('read a JSON object or array, write PSON bytes')
    .argument('[file]', 'JSON input file, or - for standard input', '-')
    .option(
      '--no-string-length',
      'write strings as NUL-terminated C-strings (marker 0x09) instead of length-prefixed',
    )
    .option('--collection-count', 'write maps and lists with their element count (markers 0x12/0x22)', false)
    .action(async (file: string, opts: { stringLength: boolean; collectionCount: boolean }) => {
      const input = await readInput(file);
      const pson = new PsonCodec({
        encodeStringLength: opts.stringLength,
        encodeCollectionCount: opts.collectionCount,
      });
      const out = isListDocument(input, false)
        ? pson.listToBytes(json.bytesToList(input))
        : pson.mapToBytes(json.bytesToMap(input));
      await writeOutput(out);
    });

  cmd
    .command('decode')
    .description('read PSON bytes, write JSON')
    .argument('[file]', 'PSON input file, or - for standard input', '-')
    .option('--pretty', 'indent the JSON output (longs beyond 2^53 stay exact)', false)
    .action(async (file: string, opts: { pretty: boolean }) => {
      const input = await readInput(file);
      const pson = new PsonCodec();
      const data: DataMap | DataList = isListDocument(input, true)
        ? pson.bytesToList(input)
        : pson.bytesToMap(input);
      const text = isListDocument(input, true)
        ? json.listToString(data as DataList)
        : json.mapToString(data as DataMap);
      await writeOutput((opts.pretty ? prettyJson(text) : text) + '\n');
    });

  return cmd;
}

/** Re-indents compact JSON text without parsing numbers (so exact longs stay exact). */
export function prettyJson(text: string): string {
  let out = '';
  let indent = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    switch (c) {
      case '"':
        inString = true;
        out += c;
        break;
      case '{':
      case '[': {
        const close = c === '{' ? '}' : ']';
        if (text[i + 1] === close) {
          out += c + close;
          i++;
        } else {
          indent++;
          out += c + '\n' + '  '.repeat(indent);
        }
        break;
      }
      case '}':
      case ']':
        indent--;
        out += '\n' + '  '.repeat(indent) + c;
        break;
      case ',':
        out += ',\n' + '  '.repeat(indent);
        break;
      case ':':
        out += ': ';
        break;
      default:
        out += c;
    }
  }
  return out;
}
