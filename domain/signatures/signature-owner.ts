import { AppError } from '../shared/app-error.js';
import type { Caller } from '../shared/caller.js';
import type { SignatureOwner, SignatureReader } from './signature-store.js';

/** Who owns a request a caller creates: its tenant, its key's environment, the key's sub-tenant. */
export function signatureOwnerOf(caller: Caller): SignatureOwner {
  if (!caller.tenantId || !caller.environment) {
    throw new AppError(
      'FORBIDDEN',
      'Signature requests are created with an API key (sk_test_ or sk_live_), which decides the environment.',
    );
  }
  return { tenantId: caller.tenantId, environment: caller.environment, subTenantId: caller.subTenantId ?? null };
}

/** Which requests a caller sees: its tenant, its key's environment (a dashboard token both), its sub-tenant. */
export function signatureReaderOf(caller: Caller): SignatureReader {
  if (!caller.tenantId) {
    throw new AppError('FORBIDDEN', 'Signature requests are read with an API key or a dashboard token.');
  }
  return { tenantId: caller.tenantId, environment: caller.environment, subTenantId: caller.subTenantId ?? null };
}
