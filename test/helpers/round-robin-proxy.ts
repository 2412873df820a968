import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  /** http://127.0.0.1:<port> of the proxy. */
  url: string;
  /** How many requests each backend received, in the order of `backends`. */
  hits: number[];
  /** The backend index that answered each request, in arrival order. */
  served: number[];
  close(): Promise<void>;
}

/**
 * A tiny load balancer in front of several web processes: each request (not each connection, so
 * keep-alive does not pin a client to one process) goes to the next backend in turn.
 */
export async function startRoundRobinProxy(backends: number[]): Promise<RoundRobinProxy> {
  const hits = backends.map(() => 0);
  const served: number[] = [];
  let next = 0;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const index = next;
    next = (next + 1) % backends.length;
    hits[index]++;
    served.push(index);
    const upstream = http.request(
      { host: '127.0.0.1', port: backends[index], method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
