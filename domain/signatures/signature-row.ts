import type { Environment } from '../shared/caller.js';

export type SignatureStatus = 'pending' | 'completed' | 'refused' | 'expired' | 'cancelled' | 'failed';
export type SignerStatus = 'pending' | 'signed' | 'refused';
export type AuthMethod = 'email' | 'sms' | 'both';
export type SignatureFileKind = 'original' | 'signed' | 'proof';

/** A position as stored: the page size is always known (given, read from the PDF, or A4). */
export interface StoredPosition {
  page: number;
  x: number;
  y: number;
  unit: 'percent' | 'pixel';
  width: number | null;
  height: number | null;
  page_width_px: number;
  page_height_px: number;
}

export interface SignatureRequestRow {
  id: string;
  tenant_id: string;
  sub_tenant_id: string | null;
  environment: Environment;
  external_id: string | null;
  title: string;
  description: string | null;
  document_name: string;
  document_size: number;
  document_sha256: string;
  page_count: number;
  status: SignatureStatus;
  amount_charged: string;
  ui_config: Record<string, unknown> | null;
  signature_options: Record<string, unknown> | null;
  positions: StoredPosition[];
  redirect_complete_url: string | null;
  redirect_cancel_url: string | null;
  archive_enabled: boolean | null;
  expires_at: Date;
  refusal_reason: string | null;
  /** Who carries the request: the service's signing page (`simulator`, or null for older rows) or Openapi. */
  provider: 'simulator' | 'openapi' | null;
  provider_id: string | null;
  callback_token_hash: string | null;
  provider_attempted_at: Date | null;
  provider_submitted_at: Date | null;
  provider_state: string | null;
  provider_error: string | null;
  provider_synced_at: Date | null;
  /** Handovers that met an unreachable provider: the request fails at SIGNATURE_SUBMIT_MAX_ATTEMPTS. */
  provider_attempts: number;
  /** Why a `failed` request failed (the provider refused it, could not be reached, or reported an error). */
  failure_reason: string | null;
  failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  cancelled_at: Date | null;
  last_reminded_at: Date | null;
}

export interface SignerRow {
  id: string;
  tenant_id: string;
  signature_request_id: string;
  ordinal: number;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  auth_method: AuthMethod;
  message: string | null;
  status: SignerStatus;
  signed_at: Date | null;
  /** The provider's signing link of the signer (Openapi requests), sealed. */
  provider_url_sealed: string | null;
}

export interface StoredSignature {
  request: SignatureRequestRow;
  signers: SignerRow[];
}
