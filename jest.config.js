/** @type {import('jest').Config} */
const base = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: {
    '^.+\\.ts$': 'ts-jest',
    // cockatiel (and content-disposition, of @fastify/static, which serves /docs) ship ES modules
    // only; Jest runs CommonJS, so ts-jest compiles their files too.
    '/node_modules/(cockatiel|content-disposition)/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true } },
    ],
    // NestJS 12's packages are ES modules too (and cookie 2, of platform-fastify's
    // light-my-request): compiled to CommonJS as they load (test/support/esm-transform.js).
    '/node_modules/@nestjs/([^/]+|platform-fastify/node_modules/cookie)/.+\\.js$':
      '<rootDir>/../test/support/esm-transform.js',
    // nanoid 5, which Dialect's blink client (@dialectlabs/blinks-core, test/blinks) requires, and
    // jose 6 (session tokens, src/auth): ES modules only as well.
    '/node_modules/(nanoid|jose)/.+\\.js$': '<rootDir>/../test/support/esm-transform.js',
    // wagmi 2 and @wagmi/core, which Dialect's EVM adapter (@dialectlabs/blinks/hooks/evm) signs
    // with in test/blinks, and whose serialize the blinks' transactions are checked against.
    '/node_modules/(wagmi|@wagmi/core)/.+\\.js$': '<rootDir>/../test/support/esm-transform.js',
  },
  // Transformed: the files of these packages; a package nested under one is not, unless named.
  transformIgnorePatterns: [
    '/node_modules/(?!(?:@fastify/static/node_modules/)?(?:cockatiel|content-disposition)/|@nestjs/(?!cli/|schematics/)|(?<=@nestjs/platform-fastify/node_modules/)cookie/|nanoid/|jose/|wagmi/|@wagmi/core/)',
  ],
  // Node's, with workers that exit at once when empty (test/support/node.environment.js).
  testEnvironment: '<rootDir>/../test/support/node.environment.js',
  // Nest's default console logger off: what a spec reads it spies on or records.
  setupFiles: ['<rootDir>/../test/support/quiet-nest-logger.setup.ts'],
};

module.exports = {
  // Jest's default (one worker fewer than the cores) is one worker on CI's 2 cores; the suites
  // mostly wait on local servers and chains, so two share the cores well and halve the run.
  maxWorkers: Math.max(2, require('node:os').availableParallelism() - 1),
  // Hooks boot apps and chains: work, not waiting, which on a loaded 2-core CI can outlast Jest's
  // 5 s (a global option: projects cannot set it). What a test waits for, it waits on events.
  testTimeout: 30_000,
  projects: [
    { ...base, displayName: 'unit', rootDir: 'src', testRegex: '.*\\.spec\\.ts$' },
    { ...base, displayName: 'e2e', rootDir: 'test', testRegex: '.*\\.e2e-spec\\.ts$' },
  ],
};
