import { parsePdl, schemaToPdl } from '../../../src/schema/pdl';
import { extractMarkdown } from '../../../src/schema/pdl/pdl-lexer';
import type { EnumDataSchema } from '../../../src/schema/enum-schema';
import type { NamedDataSchema } from '../../../src/schema/named-schema';
import type { RecordDataSchema } from '../../../src/schema/record-schema';
import { parseSchema } from '../../../src/schema/schema-resolver';
import type { UnionDataSchema } from '../../../src/schema/union-schema';

/**
 * Doc comments give exactly the string Rest.li's PDL parser gives (`PdlParseUtils.extractMarkdown`),
 * whitespace included. Each row: a comment as written before a record, and the doc it must give.
 */
const rows: readonly (readonly [rule: string, comment: string, doc: string])[] = [
  ['keeps the spaces inside a one-line comment', '/** Photos. */', ' Photos. '],
  ['gives a one-line comment without spaces as written', '/**Photos.*/', 'Photos.'],
  ['drops the margin of a comment on its own lines', '/**\n * Photos of a user.\n */', 'Photos of a user.'],
  ['drops an indented margin', '/**\n     * First.\n     * Second.\n     */', 'First.\nSecond.'],
  ['keeps the second space after the star', '/**\n *  Indented.\n *  Both.\n */', ' Indented.\n Both.'],
  [
    'keeps a markdown list indented by two spaces after the star',
    '/**\n * Kinds:\n *  - one\n *  - two\n */',
    'Kinds:\n - one\n - two',
  ],
  [
    'keeps a markdown list and its continuation lines',
    '/**\n * Kinds:\n * - one\n * - two\n *   continued\n */',
    'Kinds:\n- one\n- two\n  continued',
  ],
  ['keeps a code block indentation', '/**\n * Example:\n *\n *     code()\n */', 'Example:\n\n    code()'],
  ['keeps empty lines between paragraphs', '/**\n * A.\n *\n * B.\n */', 'A.\n\nB.'],
  ['keeps an empty line right after the opening line', '/**\n *\n * A.\n */', '\nA.'],
  ['keeps trailing spaces of a line', '/**\n * A.  \n */', 'A.  '],
  ['takes a star without a space after it as the margin', '/**\n *A.\n */', 'A.'],
  ['takes tabs before the star as leading whitespace', '/**\n\t\t* A.\n\t */', 'A.'],
  ['keeps a line without a star whole, its indentation included', '/**\n * A.\n   B.\n */', 'A.\n   B.'],
  ['keeps text on the opening line with its space', '/** First.\n * Second.\n */', ' First.\nSecond.'],
  ['ends at text on the closing line', '/**\n * Last.*/', 'Last.'],
  ['keeps a space before the closing delimiter', '/**\n * Last. */', 'Last. '],
  ['leaves out a blank opening line with spaces', '/**   \n * A.\n */', 'A.'],
  ['leaves out several empty lines at the end', '/**\n * A.\n\n\n*/', 'A.'],
  ['keeps the carriage returns of CRLF lines', '/**\r\n * A.\r\n * B.\r\n */', 'A.\r\nB.\r'],
  ['takes the first star of a line as its margin', '/**\n **Bold** start\n */', '*Bold** start'],
  ['keeps markdown bold after the margin', '/**\n * **Bold** start\n */', '**Bold** start'],
  [
    'decodes HTML 4 entities and the escaped comment delimiters',
    '/**\n * a &lt; b &amp;&amp; c &#62; d, &#x2603; &eacute; &#47;&#42; x &#42;&#47;\n */',
    'a < b && c > d, \u2603 \u00e9 /* x */',
  ],
  [
    'leaves text that is no entity as written',
    '/**\n * AT&T &unknown; &apos; &#12z; &#; &#x; &#65\n */',
    'AT&T &unknown; &apos; &#12z; &#; &#x; &#65',
  ],
  ['decodes one level of escaping only', '/**\n * &amp;lt;\n */', '&lt;'],
];

function docOf(pdl: string): string {
  return (parsePdl(pdl) as NamedDataSchema).getDoc();
}

describe('PDL doc comments give the doc Rest.li gives', () => {
  it.each(rows.map(([rule, comment, doc]) => [rule, comment, doc] as const))('%s', (_rule, comment, doc) => {
    expect(docOf(`${comment}\nrecord R {}`)).toBe(doc);
    expect(extractMarkdown(comment.slice(3, -2))).toBe(doc);
  });

  it('gives the same docs on fields, enum symbols and union members', () => {
    const r = parsePdl(
      'record R {\n  /**\n   *  f.\n   */\n  f: int\n  e: enum E { /** x */ X }\n  u: union[/**\n * m.\n */ m: int]\n}',
    ) as RecordDataSchema;
    expect(r.getField('f')!.getDoc()).toBe(' f.');
    expect((r.getField('e')!.getType() as EnumDataSchema).getSymbolDocs().get('X')).toBe(' x ');
    expect((r.getField('u')!.getType() as UnionDataSchema).getMembers()[0]!.getDoc()).toBe('m.');
  });
});

describe('the PDL writer writes docs that read back the same', () => {
  const docs = [
    'One line.',
    ' Leading and trailing spaces. ',
    'Two\nlines.',
    'A list:\n - one\n - two',
    '\nStarts with an empty line.',
    'Ends with an empty line.\n',
    'Paragraphs.\n\n\nThree empty lines apart.',
    '   \nA blank first line.',
    'Code:\n\n    indented()',
    '*Starts* with a star.',
    'Has */ and /* inside.',
    'Entities stay text: &lt; &amp; &#65; &#x41; AT&T &copy;',
  ];
  it.each(docs.map((d) => [JSON.stringify(d), d] as const))('%s', (_name, doc) => {
    const schema = parseSchema(JSON.stringify({ type: 'record', name: 'R', doc, fields: [] }));
    expect(docOf(schemaToPdl(schema))).toBe(doc);
  });

  it('writes a doc on its own lines, as Rest.li writes it', () => {
    const schema = parseSchema('{"type":"record","name":"R","doc":"One line.","fields":[]}');
    expect(schemaToPdl(schema)).toContain('/**\n * One line.\n */\nrecord R');
  });
});
