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
  },
  transformIgnorePatterns: [
    '/node_modules/(?!(?:@fastify/static/node_modules/)?(?:cockatiel|content-disposition)/)',
  ],
  testEnvironment: 'node',
};

module.exports = {
  // Jest's default (one worker fewer than the cores) is one worker on CI's 2 cores; the suites
  // mostly wait on local servers and chains, so two share the cores well and halve the run.
  maxWorkers: Math.max(2, require('node:os').availableParallelism() - 1),
  projects: [
    { ...base, displayName: 'unit', rootDir: 'src', testRegex: '.*\\.spec\\.ts$' },
    { ...base, displayName: 'e2e', rootDir: 'test', testRegex: '.*\\.e2e-spec\\.ts$' },
  ],
};
