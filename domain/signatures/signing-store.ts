import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import { enterTenant } from '../shared/tenant-context.js';
import type { SignatureRequestRow, SignerRow } from './signature-row.js';
import { signingTokenHash } from './signing-token.js';

/** A signer as the signing page sees it: its row with its code and signature. */
export interface SigningSigner extends SignerRow {
  otp_hash: string | null;
  otp_expires_at: Date | null;
  otp_attempts: number;
  otp_verified_at: Date | null;
  signature_typed: string | null;
  signature_image: string | null;
  refusal_reason: string | null;
  refused_at: Date | null;
  /** Openapi requests: the provider's signer id and state. */
  provider_signer_id: string | null;
  provider_state: string | null;
}

export interface SigningSession {
  request: SignatureRequestRow;
  signer: SigningSigner;
  signers: SigningSigner[];
}

/**
 * The signer behind a signing-page token, its request and the other signers; the tenant is entered
 * for the rest of the transaction. 404 for an unknown token. `forUpdate` locks the request's row:
 * two signers answering at once take turns, so the last one completes the request exactly once.
 */
export async function openSigningSession(
  tx: Knex,
  token: string,
  options: { forUpdate?: boolean } = {},
): Promise<SigningSession> {
  const { rows } = await tx.raw<{ rows: { tenant_id: string; signer_id: string; signature_request_id: string }[] }>(
    'select * from signing_find_signer(?)',
    [signingTokenHash(token)],
  );
  const found = rows[0];
  if (!found) throw new AppError('NOT_FOUND', 'This signing link is not valid.');
  await enterTenant(tx, found.tenant_id);
  const query = tx('signature_requests').where({ id: found.signature_request_id });
  if (options.forUpdate) query.forUpdate();
  const request = await query.first<SignatureRequestRow>('*');
  const signers = await tx('signature_signers')
    .where({ signature_request_id: found.signature_request_id })
    .orderBy('ordinal')
    .select<SigningSigner[]>('*');
  const signer = signers.find((s) => s.id === found.signer_id);
  if (!request || !signer) throw new AppError('NOT_FOUND', 'This signing link is not valid.');
  return { request, signer, signers };
}

/** A request of the tenant, locked, with its signers as the signing page sees them (the completion job). */
export async function openSigningRequest(
  tx: Knex,
  tenantId: string,
  id: string,
): Promise<{ request: SignatureRequestRow; signers: SigningSigner[] }> {
  const request = await tx('signature_requests')
    .where({ id, tenant_id: tenantId })
    .forUpdate()
    .first<SignatureRequestRow | undefined>('*');
  if (!request) throw new AppError('NOT_FOUND', 'No such signature request.');
  const signers = await tx('signature_signers')
    .where({ signature_request_id: id })
    .orderBy('ordinal')
    .select<SigningSigner[]>('*');
  return { request, signers };
}

export async function updateSigner(
  tx: Knex,
  id: string,
  changes: Partial<Omit<SigningSigner, 'id'>>,
  now: Date,
): Promise<void> {
  await tx('signature_signers')
    .where({ id })
    .update({ ...changes, updated_at: now });
}

export interface SigningEvent {
  action: string;
  signerId: string | null;
  detail?: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

export async function recordSigningEvent(tx: Knex, r: SignatureRequestRow, e: SigningEvent, at: Date): Promise<void> {
  await tx('signature_events').insert({
    tenant_id: r.tenant_id,
    signature_request_id: r.id,
    signer_id: e.signerId,
    action: e.action,
    detail: e.detail ?? null,
    ip: e.ip ?? null,
    user_agent: e.userAgent ?? null,
    at,
  });
}

export interface SigningEventRow {
  signer_id: string | null;
  action: string;
  detail: string | null;
  ip: string | null;
  user_agent: string | null;
  at: Date;
}

export const signingEventsOf = (tx: Knex, requestId: string): Promise<SigningEventRow[]> =>
  tx('signature_events')
    .where({ signature_request_id: requestId })
    .orderBy('id')
    .select<SigningEventRow[]>('signer_id', 'action', 'detail', 'ip', 'user_agent', 'at');

/** Moves a locked pending request to `completed` or `refused`. */
export async function finishSignatureRequest(
  tx: Knex,
  id: string,
  change: { status: 'completed' } | { status: 'refused'; reason: string },
  now: Date,
): Promise<SignatureRequestRow> {
  const [row] = await tx('signature_requests')
    .where({ id, status: 'pending' })
    .update(
      change.status === 'completed'
        ? { status: 'completed', completed_at: now, updated_at: now }
        : { status: 'refused', refusal_reason: change.reason, updated_at: now },
    )
    .returning<SignatureRequestRow[]>('*');
  return row;
}

export async function storeSignatureDocument(
  tx: Knex,
  r: SignatureRequestRow,
  doc: { kind: 'signed' | 'proof'; filename: string; content: Buffer; sha256: string },
  now: Date,
): Promise<void> {
  await tx('signature_documents').insert({
    tenant_id: r.tenant_id,
    signature_request_id: r.id,
    kind: doc.kind,
    filename: doc.filename,
    byte_size: doc.content.length,
    sha256: doc.sha256,
    content: doc.content,
    created_at: now,
  });
}
