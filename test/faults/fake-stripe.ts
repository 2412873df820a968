import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake Stripe answers one call. */
export type StripeFault = 'ok' | '500' | '429' | 'slow' | 'html' | 'truncated' | 'reset';

export interface StripeSession {
  id: string;
  topUpId: string;
  tenantId: string;
  amount: number;
}

export interface FakeStripe {
  /** STRIPE_API_BASE. */
  url: string;
  /** Checkout Session calls per Idempotency-Key, with the fault each met. */
  calls: Map<string, StripeFault[]>;
  /** Sessions opened, by Idempotency-Key (a replay of one key answers the same session). */
  sessions: Map<string, StripeSession>;
  close(): Promise<void>;
}

const TRUNCATED = '{"id": "cs_test_cut", "object": "checkout.session", "url": "https://checkout.str';

/**
 * Stripe's Checkout Sessions endpoint (provider-apis.md §3, the form test/api/top-ups-stripe.test.ts
 * pins with nock) on loopback. `plan(k, n)` is the fault of the n-th call (from 0) of the k-th
 * Idempotency-Key seen (from 0). Like Stripe, a key opens one session: a retry with the same key
 * answers it again. `truncated` opens the session and loses the answer; the other faults open nothing.
 */
export async function startFakeStripe(
  plan: (key: number, n: number) => StripeFault,
  slowMs: number,
): Promise<FakeStripe> {
  const calls = new Map<string, StripeFault[]>();
  const sessions = new Map<string, StripeSession>();
  const held: ServerResponse[] = [];
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') {
        return json(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL` } });
      }
      const key = String(req.headers['idempotency-key'] ?? '');
      const seen = calls.get(key) ?? [];
      if (!calls.has(key)) calls.set(key, seen);
      const fault = plan([...calls.keys()].indexOf(key), seen.length);
      seen.push(fault);
      switch (fault) {
        case '500':
          return json(res, 500, { error: { type: 'api_error', message: 'Something went wrong on our end.' } });
        case '429':
          return json(res, 429, { error: { type: 'rate_limit_error', message: 'Too many requests.' } });
        case 'html':
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html><body>502 Bad Gateway</body></html>');
        case 'reset':
          return req.socket.destroy();
        case 'slow':
          held.push(res);
          await new Promise((resolve) => setTimeout(resolve, slowMs));
          break;
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const session = sessions.get(key) ?? {
        id: `cs_test_${sessions.size + 1}_${key.slice(-8)}`,
        topUpId: form.get('metadata[topup_id]') ?? '',
        tenantId: form.get('metadata[tenant_id]') ?? '',
        amount: Number(form.get('line_items[0][price_data][unit_amount]') ?? 0),
      };
      sessions.set(key, session);
      if (fault === 'truncated') return json(res, 200, TRUNCATED);
      json(res, 200, {
        id: session.id,
        object: 'checkout.session',
        url: `https://checkout.stripe.com/c/pay/${session.id}`,
        status: 'open',
        payment_status: 'unpaid',
        mode: 'payment',
        amount_total: session.amount,
        currency: 'eur',
        payment_intent: null,
        customer: null,
        client_reference_id: session.tenantId,
        metadata: { tenant_id: session.tenantId, topup_id: session.topUpId, environment: 'production' },
        livemode: false,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    sessions,
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
