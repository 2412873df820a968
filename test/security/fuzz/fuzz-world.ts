import { randomUUID } from 'node:crypto';
import { issueAccessToken } from '../../../domain/auth/access-token-store.js';
import { renderFormat } from '../../../domain/documents/render.js';
import type { Environment } from '../../../domain/shared/caller.js';
import { issueTenantKey } from '../../../domain/tenants/tenant-keys.js';
import { buildDocument } from '../../fixtures/invoice-document-builder.js';
import { createCreditNote } from '../../helpers/credit-notes.js';
import { postJson, readJson } from '../../helpers/http.js';
import {
  type SeededTenant,
  type SeededUser,
  seedPlatformTenant,
  seedUser,
  seedVerifiedCompany,
} from '../../helpers/identities.js';
import { createInvoice } from '../../helpers/invoices.js';
import type { TestApp } from '../../helpers/test-app.js';

/** What a fuzzed path id can name: the path segment before it (`/companies/{id}` → `companies`). */
export type Resource = 'companies' | 'webhooks' | 'sub-tenants' | 'invoices' | 'incoming' | 'credit-notes' | 'rules';

/**
 * The fuzzer's world: a user (dashboard token, a verified company, a webhook endpoint) and a
 * verified platform tenant with a production balance, and in each environment a sub-tenant, an
 * invoice, a credit note of it; an incoming invoice in the sandbox. Path ids are drawn from here.
 */
export interface FuzzWorld {
  user: SeededUser;
  tenant: SeededTenant;
  /** Real ids by environment and resource (the user's resources are in both). */
  ids: Record<Environment, Partial<Record<Resource, string>>>;
  // biome-ignore lint/suspicious/noExplicitAny: invoice views are read loosely
  invoices: Record<Environment, any>;
}

export async function seedWorld(app: TestApp): Promise<FuzzWorld> {
  const db = app.ownerDb;
  const user = await seedUser(db);
  const tenant = await seedPlatformTenant(db, { kyb: 'verified' });
  await db('balances')
    .insert({ tenant_id: tenant.tenantId, amount: '100000.00' })
    .onConflict('tenant_id')
    .merge({ amount: '100000.00' });
  const companyId = await seedVerifiedCompany(db, user.tenantId);
  const webhook = await readJson(
    await app.request(
      '/api/v1/webhooks',
      postJson(
        { url: 'https://hooks.example.com/fuzz', events: ['*'], environment: 'sandbox' },
        { Authorization: `Bearer ${user.token}` },
      ),
    ),
  );
  const ids = { sandbox: {}, production: {} } as FuzzWorld['ids'];
  // biome-ignore lint/suspicious/noExplicitAny: invoice views are read loosely
  const invoices = {} as Record<Environment, any>;
  for (const environment of ['sandbox', 'production'] as const) {
    const key = environment === 'sandbox' ? tenant.keys.sk_test : tenant.keys.sk_live;
    const [subTenant] = await db('sub_tenants')
      .insert({ tenant_id: tenant.tenantId, environment, name: 'Fuzz SAS', external_id: `ext-${randomUUID()}` })
      .returning('id');
    const invoice = await createInvoice(app.request, key, {}, '/api/v1/invoices');
    const creditNote = await createCreditNote(app.request, key, invoice);
    invoices[environment] = invoice;
    ids[environment] = {
      companies: companyId,
      webhooks: webhook.data.id,
      'sub-tenants': subTenant.id,
      invoices: invoice.id,
      'credit-notes': creditNote.id,
      rules: 'fec.journals',
    };
  }
  ids.sandbox.incoming = await registerIncoming(app, tenant.keys.sk_test, ids.sandbox['sub-tenants']!);
  return { user, tenant, ids, invoices };
}

async function registerIncoming(app: TestApp, key: string, subTenantId: string): Promise<string> {
  const doc = buildDocument({
    number: `SUP-${randomUUID().slice(0, 8)}`,
    lines: [{ description: 'Papier A4', quantity: '10', unitPrice: '4.50' }],
  });
  const content = renderFormat(doc, 'ubl').find((f) => f.kind === 'ubl')!.content;
  const res = await app.request(
    `/api/v1/tenant/sub-tenants/${subTenantId}/invoices/incoming`,
    postJson({ file: { filename: 'invoice.xml', content: content.toString('base64') } }, { 'X-Tenant-Key': key }),
  );
  const body = await readJson(res);
  if (res.status !== 201)
    throw new Error(`incoming invoice registration failed: ${res.status} ${JSON.stringify(body)}`);
  return body.data.id;
}

/** New credentials for the same user and tenant, after a route ended the ones in use (logout, key regeneration). */
export async function renewCredentials(app: TestApp, world: FuzzWorld): Promise<void> {
  const db = app.ownerDb;
  const { token } = await issueAccessToken(db, {
    tenantId: world.user.tenantId,
    userId: world.user.userId,
    kind: 'bearer',
    now: new Date(),
  });
  world.user.token = token;
  world.tenant.keys.sk_test = (await issueTenantKey(db, world.tenant.tenantId, 'secret', 'sandbox')).key;
  world.tenant.keys.sk_live = (await issueTenantKey(db, world.tenant.tenantId, 'secret', 'production')).key;
}

/**
 * Routes whose success changes the world for the routes after them, and how to undo it: an
 * active kill switch would answer every later invoice creation with its specified 503.
 */
export const RESTORES: Record<string, (app: TestApp, world: FuzzWorld) => Promise<void>> = {
  'POST /api/v1/tenant/fiscal/kill-switch/activate': async (app, world) => {
    for (const key of [world.tenant.keys.sk_test, world.tenant.keys.sk_live]) {
      const res = await app.request(
        '/api/v1/tenant/fiscal/kill-switch/deactivate',
        postJson({ reason: 'fuzz' }, { 'X-Tenant-Key': key }),
      );
      await res.arrayBuffer();
    }
  },
};
