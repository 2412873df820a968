import type { InvoiceAuditTrail } from '../../../schemas/invoice-reading.js';
import type { SignatureIdInput } from '../../../schemas/signatures.js';
import { auditTrailView } from '../../audit/index.js';
import { defineQuery } from '../../shared/operation.js';
import { signatureReaderOf } from '../signature-owner.js';
import { findReadableSignature } from '../signature-store.js';

/** A signature request's audit trail, read as the invoice's is (the MCP `get_audit_trail` tool). */
export const getSignatureAuditTrail = defineQuery<SignatureIdInput, InvoiceAuditTrail>({
  name: 'get_signature_audit_trail',
  summary:
    "A signature request's audit trail, oldest first (created, signer events, completed, ...), and `integrity_valid`: whether its hash chain, recomputed now, still matches every stored entry.",
  input: 'SignatureIdInput',
  output: 'InvoiceAuditTrail',
  callers: ['user', 'tenant'],
  scope: 'signatures',
  async run(input, ctx) {
    const { request } = await findReadableSignature(ctx.tx, signatureReaderOf(ctx.caller), input.id);
    return auditTrailView(ctx.tx, 'signature', request.id);
  },
});
