import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalTsa } from '../helpers/local-tsa.js';

/** How the fake TSA answers one request. */
export type TsaFault = 'ok' | '503' | '429' | 'slow' | 'malformed' | 'hang';

export interface FakeTsa {
  url: string;
  /** Each request's fault, in arrival order. */
  served: TsaFault[];
  /** Requests received and not answered yet (a slow or hanging answer, or a client gone). */
  inFlight(): number;
  /** Answers written in full (a token, or a fault's status). */
  answered(): number;
  /** Resolves when the next answer has been written in full: the client has it, or is reading it. */
  nextAnswer(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A time-stamp authority over HTTP on loopback (the service's processes are separate, so no nock):
 * `plan` picks each request's fault by its index; `ok` is a real token of the local test TSA
 * (../shared/tsa/local-tsa.sh), `slow` the same after `slowMs`, `malformed` a 200 of random bytes.
 */
export async function startFakeTsa(tsa: LocalTsa, plan: (index: number) => TsaFault, slowMs: number): Promise<FakeTsa> {
  const served: TsaFault[] = [];
  const hanging: ServerResponse[] = [];
  let inFlight = 0;
  let answered = 0;
  let waiting: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const fault = plan(served.length);
      served.push(fault);
      inFlight++;
      let settled = false;
      const settle = () => {
        if (settled) return;
        settled = true;
        inFlight--;
      };
      res.once('close', settle);
      res.once('finish', () => {
        settle();
        answered++;
        const woken = waiting;
        waiting = [];
        for (const wake of woken) wake();
      });
      const reply = (status: number, body: Buffer | string, type = 'application/timestamp-reply') => {
        if (res.destroyed) return;
        res.writeHead(status, { 'Content-Type': type, ...(status === 429 ? { 'Retry-After': '1' } : {}) });
        res.end(body);
      };
      switch (fault) {
        case '503':
          return reply(503, 'unavailable', 'text/plain');
        case '429':
          return reply(429, 'slow down', 'text/plain');
        case 'malformed':
          return reply(200, Buffer.from('0\u0082\u0001not a TimeStampResp', 'latin1'));
        case 'hang':
          hanging.push(res);
          return;
        case 'slow':
          await new Promise((resolve) => setTimeout(resolve, slowMs));
          return reply(200, await tsa.reply(Buffer.concat(chunks)));
        default:
          return reply(200, await tsa.reply(Buffer.concat(chunks)));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsr`,
    served,
    inFlight: () => inFlight,
    answered: () => answered,
    nextAnswer: () => new Promise<void>((resolve) => waiting.push(resolve)),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
