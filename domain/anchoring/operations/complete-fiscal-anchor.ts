import type { CompleteFiscalAnchorInput } from '../../../schemas/fiscal-anchors.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { type AnchorRow, type AttemptOutcome, completeAnchor, findAnchor, recordAttempt } from '../anchor-store.js';
import { type AnchorView, anchorsWithAttempts, toAnchorView } from '../anchor-view.js';
import { PKI_STATUS, parseTimeStampResponse, type TimeStampResponse } from '../time-stamp-response.js';
import { verifyTimeStampToken } from '../verify-time-stamp-token.js';

/**
 * Records a TSA reply on a pending anchor, after verifying the token in process against the
 * anchor's hash, the request's nonce and the authority's CA (RFC 3161 §2.4.2). A verified token
 * anchors it; a refusal, or a token that does not verify, fails it (kept as evidence, never
 * retried: a TSA answering wrongly is an alarm, not an outage). A reply that is not a
 * TimeStampResp at all, or `waiting`, leaves it pending for the job to retry.
 */
export const completeFiscalAnchor = defineCommand<CompleteFiscalAnchorInput, AnchorView>({
  name: 'complete_fiscal_anchor',
  summary: 'Verify a time-stamp authority’s reply and record it on a pending anchor (workers).',
  input: 'CompleteFiscalAnchorInput',
  output: 'FiscalAnchor',
  callers: ['system'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const anchor = await findAnchor(ctx.tx, tenantId, input.anchor_id, { forUpdate: true });
    if (!anchor) throw new AppError('NOT_FOUND', `No anchor ${input.anchor_id}.`, { retryable: false });
    if (anchor.status === 'pending') await complete(anchor, input, ctx);
    const row = await anchorsWithAttempts(ctx.tx).where('a.id', anchor.id).first();
    return toAnchorView(row);
  },
});

async function complete(
  anchor: AnchorRow,
  input: CompleteFiscalAnchorInput,
  ctx: Parameters<typeof completeFiscalAnchor.run>[1],
) {
  const now = ctx.clock.now();
  const tsaUrl = ctx.deps.tsa.url;
  const attempt = (outcome: AttemptOutcome, detail: string | null) =>
    recordAttempt(ctx.tx, { tenantId: anchor.tenant_id, anchorId: anchor.id, outcome, detail, tsaUrl, at: now });
  const fail = async (outcome: AttemptOutcome, reason: string, extra: Partial<AnchorRow> = {}) => {
    await attempt(outcome, reason);
    await completeAnchor(ctx.tx, anchor.id, {
      ...extra,
      status: 'failed',
      failure_reason: reason,
      tsa_url: tsaUrl,
      completed_at: now,
    });
  };
  let response: TimeStampResponse;
  try {
    response = parseTimeStampResponse(Buffer.from(input.reply, 'base64'));
  } catch (err) {
    return attempt('unavailable', `the reply is not a TimeStampResp: ${(err as Error).message}`);
  }
  if (response.status === PKI_STATUS.waiting) return attempt('waiting', 'the TSA asked to come back later');
  if (response.status !== PKI_STATUS.granted && response.status !== PKI_STATUS.grantedWithMods) {
    return fail(
      'rejected',
      `the TSA refused (status ${response.status}): ${response.statusText.join(' ') || 'no reason'}`,
    );
  }
  if (!response.token) return fail('invalid', 'the TSA granted the request but sent no token');
  const nonce = BigInt(input.nonce);
  const check = verifyTimeStampToken(response.token, {
    digestHex: anchor.data_hash,
    nonce,
    trustedCaPems: await ctx.deps.tsa.trustedCaPems(),
  });
  const facts = check.facts
    ? {
        tsa_name: check.facts.tsaName,
        anchor_reference: check.facts.serialNumber,
        anchored_at: check.facts.genTime,
        policy: check.facts.policy,
        certificate_chain: check.facts.certificateChain,
      }
    : {};
  const evidence = { ...facts, nonce: nonce.toString(), token: response.token.toString('base64') };
  if (!check.valid) return fail('invalid', `the token does not verify: ${check.reason}`, evidence);
  await attempt('granted', null);
  await completeAnchor(ctx.tx, anchor.id, {
    ...evidence,
    status: 'anchored',
    verified: true,
    ca_certificate: check.caPem,
    tsa_url: tsaUrl,
    completed_at: now,
  });
}
