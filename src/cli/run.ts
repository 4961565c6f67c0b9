/** Process entry for running the CLI from sources (tests use it with @swc-node/register); bin/svc.js runs dist/. */
import { main } from './main';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(
      `svc: unexpected failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 70;
  },
);
