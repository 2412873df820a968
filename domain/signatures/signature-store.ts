import type { Knex } from 'knex';
import type { SignatureListInput } from '../../schemas/signatures.js';
import { AppError } from '../shared/app-error.js';
import type { Environment } from '../shared/caller.js';
import { type Page, paginate } from '../shared/pagination.js';
import type {
  SignatureFileKind,
  SignatureRequestRow,
  SignatureStatus,
  SignerRow,
  StoredPosition,
  StoredSignature,
} from './signature-row.js';

/** Whose requests a caller creates: its tenant, its key's environment, the sub-tenant bound to its key. */
export interface SignatureOwner {
  tenantId: string;
  environment: Environment;
  subTenantId: string | null;
}

/** Which requests a caller reads: a key its own environment, a dashboard token both. */
export interface SignatureReader {
  tenantId: string;
  environment: Environment | null;
  subTenantId: string | null;
}

export interface NewSignatureRequest {
  id: string;
  owner: SignatureOwner;
  externalId: string | null;
  title: string;
  description: string | null;
  documentName: string;
  documentSize: number;
  documentSha256: string;
  pageCount: number;
  amountCharged: string;
  uiConfig: Record<string, unknown> | null;
  signatureOptions: Record<string, unknown> | null;
  positions: StoredPosition[];
  redirectCompleteUrl: string | null;
  redirectCancelUrl: string | null;
  archiveEnabled: boolean | null;
  provider: 'simulator' | 'openapi';
  /** Openapi requests: the SHA-256 of the opaque token in their callback URL. */
  callbackTokenHash: string | null;
  expiresAt: Date;
  createdBy: Record<string, string | null>;
  now: Date;
}

export interface NewSigner {
  id: string;
  ordinal: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  authMethod: string;
  message: string | null;
  signingTokenHash: string;
}

const SIGNER_COLUMNS = [
  'id',
  'tenant_id',
  'signature_request_id',
  'ordinal',
  'first_name',
  'last_name',
  'email',
  'phone',
  'auth_method',
  'message',
  'status',
  'signed_at',
  'provider_url_sealed',
];

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

/** Inserts the request, its signers and its original document. */
export async function insertSignatureRequest(
  tx: Knex,
  n: NewSignatureRequest,
  signers: readonly NewSigner[],
  original: { filename: string; content: Buffer; sha256: string },
): Promise<StoredSignature> {
  const [request] = await tx('signature_requests')
    .insert({
      id: n.id,
      tenant_id: n.owner.tenantId,
      sub_tenant_id: n.owner.subTenantId,
      environment: n.owner.environment,
      external_id: n.externalId,
      title: n.title,
      description: n.description,
      document_name: n.documentName,
      document_size: n.documentSize,
      document_sha256: n.documentSha256,
      page_count: n.pageCount,
      amount_charged: n.amountCharged,
      ui_config: json(n.uiConfig),
      signature_options: json(n.signatureOptions),
      positions: JSON.stringify(n.positions),
      redirect_complete_url: n.redirectCompleteUrl,
      redirect_cancel_url: n.redirectCancelUrl,
      archive_enabled: n.archiveEnabled,
      provider: n.provider,
      callback_token_hash: n.callbackTokenHash,
      expires_at: n.expiresAt,
      created_by: JSON.stringify(n.createdBy),
      created_at: n.now,
      updated_at: n.now,
    })
    .returning<SignatureRequestRow[]>('*');
  const signerRows = await tx('signature_signers')
    .insert(
      signers.map((s) => ({
        id: s.id,
        tenant_id: n.owner.tenantId,
        signature_request_id: n.id,
        ordinal: s.ordinal,
        first_name: s.firstName,
        last_name: s.lastName,
        email: s.email,
        phone: s.phone,
        auth_method: s.authMethod,
        message: s.message,
        signing_token_hash: s.signingTokenHash,
        created_at: n.now,
        updated_at: n.now,
      })),
    )
    .returning<SignerRow[]>(SIGNER_COLUMNS);
  await tx('signature_documents').insert({
    tenant_id: n.owner.tenantId,
    signature_request_id: n.id,
    kind: 'original',
    filename: original.filename,
    byte_size: original.content.length,
    sha256: original.sha256,
    content: original.content,
    created_at: n.now,
  });
  return { request, signers: signerRows.sort((a, b) => a.ordinal - b.ordinal) };
}

const readable = (tx: Knex, reader: SignatureReader) => {
  const query = tx('signature_requests').where({ tenant_id: reader.tenantId });
  if (reader.environment) query.andWhere({ environment: reader.environment });
  if (reader.subTenantId) query.andWhere({ sub_tenant_id: reader.subTenantId });
  return query;
};

/** The signers of some requests, by request, in their order. */
export async function signersOf(tx: Knex, requestIds: readonly string[]): Promise<Map<string, SignerRow[]>> {
  const bySignature = new Map<string, SignerRow[]>(requestIds.map((id) => [id, []]));
  if (requestIds.length === 0) return bySignature;
  const rows = await tx('signature_signers')
    .whereIn('signature_request_id', requestIds)
    .orderBy('ordinal')
    .select<SignerRow[]>(SIGNER_COLUMNS);
  for (const row of rows) bySignature.get(row.signature_request_id)?.push(row);
  return bySignature;
}

/**
 * A request the reader may see, with its signers; 404 for an unknown id or one of another tenant,
 * environment or sub-tenant. `forUpdate` locks its row: state changes of one request take turns.
 */
export async function findReadableSignature(
  tx: Knex,
  reader: SignatureReader,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<StoredSignature> {
  const query = readable(tx, reader).andWhere({ id });
  if (options.forUpdate) query.forUpdate();
  const request = await query.first<SignatureRequestRow | undefined>('*');
  if (!request) throw new AppError('NOT_FOUND', 'No such signature request.');
  const signers = (await signersOf(tx, [id])).get(id) ?? [];
  return { request, signers };
}

/** A page of the reader's requests, newest first, with their signers. */
export async function listSignaturePage(
  tx: Knex,
  reader: SignatureReader,
  input: SignatureListInput,
): Promise<Page<StoredSignature>> {
  const query = readable(tx, reader);
  if (input.status) query.andWhere({ status: input.status });
  if (input.environment) query.andWhere({ environment: input.environment });
  query.orderBy([
    { column: 'created_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
  const page = await paginate<SignatureRequestRow, SignatureRequestRow>(
    query.select('*'),
    { page: input.page ?? 1, per_page: input.per_page ?? 25 },
    (row) => row,
  );
  const signers = await signersOf(
    tx,
    page.data.map((r) => r.id),
  );
  return { ...page, data: page.data.map((request) => ({ request, signers: signers.get(request.id) ?? [] })) };
}

/** Moves a locked pending request to a final state. */
export async function closeSignatureRequest(
  tx: Knex,
  id: string,
  status: Extract<SignatureStatus, 'cancelled' | 'expired'>,
  now: Date,
): Promise<SignatureRequestRow> {
  const [row] = await tx('signature_requests')
    .where({ id, status: 'pending' })
    .update({ status, updated_at: now, ...(status === 'cancelled' ? { cancelled_at: now } : {}) })
    .returning<SignatureRequestRow[]>('*');
  return row;
}

export async function markReminded(tx: Knex, id: string, now: Date): Promise<void> {
  await tx('signature_requests').where({ id }).update({ last_reminded_at: now, updated_at: now });
}

/**
 * Pending requests past their deadline, locked (skipping any another transaction holds), oldest
 * deadline first, at most `limit`.
 */
export async function lockDueSignatures(tx: Knex, now: Date, limit: number): Promise<SignatureRequestRow[]> {
  return tx('signature_requests')
    .where({ status: 'pending' })
    .andWhere('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select<SignatureRequestRow[]>('*');
}

export async function findSignatureDocument(
  tx: Knex,
  requestId: string,
  kind: SignatureFileKind,
): Promise<{ filename: string; content: Buffer } | undefined> {
  return tx('signature_documents')
    .where({ signature_request_id: requestId, kind })
    .first<{ filename: string; content: Buffer } | undefined>('filename', 'content');
}
