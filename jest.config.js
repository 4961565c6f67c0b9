'use strict';
/** What every project shares. */
const project = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Generated data templates import the runtime as users do ('svc-framework'); in this repository that is src/.
  moduleNameMapper: {
    '^svc-framework$': '<rootDir>/src/index.ts',
    '^svc-framework/postgres$': '<rootDir>/src/postgres/index.ts',
  },
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    { ...project, displayName: 'fastify' },
    // The resource tests again on the standalone node:http server (createSvcServer): both adapters must
    // answer alike (test/resources/support/http.ts picks the adapter from SVC_TEST_SERVER).
    {
      ...project,
      displayName: 'node-server',
      testMatch: [
        // the files that start a server (test/resources/support/http.ts startServer)
        '<rootDir>/test/resources/{attachments,batch-finder,batch-get-list,batch-limits,collection,compression,filters,header-families,interface,keys,malformed,mux,observer,reactive-handlers,routing,validation,wire}.test.ts',
        '<rootDir>/test/e2e/{alternative-keys,attachment-abort,forwarded-attachment-abort,typed-batch-finder,typed-client-rx,typed-client-shapes}.test.ts',
        '<rootDir>/test/queue/jobs-resource.test.ts',
        '<rootDir>/test/openapi/serve.test.ts',
      ],
      setupFiles: ['<rootDir>/test/support/node-server-env.ts'],
    },
    // The wire-behaviour tests again over TLS and HTTP/2 (test/resources/support/http.ts speaks HTTP/2 on
    // one session per server under SVC_TEST_PROTOCOL=h2): what HTTP/2 changes is framing (no chunked
    // encoding, no Connection headers, a stream's end instead of a length, flow control), so the files whose
    // cases are about the wire run here, not every resource test. Cases about HTTP/1.1 framing itself
    // (raw sockets) are `itHttp1` and skipped here.
    {
      ...project,
      displayName: 'http2',
      testMatch: [
        '<rootDir>/test/resources/{attachments,batch-finder,compression,header-families,malformed,tunneling-wire,wire}.test.ts',
      ],
      setupFiles: ['<rootDir>/test/support/http2-env.ts'],
    },
  ],
  // Generates test/generated/ (the data templates of the schema trees the tests use) before any test runs.
  globalSetup: '<rootDir>/scripts/jest-global-setup.ts',
  // Stops the redis-server and the PostgreSQL the global setup started.
  globalTeardown: '<rootDir>/scripts/jest-global-teardown.ts',
  // Property tests and the CLI round trips spawn real processes; keep a generous ceiling.
  testTimeout: 30000,
  // Two test files at a time (jest's default on 2 cores is one): most files wait on real servers,
  // processes and browsers rather than compute, so two keep both cores busy and the suite within its
  // 10-minute budget. Every file owns its ports, temp dirs and processes, so they do not interfere.
  maxWorkers: 2,
  // A worker is recycled once its heap holds more than this after a test file. Not for a leak: a worker
  // that had run half of test/resources held ~760 MB (RSS; 466 MB of heap) and took ~640 ms to tear down
  // after its last file (its 'exit' event came at once; measured 2026-11-29), past the 500 ms jest gives a
  // worker to exit, so every run printed "A worker process has failed to exit gracefully". With 600 MB the
  // whole suite still printed it; with 300 MB it does not, and ran in 377 s (400 s at 600 MB, 438 s
  // without a limit, the same day).
  workerIdleMemoryLimit: '300MB',
};
