import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { invoiceBody } from '../test/helpers/invoice-bodies.js';

/** A tenant the pipeline creates invoices for: its sandbox secret key. */
export interface LoadTenant {
  tenantId: string;
  key: string;
}

export interface CreationReport {
  requested: number;
  /** 2xx answers: invoices the service accepted. */
  created: number;
  non_2xx: number;
  errors: number;
  seconds: number;
  /** Accepted invoices per second of the whole creation, first request to last answer. */
  requests_per_s: number;
  /** True when the creation timeout stopped it before `requested` answers. */
  timed_out: boolean;
  connections: number;
}

const LINE = {
  description: 'Prestation de conseil',
  quantity: 2,
  unit_price: 150,
  tax_rate: 20,
  total_ht: 300,
  total_tax: 60,
  total_ttc: 360,
};

/** The invoice_create scenario's 10-line sandbox invoice, numbered `number`. */
export function tenLineBody(number: string): string {
  return JSON.stringify(
    invoiceBody({
      invoice_number: number,
      lines: Array.from({ length: 10 }, () => LINE),
      total_ht: 3000,
      total_tax: 600,
      total_ttc: 3600,
    }),
  );
}

export const CREATE_PATH = '/api/v1/sandbox/invoices';

/**
 * `count` invoices numbered `<prefix>-<n>` over HTTP, spread round-robin over `tenants`, on
 * `connections` connections; stopped after `timeoutMs` whatever it reached. Resolves when the last
 * answer came back, with `finishedAt` (performance.now()) as the time of the last creation.
 */
export async function createInvoices(options: {
  baseUrl: string;
  tenants: LoadTenant[];
  count: number;
  prefix: string;
  connections: number;
  timeoutMs: number;
}): Promise<CreationReport & { finishedAt: number }> {
  const { tenants, count, prefix } = options;
  const connections = Math.min(options.connections, count);
  let next = 0;
  const started = performance.now();
  // autocannon's promise is also its run (the types leave out `stop`), which the timeout stops
  const instance = autocannon({
    url: options.baseUrl,
    connections,
    amount: count,
    // a creation that waits 30 s is a result, not something to give up on
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: CREATE_PATH,
        setupRequest: (request) => {
          const n = next++;
          const tenant = tenants[n % tenants.length];
          return {
            ...request,
            headers: { 'X-API-Key': tenant.key, 'Content-Type': 'application/json' },
            body: tenLineBody(`${prefix}-${n}`),
          };
        },
      },
    ],
  }) as Promise<autocannon.Result> & {
    stop(): void;
    on(event: 'response', listener: (...args: never[]) => void): void;
  };
  // autocannon resolves on its next one-second tick, so the last creation's time is taken from the
  // answers themselves: otherwise the rate and the "after the last creation" figures would be off by up to 1 s
  let lastAnswerAt = started;
  let created = 0;
  instance.on('response', (_client: unknown, statusCode: number) => {
    lastAnswerAt = performance.now();
    if (statusCode >= 200 && statusCode < 300) created++;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    instance.stop();
  }, options.timeoutMs);
  const result = await instance;
  clearTimeout(timer);
  const finishedAt = lastAnswerAt;
  const seconds = (finishedAt - started) / 1000;
  return {
    requested: count,
    created,
    non_2xx: result.non2xx,
    errors: result.errors,
    seconds: Math.round(seconds * 100) / 100,
    requests_per_s: seconds > 0 ? Math.round((created / seconds) * 10) / 10 : 0,
    timed_out: timedOut,
    connections,
    finishedAt,
  };
}
