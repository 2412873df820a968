import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { parseAppKey } from '../../domain/shared/setting-parsers.js';
import { sealClientSecret } from '../../domain/transmission/superpdp-tokens.js';
import { seedUser } from '../helpers/identities.js';
import type { Creation, FaultTenant, Harness } from './harness.js';
import { request, until } from './harness.js';
import { adminCall, signatureBody } from './provider-reads.js';

/**
 * What the provider scenarios need besides the harness: a tenant's SuperPDP connection (as
 * `einvoice provider connect` stores it), documents ready before a submission, Stripe's signed
 * webhook events, and the Openapi account with signature requests to hand over.
 */

/** A tenant-wide production SuperPDP connection with an OAuth client of its own (client credentials). */
export async function connectSuperPdp(h: Harness, tenant: FaultTenant): Promise<string> {
  const key = parseAppKey(h.appKey);
  if (!key) throw new Error('the harness APP_KEY does not parse');
  const id = randomUUID();
  const now = new Date();
  await h.db('provider_connections').insert({
    id,
    tenant_id: tenant.tenantId,
    environment: 'production',
    provider: 'superpdp',
    client_id: `client_${tenant.tenantId.slice(0, 8)}`,
    client_secret_sealed: sealClientSecret(key, id, 'secret'),
    status: 'active',
    created_at: now,
    updated_at: now,
  });
  return id;
}

/** Waits until every acknowledged creation has its documents, so a submission uploads at once. */
export async function documentsReady(h: Harness, creations: Creation[]): Promise<void> {
  const ids = creations.map((c) => c.id).filter((id): id is string => Boolean(id));
  await until(
    'documents of the invoices to submit',
    async () => {
      const rows = await h.db('invoices').whereIn('id', ids).select('documents_status');
      return rows.length === ids.length && rows.every((r) => r.documents_status === 'ready');
    },
    60_000,
  );
}

/** Submits each invoice over HTTP; throws on anything but 200. */
export async function submit(h: Harness, creations: Creation[]): Promise<string[]> {
  const ids: string[] = [];
  for (const c of creations) {
    if (!c.id) continue;
    const res = await request(h, 'POST', `/api/v1/invoices/${c.id}/submit`, c.tenant.liveKey, {});
    if (res.status !== 200) throw new Error(`submit answered ${res.status}: ${JSON.stringify(res.body)}`);
    ids.push(c.id);
  }
  return ids;
}

/** A Stripe event as `/webhooks/stripe` receives it, signed with `secret` (Stripe's `t=…,v1=…`). */
export function stripeEvent(
  secret: string,
  eventId: string,
  type: string,
  session: Record<string, unknown>,
): { body: string; header: string } {
  const body = JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: '2025-09-30',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    data: { object: session },
  });
  return { body, header: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) };
}

/** POST /webhooks/stripe with a raw body; the status it answered (0: no answer). */
export async function sendStripeWebhook(h: Harness, event: { body: string; header: string }): Promise<number> {
  try {
    const res = await fetch(`${h.baseUrl}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.header },
      body: event.body,
      signal: AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** The operator's Openapi account, saved by an admin through the API; the status it answered. */
export async function configureOpenapiAccount(h: Harness): Promise<number> {
  const admin = await seedUser(h.db, { admin: true });
  return adminCall(h, admin.token, 'POST', '/api/v1/admin/openapi/config', {
    account_email: 'ops@example.com',
    api_key: 'api-key-fault-suite',
    test_mode: false,
  });
}

/** One production signature request per signer e-mail, through the API; their ids, in order. */
export async function createSignatureRequests(h: Harness, tenant: FaultTenant, emails: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const email of emails) {
    const res = await request(h, 'POST', '/api/v1/signatures', tenant.liveKey, signatureBody(email));
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    ids.push(String((res.body?.data as { id?: string } | undefined)?.id));
  }
  return ids;
}
