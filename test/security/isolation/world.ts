import { randomUUID } from 'node:crypto';
import { issueAccessToken } from '../../../domain/auth/access-token-store.js';
import { renderFormat } from '../../../domain/documents/render.js';
import { TENANT_KEY_SCOPES } from '../../../domain/tenants/api-key.js';
import { insertApiKey } from '../../../domain/tenants/api-key-store.js';
import { insertKybDocument } from '../../../domain/tenants/kyb-store.js';
import { buildDocument } from '../../fixtures/invoice-document-builder.js';
import { createCreditNote, itemsFor } from '../../helpers/credit-notes.js';
import { postJson, readJson } from '../../helpers/http.js';
import {
  seedPlatformTenant,
  seedSubTenant,
  seedUser,
  seedUserKey,
  seedVerifiedCompany,
} from '../../helpers/identities.js';
import {
  BUYER_SIRET,
  createInvoice,
  randomSiret,
  SELLER_SIRET,
  setDocumentsStatus,
  storeDocument,
} from '../../helpers/invoices.js';
import { minimalPdf } from '../../helpers/minimal-pdf.js';
import type { TestApp } from '../../helpers/test-app.js';

/**
 * World A: one tenant (a partner, KYB verified) with a sandbox sub-tenant holding one of each
 * resource, and one user with two companies, a key bound to the first, an invoice of that company
 * and a webhook endpoint. Every value a reader could recognise is unique to this world (`marker`).
 */
export interface WorldA {
  tenantId: string;
  userId: string;
  /** Resource ids, by what they are. */
  ids: {
    subTenant: string;
    subTenantExternal: string;
    tenantInvoice: string;
    userInvoice: string;
    creditNote: string;
    signature: string;
    incoming: string;
    quote: string;
    kybDocument: string;
    onboardingSession: string;
    tenantOnboardingSession: string;
    company: string;
    userKey: string;
    webhook: string;
  };
  /** A's resource ids and distinctive values: none may appear in another world's answer. */
  markers: string[];
  /** The tenant's and the user's own ids and e-mails: foreign to world B, but A's other keys may see them. */
  ownerMarkers: string[];
  /** A's own credentials, for the control that A's ids are real and served to their owner. */
  owner: { tenantKey: string; publishableKey: string; userKey: string; userToken: string };
  /** Valid bodies of the creations into A's sub-tenant, so that a refusal cannot be a 422 of an empty body. */
  bodies: { quote: Record<string, unknown>; incoming: Record<string, unknown>; creditNote: Record<string, unknown> };
}

/** The actors that act on A's ids; none of them owns A's resources. */
export const ACTORS = [
  'anonymous',
  // World B: another user (dashboard and keys) and another tenant (both environments, a sub-tenant, a publishable key).
  'b_user_token',
  'b_user_session',
  'b_user_key',
  'b_user_key_production',
  'b_tenant_sandbox',
  'b_tenant_production',
  'b_tenant_sub_tenant',
  'b_publishable_key',
  // A's neighbours: A's production key, A's key bound to another sub-tenant, A's user's key of another company.
  'a_tenant_production',
  'a_other_sub_tenant',
  'a_publishable_production',
  'a_user_key_other_company',
  'a_user_key_production',
  // A's own keys that no longer work.
  'a_revoked_key',
  'a_expired_key',
  // An administrator: reads across tenants on the admin routes only.
  'admin_token',
] as const;
export type Actor = (typeof ACTORS)[number];

/** Actors of A's own tenant or user: A's tenant and user ids are theirs to see. */
export const A_SIDE: ReadonlySet<Actor> = new Set([
  'a_tenant_production',
  'a_other_sub_tenant',
  'a_publishable_production',
  'a_user_key_other_company',
  'a_user_key_production',
  'a_revoked_key',
  'a_expired_key',
]);

/** The actors holding a secret key, who reach the MCP server. */
export const KEY_ACTORS = [
  'b_user_key',
  'b_user_key_production',
  'b_tenant_sandbox',
  'b_tenant_production',
  'b_tenant_sub_tenant',
  'a_tenant_production',
  'a_other_sub_tenant',
  'a_user_key_other_company',
  'a_user_key_production',
] as const satisfies readonly Actor[];

const CSRF = 'isolation-csrf-token';

async function created(res: Response, what: string) {
  const body = await readJson(res);
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** A supplier's UBL invoice, base64, as an incoming invoice is registered. */
function ublOf(number: string): string {
  const doc = buildDocument({ number, lines: [{ description: 'Papier A4', quantity: '10', unitPrice: '4.50' }] });
  const ubl = renderFormat(doc, 'ubl').find((f) => f.kind === 'ubl');
  if (!ubl) throw new Error('no UBL rendered');
  return ubl.content.toString('base64');
}

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** A quote of the sub-tenant to a buyer. */
const quoteBody = (buyerName: string) => ({
  issue_date: inDays(0),
  validity_date: inDays(30),
  seller_siret: SELLER_SIRET,
  seller_name: 'Vendeur SAS',
  seller_address: { line1: '1 rue de la Paix', postal_code: '75002', city: 'Paris', country: 'FR' },
  buyer_siret: BUYER_SIRET,
  buyer_name: buyerName,
  buyer_address: { line1: '10 avenue des Champs', postal_code: '69001', city: 'Lyon', country: 'FR' },
  lines: [{ description: 'Développement', quantity: 2, unit_price: 400, tax_rate: 20 }],
});

export async function seedWorldA(app: TestApp): Promise<WorldA> {
  const db = app.ownerDb;
  const tag = randomUUID().slice(0, 8);
  const tenant = await seedPlatformTenant(db, { kyb: 'verified', partner: true });
  const key = { 'X-API-Key': tenant.keys.sk_test };
  const subTenant = await seedSubTenant(db, tenant.tenantId, { name: `Isolation A ${tag} SAS` });
  const [{ external_id: subTenantExternal }] = await db('sub_tenants').where({ id: subTenant }).select('external_id');

  const invoice = await createInvoice(
    app.request,
    tenant.keys.sk_test,
    { invoice_number: `ISO-A-${tag}` },
    `/api/v1/tenant/sub-tenants/${subTenant}/invoices`,
  );
  for (const kind of ['pdf', 'facturx', 'cii'] as const) await storeDocument(db, invoice, tenant.tenantId, kind);
  await setDocumentsStatus(db, invoice.id, 'ready');
  const creditNote = await createCreditNote(app.request, tenant.keys.sk_test, invoice, {
    reason: `Isolation A credit ${tag}`,
  });

  const signature = await created(
    await app.request(
      '/api/v1/sandbox/signatures',
      postJson(
        {
          title: `Isolation A contract ${tag}`,
          document: minimalPdf().toString('base64'),
          document_name: `isolation-a-${tag}.pdf`,
          signers: [
            { first_name: 'Ada', last_name: 'Lovelace', email: `signer-${tag}@example.com`, auth_method: 'email' },
          ],
        },
        key,
      ),
    ),
    'signature',
  );

  const incoming = await created(
    await app.request(
      `/api/v1/tenant/sub-tenants/${subTenant}/invoices/incoming`,
      postJson({ file: { filename: 'incoming.xml', content: ublOf(`ISO-IN-${tag}`) } }, key),
    ),
    'incoming invoice',
  );

  const quote = await created(
    await app.request(
      `/api/v1/tenant/sub-tenants/${subTenant}/quotes`,
      postJson(quoteBody(`Isolation A buyer ${tag}`), key),
    ),
    'quote',
  );

  const kybDocument = await insertKybDocument(db, app.deps.config.appKey as Buffer, {
    id: randomUUID(),
    tenantId: tenant.tenantId,
    type: 'kbis',
    file: {
      filename: `kbis-${tag}.pdf`,
      contentType: 'application/pdf',
      content: minimalPdf(),
      sha256: 'a'.repeat(64),
    },
    now: new Date(),
  });
  const session = await created(
    await app.request(
      '/api/v1/onboarding/sessions',
      postJson({ mode: 'api', external_id: `iso-a-${tag}` }, { 'X-Publishable-Key': tenant.keys.pk_test }),
    ),
    'onboarding session',
  );
  const tenantSession = await created(
    await app.request(
      '/api/v1/tenant/onboarding/sessions',
      postJson(
        { mode: 'redirect', callback_url: `https://tenant-a.example/${tag}` },
        { 'X-Publishable-Key': tenant.keys.pk_test },
      ),
    ),
    'tenant onboarding session',
  );

  // A's user: a company with a key bound to it and an invoice, a second company, a webhook endpoint.
  const user = await seedUser(db);
  const company = await seedVerifiedCompany(db, user.tenantId);
  await db('companies')
    .where({ id: company })
    .update({ name: `Isolation A company ${tag}` });
  const userKey = await seedUserKey(db, user, { companyId: company });
  const userInvoice = await createInvoice(app.request, userKey, { invoice_number: `ISO-AU-${tag}` });
  const webhook = await created(
    await app.request(
      '/api/v1/webhooks',
      postJson(
        { url: `https://hooks.example.com/isolation-a-${tag}`, events: ['*'], environment: 'sandbox' },
        { Authorization: `Bearer ${user.token}` },
      ),
    ),
    'webhook',
  );
  const keyRow = await db('api_keys')
    .where({ key_prefix: userKey.slice(0, 12), user_id: user.userId })
    .first('id');

  const ids = {
    subTenant,
    subTenantExternal,
    tenantInvoice: invoice.id,
    userInvoice: userInvoice.id,
    creditNote: creditNote.id,
    signature: signature.id,
    incoming: incoming.id,
    quote: quote.id,
    kybDocument: kybDocument.id,
    onboardingSession: session.id,
    tenantOnboardingSession: tenantSession.id,
    company,
    userKey: keyRow.id,
    webhook: webhook.id,
  };
  return {
    tenantId: tenant.tenantId,
    userId: user.userId,
    ids,
    markers: [...Object.values(ids), tag, ...(quote.number ? [quote.number] : [])],
    ownerMarkers: [tenant.tenantId, tenant.email, user.userId, user.tenantId, user.email],
    bodies: {
      quote: quoteBody('Taken over SARL'),
      incoming: { file: { filename: 'incoming.xml', content: ublOf(`ISO-IN2-${tag}`) } },
      creditNote: { invoice_id: invoice.id, reason: 'Taken over', items: itemsFor(invoice, 0.1) },
    },
    owner: { tenantKey: tenant.keys.sk_test, publishableKey: tenant.keys.pk_test, userKey, userToken: user.token },
  };
}

/** The credentials of every actor; A's neighbours are made on A's tenant and user. */
export async function seedActors(app: TestApp, worldA: WorldA): Promise<Record<Actor, Record<string, string>>> {
  const db = app.ownerDb;
  const userB = await seedUser(db);
  const session = await issueAccessToken(db, {
    tenantId: userB.tenantId,
    userId: userB.userId,
    kind: 'session',
    now: new Date(),
  });
  await seedVerifiedCompany(db, userB.tenantId);
  const tenantB = await seedPlatformTenant(db, { kyb: 'verified', partner: true });
  const subB = await seedSubTenant(db, tenantB.tenantId);
  const admin = await seedUser(db, { admin: true });
  const boundKey = async (tenantId: string, subTenantId: string) =>
    (
      await insertApiKey(db, tenantId, {
        name: 'isolation',
        kind: 'secret',
        environment: 'sandbox',
        scopes: TENANT_KEY_SCOPES,
        subTenantId,
      })
    ).key;
  const otherSubOfA = await seedSubTenant(db, worldA.tenantId);
  const [aProduction, aPublishableProduction] = await Promise.all(
    (['secret', 'publishable'] as const).map(
      async (kind) =>
        (
          await insertApiKey(db, worldA.tenantId, {
            name: 'isolation',
            kind,
            environment: 'production',
            scopes: TENANT_KEY_SCOPES,
          })
        ).key,
    ),
  );
  const userA = {
    userId: worldA.userId,
    tenantId: (await db('users').where({ id: worldA.userId }).first('tenant_id')).tenant_id,
  };
  const userASeeded = { ...userA, email: '', password: '', token: '' };
  const otherCompanyOfA = await seedVerifiedCompany(db, userA.tenantId, randomSiret());
  return {
    anonymous: {},
    b_user_token: { Authorization: `Bearer ${userB.token}` },
    b_user_session: { Cookie: `einvoice_session=${session.token}; XSRF-TOKEN=${CSRF}`, 'X-XSRF-TOKEN': CSRF },
    b_user_key: { 'X-API-Key': await seedUserKey(db, userB) },
    b_user_key_production: { 'X-API-Key': await seedUserKey(db, userB, { environment: 'production' }) },
    b_tenant_sandbox: { 'X-Tenant-Key': tenantB.keys.sk_test },
    b_tenant_production: { 'X-Tenant-Key': tenantB.keys.sk_live },
    b_tenant_sub_tenant: { 'X-Tenant-Key': await boundKey(tenantB.tenantId, subB) },
    b_publishable_key: { 'X-Publishable-Key': tenantB.keys.pk_test },
    a_tenant_production: { 'X-Tenant-Key': aProduction },
    a_other_sub_tenant: { 'X-Tenant-Key': await boundKey(worldA.tenantId, otherSubOfA) },
    a_publishable_production: { 'X-Publishable-Key': aPublishableProduction },
    a_user_key_other_company: { 'X-API-Key': await seedUserKey(db, userASeeded, { companyId: otherCompanyOfA }) },
    a_user_key_production: {
      'X-API-Key': await seedUserKey(db, userASeeded, { environment: 'production', companyId: worldA.ids.company }),
    },
    a_revoked_key: { 'X-API-Key': await seedUserKey(db, userASeeded, { revoked: true }) },
    a_expired_key: { 'X-API-Key': await seedUserKey(db, userASeeded, { expiresAt: new Date(Date.now() - 60_000) }) },
    admin_token: { Authorization: `Bearer ${admin.token}` },
  };
}
