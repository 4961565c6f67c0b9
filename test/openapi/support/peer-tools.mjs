// Runs the peers' OpenAPI tools on a document (they are ES modules, which jest's CommonJS runtime does not
// load): Redocly's linter with its `recommended` rules, then openapi-typescript. Usage:
//   node peer-tools.mjs <doc.json> <out.d.ts>
// Prints one JSON line: { problems: [{ severity, ruleId, message, pointer }], types: <bytes written> }.
import { writeFileSync, readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';

const [docFile, outFile] = process.argv.slice(2);
const text = readFileSync(docFile, 'utf8');
const config = await createConfig({
  extends: ['recommended'],
  rules: {
    // the example has no authentication (a guard adds it where a service has one)
    'security-defined': 'off',
    // Rest.li serves several methods on one path: the method's fixed query parameter is in the path key
    // (src/openapi/document.ts says why)
    'path-not-include-query': 'off',
  },
});
const problems = await lintFromString({ source: text, absoluteRef: `file://${docFile}`, config });
const ast = await openapiTS(JSON.parse(text));
const types = astToString(ast);
writeFileSync(outFile, types);
process.stdout.write(
  `${JSON.stringify({
    problems: problems.map((p) => ({
      severity: p.severity,
      ruleId: p.ruleId,
      message: p.message,
      pointer: p.location?.[0]?.pointer,
    })),
    types: types.length,
  })}\n`,
);
