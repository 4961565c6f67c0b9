import { mkdirSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { Command } from 'commander';
import { openApiDocument } from '../../openapi/document';
import { CliUsageError } from '../cli-error';
import { writeOutput } from '../io';
import { loadUserModule } from '../load-module';
import { resourcesOfModule } from './idl';

interface OpenApiCommandOptions {
  namespace?: string;
  export?: string;
  title?: string;
  apiVersion?: string;
  server?: string;
  headerPrefix?: string;
}

/**
 * `svc openapi <module> [out]`: the OpenAPI 3.1 document of every root resource (definition or interface)
 * the module exports, as `svc idl export` finds them; written to `out`, or to stdout without it. Exit 2 when
 * the module cannot be loaded or exports none.
 */
export function openapiCommand(): Command {
  return new Command('openapi')
    .description(
      'write the OpenAPI 3.1 document of every root resource a module exports (resource definitions or interfaces)',
    )
    .argument('<module>', 'a .ts or .js module')
    .argument('[out]', 'the file to write (default: stdout)')
    .option('--namespace <namespace>', 'namespace of root resources that declare none (default: none)')
    .option('--export <name>', 'use only this export of the module')
    .option('--title <title>', "the document's info.title", 'Svc service')
    .option('--api-version <version>', "the document's info.version (the interface's version)", '0.0.0')
    .option('--server <url>', 'servers[0].url, e.g. https://photos.example.com/api (default: /)')
    .option('--header-prefix <prefix>', 'the protocol header prefix of the service', 'X-Svc')
    .action(async (module: string, out: string | undefined, opts: OpenApiCommandOptions) => {
      const loaded = await loadUserModule(module, 'svc openapi');
      const resources = resourcesOfModule(loaded as Record<string, unknown>, opts.export);
      if (resources.length === 0) {
        throw new CliUsageError(
          `${module} exports no resource definitions or interfaces (factory functions are not called: export their results or the interfaces)`,
        );
      }
      const doc = openApiDocument(resources, {
        ...(opts.title === undefined ? {} : { title: opts.title }),
        ...(opts.apiVersion === undefined ? {} : { version: opts.apiVersion }),
        ...(opts.server === undefined ? {} : { serverUrl: opts.server }),
        ...(opts.namespace === undefined ? {} : { namespace: opts.namespace }),
        ...(opts.headerPrefix === undefined ? {} : { headerPrefix: opts.headerPrefix }),
      });
      const text = `${JSON.stringify(doc, null, 2)}\n`;
      if (out === undefined) {
        await writeOutput(text);
        return;
      }
      mkdirSync(nodePath.dirname(nodePath.resolve(out)), { recursive: true });
      writeFileSync(out, text);
      await writeOutput(`${out}\n`);
    });
}
