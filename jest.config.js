'use strict';
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Generated data templates import the runtime as users do ('svc-framework'); in this repository that is src/.
  moduleNameMapper: { '^svc-framework$': '<rootDir>/src/index.ts' },
  // Generates test/generated/ (the data templates of the schema trees the tests use) before any test runs.
  globalSetup: '<rootDir>/scripts/jest-global-setup.ts',
  // Stops the redis-server the global setup started for the queue tests.
  globalTeardown: '<rootDir>/scripts/redis-for-tests.ts',
  // Property tests and the CLI round trips spawn real processes; keep a generous ceiling.
  testTimeout: 30000,
};
