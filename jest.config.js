/** @type {import('jest').Config} */
module.exports = {
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  // isolatedModules in tsconfig.json makes ts-jest transpile only; `npm run typecheck` checks types.
  transform: { '^.+\\.ts$': 'ts-jest' },
  testEnvironment: 'node',
  testTimeout: 60_000,
  // Three files at a time on two cores: a file spends part of its time waiting (polls, sandboxes on timers, the
  // database server), and a third worker fills it (the SQLite suite: 367 s with two, 321 s with three).
  maxWorkers: 3,
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
