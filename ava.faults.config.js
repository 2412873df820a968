// The serial suite (`npm run test:faults`), one file at a time because each needs the machine to
// itself: the fault suite (the Procfile's processes from the build, killed and restarted under
// load, against a PostgreSQL cluster of its own; test/faults/README.md), and the short soak
// (test/scale/soak.test.ts), whose latency bounds mean nothing while other test files share the cores.
export default {
  files: ['test/faults/**/*.test.ts', 'test/scale/soak.test.ts'],
  typescript: { rewritePaths: { 'test/': 'dist/test/' }, compile: false },
  timeout: '5m',
  workerThreads: false,
  concurrency: 1,
  verbose: true,
};
