import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer: a status and a body (JSON unless a string), or a silence longer than the caller waits. */
export interface ScriptedAnswer {
  status?: number;
  body?: unknown;
  type?: string;
  /** Answer only after this many milliseconds (a timeout for a client that waits less). */
  delayMs?: number;
}

export interface ScriptedHttp {
  url: string;
  /** Queues answers for `METHOD /path` (the query is ignored), served in order. */
  script(route: string, ...answers: ScriptedAnswer[]): void;
  /** Every call received, as `METHOD /path`. */
  calls: string[];
  /** Scripted answers not served yet. */
  pending(): string[];
  clear(): void;
  close(): Promise<void>;
}

/**
 * A provider on loopback answering what a test scripts, call by call: unlike nock, its timeouts are
 * real sockets left waiting, so a client's deadline fires as it would against the provider. An
 * unscripted call answers 404.
 */
export async function startScriptedHttp(): Promise<ScriptedHttp> {
  const routes = new Map<string, ScriptedAnswer[]>();
  const calls: string[] = [];
  const held = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const route = `${req.method} ${new URL(req.url ?? '/', 'http://scripted').pathname}`;
      calls.push(route);
      const answer = routes.get(route)?.shift();
      if (!answer) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, message: `unscripted ${route}`, error: 404, data: null }));
        return;
      }
      const send = () => {
        held.delete(res);
        if (res.destroyed) return;
        const text = typeof answer.body === 'string' || Buffer.isBuffer(answer.body);
        res.writeHead(answer.status ?? 200, {
          'content-type': answer.type ?? (text ? 'text/plain' : 'application/json'),
        });
        res.end(text ? answer.body : JSON.stringify(answer.body ?? null));
      };
      if (!answer.delayMs) return send();
      held.add(res);
      setTimeout(send, answer.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    script(route, ...answers) {
      routes.set(route, [...(routes.get(route) ?? []), ...answers]);
    },
    calls,
    pending: () => [...routes.entries()].flatMap(([route, answers]) => answers.map(() => route)),
    clear() {
      routes.clear();
      calls.length = 0;
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
