import { randomUUID } from 'node:crypto';
import type { ConnectProviderInput, ProviderConnection } from '../../../schemas/transmission-jobs.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { enterTenant } from '../../shared/tenant-context.js';
import type { ProviderConnectionRow } from '../provider-connection-store.js';
import { sealClientSecret } from '../superpdp-tokens.js';

export const toProviderConnection = (row: ProviderConnectionRow): ProviderConnection => ({
  id: row.id,
  tenant_id: row.tenant_id,
  environment: row.environment,
  provider: row.provider,
  status: row.status,
  client_id: row.client_id,
  sub_tenant_id: row.sub_tenant_id,
  company_id: row.company_id,
});

/**
 * The operator connects a tenant (or one of its sub-tenants or companies) to SuperPDP with an
 * OAuth client of its own company (client credentials, provider-apis.md §1.2). The secret is
 * sealed under APP_KEY; tokens are fetched on first use. Connecting again replaces the client and
 * forgets the old tokens.
 */
export const connectProvider = defineCommand<ConnectProviderInput, ProviderConnection>({
  name: 'connect_provider',
  summary: 'Connect a tenant, sub-tenant or company to SuperPDP with an OAuth client (client credentials).',
  input: 'ConnectProviderInput',
  output: 'ProviderConnection',
  callers: ['system'],
  async run(input, ctx) {
    const appKey = ctx.deps.config.appKey;
    if (!appKey) throw new AppError('SERVICE_UNAVAILABLE', 'APP_KEY is needed to store provider secrets.');
    await enterTenant(ctx.tx, input.tenant_id);
    const tenant = await ctx.tx('tenants').where({ id: input.tenant_id }).first('id');
    if (!tenant) throw new AppError('NOT_FOUND', `No tenant ${input.tenant_id}.`);
    const environment = input.environment ?? 'production';
    const id = randomUUID();
    const now = ctx.clock.now();
    const [row] = await ctx.tx
      .raw<{ rows: ProviderConnectionRow[] }>(
        `insert into provider_connections (id, tenant_id, sub_tenant_id, company_id, environment, provider, client_id,
         client_secret_sealed, status, created_at, updated_at)
       values (?, ?, ?, ?, ?, 'superpdp', ?, ?, 'active', ?, ?)
       on conflict (tenant_id, environment, coalesce(sub_tenant_id, '00000000-0000-0000-0000-000000000000'::uuid),
         coalesce(company_id, '00000000-0000-0000-0000-000000000000'::uuid), provider)
       do update set client_id = excluded.client_id, client_secret_sealed = excluded.client_secret_sealed, refresh_token_sealed = null,
         access_token_sealed = null, access_token_expires_at = null, status = 'active', updated_at = excluded.updated_at
       returning *`,
        [
          id,
          input.tenant_id,
          input.sub_tenant_id ?? null,
          input.company_id ?? null,
          environment,
          input.client_id,
          sealClientSecret(appKey, id, input.client_secret),
          now,
          now,
        ],
      )
      .then((r) => r.rows);
    if (row.id !== id) {
      // An existing connection: its secret is sealed under its own id.
      await ctx
        .tx('provider_connections')
        .where({ id: row.id })
        .update({ client_secret_sealed: sealClientSecret(appKey, row.id, input.client_secret) });
    }
    return toProviderConnection(row);
  },
});
