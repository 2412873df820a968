import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a webhook receiver saw it: the raw body bytes, before any parsing. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Arrival time (ms since the epoch). */
  at: number;
}

/**
 * What to answer: a status and body, after an optional delay; `hang` never answers; `drop` closes
 * the connection without answering.
 */
export type Reply =
  | { status: number; body?: string; delayMs?: number; headers?: Record<string, string> }
  | 'hang'
  | 'drop';

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: ReceivedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** Resolves once `count` requests arrived. */
  received(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1; `reply` decides each answer from the request and its index. */
export async function startReceiver(
  reply: (request: ReceivedRequest, index: number) => Reply = () => ({ status: 200 }),
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const index = requests.push(request) - 1;
      const answer = reply(request, index);
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      if (answer === 'drop') {
        req.socket.destroy();
        return;
      }
      setTimeout(() => {
        res.writeHead(answer.status, { 'Content-Type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? 'ok');
      }, answer.delayMs ?? 0);
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    connections: () => connections,
    async received(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${requests.length} of ${count} requests in time`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return requests;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
