// The fault suite (`npm run test:faults`): the Procfile's processes from the build, killed and
// restarted under load, against a PostgreSQL cluster of its own (test/faults/README.md).
export default {
  files: ['test/faults/**/*.test.ts'],
  typescript: { rewritePaths: { 'test/': 'dist/test/' }, compile: false },
  timeout: '5m',
  workerThreads: false,
  concurrency: 1,
  verbose: true,
};
