import type { FiscalAttestationInput } from '../../../schemas/fiscal-attestations.js';
import { defineCommand } from '../../shared/operation.js';
import { type AttestationView, assertAttestableYear, buildAttestation } from '../attestation.js';
import { oneChain, reportScope } from '../report-scope.js';

/** A command although it answers a GET: without a recent integrity check it runs one, which is recorded. */
export const getFiscalAttestation = defineCommand<FiscalAttestationInput, AttestationView>({
  name: 'get_fiscal_attestation',
  summary:
    "The yearly attestation individuelle of a fiscal chain (the tenant's own, or a sub-tenant's): the publisher's technical self-declaration following the administration's model (BOI-TVA-DECLA-30-10-30), not a certificate, with the year's entries, closings, yearly closing and its RFC 3161 anchor, and the integrity verdict. A future year is 422.",
  input: 'FiscalAttestationInput',
  output: 'FiscalAttestation',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    assertAttestableYear(input.year, ctx.clock.now());
    const scope = await reportScope(ctx, input);
    return (await buildAttestation(ctx, oneChain(scope), input.year)).view;
  },
});
