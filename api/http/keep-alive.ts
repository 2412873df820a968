import type { Server } from 'node:http';

/**
 * Idle keep-alive connections stay open 65 s (Node's default is 5 s). A load balancer or client
 * that reuses a connection the server is closing at that very moment gets a reset (a 502 at the
 * balancer, "fetch failed" at a client): the server must outlive the idle timeout of whatever pools
 * connections in front of it, commonly 60 s. The headers timeout must exceed the keep-alive one.
 */
export const KEEP_ALIVE_MS = 65_000;

export function keepConnectionsAlive(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
}
