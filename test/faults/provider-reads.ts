import { minimalPdf } from '../helpers/minimal-pdf.js';
import type { Harness } from './harness.js';

/** What the provider scenarios read back: the suite's view of the rows a fault could leave wrong. */

export interface TransmissionRow {
  id: string;
  status: string;
  status_message: string | null;
  pdp_id: string | null;
  transmission_attempts: number;
  /** The stored lifecycle codes, in the provider's order. */
  lifecycle: string[];
}

/** Invoices with their transmission state and their stored lifecycle codes. */
export async function transmissionRows(h: Harness, ids: string[]): Promise<TransmissionRow[]> {
  const { rows } = await h.db.raw<{ rows: TransmissionRow[] }>(
    `select i.id, i.status, i.status_message, i.pdp_id, i.transmission_attempts,
            coalesce((select array_agg(e.code order by e.provider_event_id) from invoice_lifecycle_events e
                       where e.invoice_id = i.id), '{}') as lifecycle
       from invoices i where i.id = any(?)`,
    [ids],
  );
  return rows;
}

/** Seconds between each call and the next one of the same key (a fake's arrival times). */
export function gapsOf(times: Map<string, number[]>): number[] {
  const gaps: number[] = [];
  for (const list of times.values()) {
    for (let i = 1; i < list.length; i++) gaps.push((list[i] - list[i - 1]) / 1000);
  }
  return gaps;
}

export interface TopUpRow {
  id: string;
  status: string;
  checkout_session_id: string | null;
  failure_reason: string | null;
}

export const topUpRows = (h: Harness, tenantId: string): Promise<TopUpRow[]> =>
  h
    .db('top_ups')
    .where({ tenant_id: tenantId })
    .orderBy('created_at')
    .select<TopUpRow[]>('id', 'status', 'checkout_session_id', 'failure_reason');

export const balanceOf = async (h: Harness, tenantId: string): Promise<string> =>
  String((await h.db('balances').where({ tenant_id: tenantId }).first('amount'))?.amount);

export interface SignatureRow {
  id: string;
  status: string;
  provider_id: string | null;
  provider_error: string | null;
  failure_reason: string | null;
  provider_attempts: number;
  /** `signature_created` movements referencing the request. */
  charges: number;
  /** `signature_refunded` movements referencing the request (a failed one: docs/decisions/0092). */
  refunds: number;
  /** Stored files (original, then signed and proof once completed). */
  files: number;
}

/** The signature requests with their handover state, their charges and refunds, and their files. */
export async function signatureRows(h: Harness, ids: string[]): Promise<SignatureRow[]> {
  const { rows } = await h.db.raw<{ rows: SignatureRow[] }>(
    `select r.id, r.status, r.provider_id, r.provider_error, r.failure_reason, r.provider_attempts,
            (select count(*)::int from balance_transactions b
              where b.reference_id = r.id and b.type = 'signature_created') as charges,
            (select count(*)::int from balance_transactions b
              where b.reference_id = r.id and b.type = 'signature_refunded') as refunds,
            (select count(*)::int from signature_documents d where d.signature_request_id = r.id) as files
       from signature_requests r where r.id = any(?)`,
    [ids],
  );
  return rows;
}

/** A production signature request of two signers; the first one's e-mail is the fake's key. */
export const signatureBody = (email: string) => ({
  title: 'Contrat',
  document: minimalPdf([{ width: 595, height: 842 }]).toString('base64'),
  document_name: 'contrat.pdf',
  signers: [
    { first_name: 'Ada', last_name: 'Lovelace', email, auth_method: 'email' },
    { first_name: 'Alan', last_name: 'Turing', phone: '+33612345678', auth_method: 'sms' },
  ],
});

/** A call as a signed-in admin (a bearer token); the status it answered. */
export async function adminCall(
  h: Harness,
  token: string,
  method: string,
  path: string,
  body: unknown,
): Promise<number> {
  const res = await fetch(`${h.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  await res.arrayBuffer();
  return res.status;
}

/** The refunds of signature requests: how many failed, how many were refunded, how many twice. */
export const refundsOf = (rows: readonly { status: string; refunds: number }[]) => ({
  failed: rows.filter((r) => r.status === 'failed').length,
  refunded: rows.filter((r) => r.refunds > 0).length,
  doubled: rows.filter((r) => r.refunds > 1).length,
});
