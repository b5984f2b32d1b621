/** @type {import('jest').Config} */
module.exports = {
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  // isolatedModules in tsconfig.json makes ts-jest transpile only; `npm run typecheck` checks types.
  transform: { '^.+\\.ts$': 'ts-jest' },
  testEnvironment: 'node',
  testTimeout: 60_000,
  maxWorkers: 2,
  globalSetup: '<rootDir>/test/support/global-setup.js',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
