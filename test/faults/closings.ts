import { nextEntry } from '../helpers/fiscal-entries.js';
import { type FaultTenant, type Harness, request } from './harness.js';

/** Yesterday (UTC), YYYY-MM-DD: the day the scenarios close. */
export const yesterday = (): string => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/**
 * Closes yesterday on the tenant's production chain: a day is closed once its chain has an entry
 * by its end, so one entry recorded yesterday, then `POST /api/v1/tenant/fiscal/closings/daily`,
 * which writes the closing and its pending anchor and queues `anchor-fiscal-closing`.
 */
export async function closeYesterday(h: Harness, tenant: FaultTenant): Promise<void> {
  const day = yesterday();
  const chain = { tenantId: tenant.tenantId, environment: 'production' as const };
  const entry = { ...nextEntry(chain, undefined), fiscal_date: day, created_at: `${day}T10:00:00Z` };
  await h.db('fiscal_entries').insert(entry);
  const res = await request(
    h,
    'POST',
    '/api/v1/tenant/fiscal/closings/daily',
    tenant.liveKey,
    { date: day },
    'X-Tenant-Key',
  );
  if (res.status < 200 || res.status > 299) throw new Error(`closing: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Restarts the web and worker processes with a TSA of the scenario's own (TSA_URL, its CA, a time-out). */
export async function useTsa(h: Harness, env: { url: string; caFile: string; timeoutMs: number }): Promise<void> {
  Object.assign(h.env, { TSA_URL: env.url, TSA_CA_CERT: env.caFile, TSA_TIMEOUT_MS: String(env.timeoutMs) });
  await Promise.all([h.web.stop(), h.worker.stop()]);
  await Promise.all([h.web.start(), h.worker.start()]);
}

/** Back to the built-in authority (for the scenarios that follow). */
export function forgetTsa(h: Harness): void {
  for (const key of ['TSA_URL', 'TSA_CA_CERT', 'TSA_TIMEOUT_MS']) delete h.env[key];
}
