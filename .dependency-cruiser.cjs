/**
 * Module boundaries of the service, checked by `npm run lint:deps` (part of `npm run lint` and `npm test`).
 *
 * - No import cycles.
 * - A context (a folder under domain/, other than shared/) is reached from outside only through its index.ts
 *   (stores, types, functions) and its operations/index.ts (operations). Files inside a context import each
 *   other directly.
 * - domain/shared is the kernel: it imports no context.
 * Tests may import a context's internals (they test them) and are not cruised; migrations are history, checked
 * for cycles only. Everything else goes through the entry points.
 */
const context = '^domain/(?!shared/)[^/]+/';
/** Any file of a context but its two entry points: index.ts and operations/index.ts. */
const internal = `${context}(?!index\\.ts$|operations/index\\.ts$).+`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make load order fragile; move the shared type or function to where it belongs.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'context-through-index',
      severity: 'error',
      comment: 'From another context, import only its index.ts or operations/index.ts.',
      from: { path: '^domain/([^/]+)/' },
      to: { path: internal, pathNot: ['^domain/$1/'] },
    },
    {
      name: 'outside-through-index',
      severity: 'error',
      comment:
        'From api/, workers/, cli/, runtime/, bench/, schemas/ and domain/container.ts, import a context only through its index.ts or operations/index.ts.',
      from: { path: ['^(api|workers|cli|runtime|bench|schemas)/', '^domain/[^/]+\\.ts$'] },
      to: { path: internal },
    },
    {
      name: 'shared-imports-no-context',
      severity: 'error',
      comment: 'domain/shared is the kernel: contexts depend on it, never the reverse.',
      from: { path: '^domain/shared/' },
      to: { path: context },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
