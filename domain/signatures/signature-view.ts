import type { Config } from '../shared/config.js';
import { providerUrlOf } from './provider/provider-url.js';
import type { SignatureRequestRow, SignerRow, StoredSignature } from './signature-row.js';
import { signingUrlOf } from './signing-token.js';

/** The Signature of the API (schemas/signatures.ts `Signature`). */
export interface SignatureView {
  id: string;
  external_id: string | null;
  title: string;
  description: string | null;
  document_name: string;
  document_size: number;
  status: StoredSignature['request']['status'];
  environment: StoredSignature['request']['environment'];
  sub_tenant_id: string | null;
  amount_charged: number;
  signers: {
    id: string;
    first_name: string;
    last_name: string;
    full_name: string;
    email: string | null;
    phone: string | null;
    auth_method: StoredSignature['signers'][number]['auth_method'];
    status: StoredSignature['signers'][number]['status'];
    signing_url: string | null;
    signed_at: string | null;
  }[];
  refusal_reason: string | null;
  failure_reason: string | null;
  failed_at: string | null;
  expires_at: string;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

export const fullNameOf = (s: { first_name: string; last_name: string }) => `${s.first_name} ${s.last_name}`;

export function toSignatureView(config: Config, { request: r, signers }: StoredSignature): SignatureView {
  return {
    id: r.id,
    external_id: r.external_id,
    title: r.title,
    description: r.description,
    document_name: r.document_name,
    document_size: r.document_size,
    status: r.status,
    environment: r.environment,
    sub_tenant_id: r.sub_tenant_id,
    amount_charged: Number(r.amount_charged),
    signers: signers.map((s) => ({
      id: s.id,
      first_name: s.first_name,
      last_name: s.last_name,
      full_name: fullNameOf(s),
      email: s.email,
      phone: s.phone,
      auth_method: s.auth_method,
      status: s.status,
      signing_url: signingLinkOf(config, r, s),
      signed_at: s.signed_at?.toISOString() ?? null,
    })),
    refusal_reason: r.refusal_reason,
    failure_reason: r.failure_reason,
    failed_at: r.failed_at?.toISOString() ?? null,
    expires_at: r.expires_at.toISOString(),
    completed_at: r.completed_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/**
 * A signer's signing link: the service's signing page, or for Openapi requests the provider's link,
 * null until the request is handed over (a few seconds after creation). A failed request has none:
 * nobody can sign it.
 */
export const signingLinkOf = (
  config: Config,
  r: Pick<SignatureRequestRow, 'provider' | 'status'>,
  s: Pick<SignerRow, 'id' | 'provider_url_sealed'>,
): string | null =>
  r.status === 'failed' ? null : r.provider === 'openapi' ? providerUrlOf(config, s) : signingUrlOf(config, s.id);
