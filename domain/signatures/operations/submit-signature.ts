import type { SignatureProviderOutcome } from '../../../schemas/signature-provider-jobs.js';
import type { SignatureIdInput } from '../../../schemas/signatures.js';
import { AppError } from '../../shared/app-error.js';
import { execute } from '../../shared/execute.js';
import { defineCommand } from '../../shared/operation.js';
import { stateOf } from '../provider/provider-steps.js';
import type { ProviderSignature, SignatureProvider } from '../provider/signature-provider.js';
import { claimSignatureHandover } from './claim-signature-handover.js';
import { recordSignatureHandover } from './record-signature-handover.js';

/** How far before the lost attempt the provider's list is searched (clocks differ a little). */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

export const submitSignature = defineCommand<SignatureIdInput, SignatureProviderOutcome>({
  name: 'submit_signature',
  summary:
    'Hand a production request over to Openapi EU-SES (the submit-signature job): the attempt is noted, the provider called outside any transaction, its answer recorded. A retry after a lost answer looks the request up at the provider first. A refusal, or a provider unreachable for SIGNATURE_SUBMIT_MAX_ATTEMPTS attempts, fails the request and refunds it.',
  input: 'SignatureIdInput',
  output: 'SignatureProviderOutcome',
  callers: ['system'],
  transactional: false,
  async run(input, ctx) {
    const claim = await execute(claimSignatureHandover, input, ctx.caller, ctx.deps);
    if (!claim.ready || !claim.request) {
      return { signature_id: input.id, status: claim.status, outcome: 'nothing to submit' };
    }
    const request = claim.request;
    const provider = ctx.deps.signatureProvider;
    let created: ProviderSignature | null = null;
    try {
      if (claim.attempted_at) created = await findLost(provider, new Date(claim.attempted_at), request);
      created ??= await provider.create({
        document: Buffer.from(request.document, 'base64'),
        signers: request.signers,
        callbackUrl: request.callback_url,
        signatureMode: request.signature_mode,
        completeUrl: request.complete_url,
        cancelUrl: request.cancel_url,
        iframeAncestors: request.iframe_ancestors,
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === 'PROVIDER_REFUSED') {
        const refusal = err.message.slice(0, 600);
        return execute(recordSignatureHandover, { id: input.id, refusal }, ctx.caller, ctx.deps);
      }
      if (err.code !== 'PROVIDER_UNAVAILABLE') throw err;
      // counted on the row: the last attempt fails the request (and refunds it) instead of retrying
      const unavailable = err.message.slice(0, 600);
      const outcome = await execute(recordSignatureHandover, { id: input.id, unavailable }, ctx.caller, ctx.deps);
      if (outcome.status === 'pending') throw err;
      return outcome;
    }
    return execute(recordSignatureHandover, { id: input.id, provider: stateOf(created) }, ctx.caller, ctx.deps);
  },
});

/**
 * An earlier attempt's answer was lost (a timeout, a crash): the provider may hold the request. It
 * is the one created since that attempt whose signers have the same e-mails and mobiles, in order.
 */
async function findLost(
  provider: SignatureProvider,
  since: Date,
  request: { signers: { email: string | null; mobile: string | null }[] },
): Promise<ProviderSignature | null> {
  const key = (signers: { email: string | null; mobile: string | null }[]) =>
    signers.map((s) => `${s.email?.toLowerCase() ?? ''}|${s.mobile ?? ''}`).join(',');
  const wanted = key(request.signers);
  for (const candidate of await provider.listSince(new Date(since.getTime() - CLOCK_SKEW_MS))) {
    const detail = await provider.detail(candidate.id);
    if (key(detail.signers) === wanted) return detail;
  }
  return null;
}
