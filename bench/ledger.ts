import { randomUUID } from 'node:crypto';
import { appendFiscalEntry } from '../domain/ledger/index.js';
import { systemCaller } from '../domain/shared/caller.js';
import { APP_ROLE, createDatabase } from '../domain/shared/database.js';
import { setTenantContext } from '../domain/shared/tenant-context.js';
import { seedPlatformTenant } from '../test/helpers/identities.js';
import { createBenchDatabase } from './bench-database.js';

/** Concurrent appenders, as many business transactions at once would be. */
const WRITERS = 20;

export interface LedgerReport {
  /** Entries per second appended to a single chain by all writers at once (they take turns on its lock). */
  one_chain_per_second: number;
  /** Entries per second when the writers spread over 50 chains (50 sub-tenants of one tenant). */
  fifty_chains_per_second: number;
  writers: number;
}

/**
 * `ledger_append`: the fiscal ledger alone. Each transaction records one fact exactly as invoice
 * creation does (`appendFiscalEntry`, appended by the deferred trigger at commit under the chain's
 * lock) as the application role, with row-level security on; no HTTP, no other rows.
 */
export async function measureLedgerAppend(seconds: number): Promise<LedgerReport> {
  const database = await createBenchDatabase();
  const owner = createDatabase(database.url, { poolMax: 2 });
  const db = createDatabase(database.url, { poolMax: WRITERS, role: APP_ROLE });
  try {
    const tenant = await seedPlatformTenant(owner, { kyb: 'verified' });
    const subTenants = await owner('sub_tenants')
      .insert(
        Array.from({ length: 50 }, (_, i) => ({
          tenant_id: tenant.tenantId,
          environment: 'sandbox',
          name: `Chain ${i + 1}`,
          external_id: `chain-${i + 1}`,
        })),
      )
      .returning<{ id: string }[]>('id');
    const caller = systemCaller(tenant.tenantId, 'sandbox');
    const rate = async (chains: (string | null)[]) => {
      const until = Date.now() + seconds * 1000;
      let count = 0;
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, writer) => {
          for (let i = writer; Date.now() < until; i += WRITERS) {
            const subTenantId = chains[i % chains.length];
            await db.transaction(async (tx) => {
              await setTenantContext(tx, caller);
              await appendFiscalEntry(
                tx,
                { tenantId: tenant.tenantId, environment: 'sandbox', subTenantId },
                {
                  entryType: 'invoice_created',
                  entityType: 'invoice',
                  entityId: randomUUID(),
                  fiscalDate: '2026-11-22',
                  now: new Date(),
                  data: { invoice_number: `L-${i}`, total_ttc: '120.00', writer },
                },
              );
            });
            count += 1;
          }
        }),
      );
      return Math.round(count / seconds);
    };
    return {
      one_chain_per_second: await rate([null]),
      fifty_chains_per_second: await rate(subTenants.map((s) => s.id)),
      writers: WRITERS,
    };
  } finally {
    await db.destroy();
    await owner.destroy();
    await database.drop();
  }
}
