/** jest 30 + SWC, ESM. Unit and integration tests of the backend, and pure-logic tests of the frontend. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
      target: 'es2024',
    },
    module: { type: 'es6' },
  },
];

const common = {
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.(t|j)sx?$': swc },
  testEnvironment: 'node',
};

export default {
  projects: [
    {
      ...common,
      displayName: 'backend',
      rootDir: 'backend',
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
      setupFiles: ['reflect-metadata'],
      globalSetup: '<rootDir>/src/testing/global-setup.mjs',
      globalTeardown: '<rootDir>/src/testing/global-teardown.mjs',
    },
    {
      ...common,
      displayName: 'frontend',
      rootDir: 'frontend',
      testMatch: ['<rootDir>/src/**/*.test.ts'],
      // The frontend's aliases for the contracts and live events it shares with the backend (frontend/tsconfig.json's paths).
      moduleNameMapper: {
        ...common.moduleNameMapper,
        '^@contracts/(.*)$': '<rootDir>/../backend/src/contracts/$1',
        '^@events/(.*)$': '<rootDir>/../backend/src/events/$1',
      },
    },
  ],
  testTimeout: 60_000,
  // The integration tests mostly wait (on PostgreSQL, queues, child processes): three files at a time finish the
  // suite sooner than jest's default of one worker on two cores. Each app under test holds about 15 of the
  // server's connections, so more workers would crowd a PostgreSQL that allows 100.
  maxWorkers: 3,
};
