#!/usr/bin/env node
'use strict';
// The CLI runs from the compiled package (dist/), built by `npm install` (the prepare script).
require('../dist/cli/main.js')
  .main(process.argv)
  .then((code) => {
    process.exitCode = code;
  })
  .catch((err) => {
    process.stderr.write(`svc: unexpected failure: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exitCode = 70;
  });
