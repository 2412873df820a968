import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** What the receiver keeps of one `invoice.created` delivery. */
export interface Arrival {
  invoiceNumber: string;
  /** performance.now() when the body was read. */
  at: number;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:<port>/hooks, the URL tenants register. */
  url: string;
  /** The first `invoice.created` arrival per invoice id (a retried delivery does not move it). */
  created: Map<string, Arrival>;
  /** Every delivery received, retries and other events included. */
  deliveries(): number;
  close(): Promise<void>;
}

/**
 * A local endpoint that answers 204 at once, as a healthy customer endpoint would, and records when each
 * invoice's `invoice.created` arrived. It does not check signatures: the bench measures delivery time only.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const created = new Map<string, Arrival>();
  let deliveries = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      deliveries++;
      res.writeHead(204).end();
      if (req.headers['x-service-event'] !== 'invoice.created') return;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          data?: { id?: string; invoice_number?: string };
        };
        const id = body.data?.id;
        if (id && !created.has(id)) created.set(id, { invoiceNumber: String(body.data?.invoice_number ?? ''), at });
      } catch {
        // not JSON: counted as a delivery, not as an arrival
      }
    });
  });
  // The service's sender keeps connections alive; the receiver must not be what limits them.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => server.listen(0, '127.0.0.1', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    created,
    deliveries: () => deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
