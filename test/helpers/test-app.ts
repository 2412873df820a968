import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../api/app.js';
import { keepConnectionsAlive } from '../../api/http/keep-alive.js';
import type { RouteSpec } from '../../api/http/route-spec.js';
import type { McpOptions } from '../../api/mcp/mcp.router.js';
import type { Deps } from '../../domain/shared/deps.js';
import './net.js';
import { responseContract } from './response-contract.js';
import { createTestDeps, type TestDeps, type TestDepsOptions } from './test-deps.js';

export interface TestApp extends TestDeps {
  url: string;
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** The real Koa app on a free loopback port, over a fresh database. */
export async function startTestApp(
  options: TestDepsOptions & {
    routes?: (deps: Deps) => readonly RouteSpec[];
    mcp?: McpOptions;
    /** Listen on this port (a test that must name the app's URL in PUBLIC_BASE_URL); a free one by default. */
    port?: number;
  } = {},
): Promise<TestApp> {
  const base = await createTestDeps(options);
  // Every success body is checked against the schema the OpenAPI document gives it.
  const app = createApp(base.deps, {
    ...(options.routes ? { routes: options.routes(base.deps) } : {}),
    responseCheck: responseContract(base.deps.schemas),
    ...(options.mcp ? { mcp: options.mcp } : {}),
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(options.port ?? 0, '127.0.0.1', () => resolve(s));
    keepConnectionsAlive(s);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...base,
    url,
    request: (path, init) => fetch(`${url}${path}`, init),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await base.close();
    },
  };
}
