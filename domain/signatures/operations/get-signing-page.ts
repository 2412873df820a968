import type { SigningTokenInput } from '../../../schemas/signing-page.js';
import { ANY_CALLER } from '../../shared/caller.js';
import { defineQuery } from '../../shared/operation.js';
import { fullNameOf } from '../signature-view.js';
import { openServedSession, pageStatusOf } from '../signing-steps.js';

/** What the signing page shows: the request's state, the document, its branding. */
export interface SigningPageView {
  status: string;
  signer_status: string;
  environment: string;
  title: string;
  description: string | null;
  document_name: string;
  signer_name: string;
  signature_mode: string;
  ui_config: Record<string, unknown> | null;
  redirect_complete_url: string | null;
  redirect_cancel_url: string | null;
}

export const getSigningPage = defineQuery<SigningTokenInput, SigningPageView>({
  name: 'get_signing_page',
  summary: "What a signer's signing page shows (the simulator's page): 404 for an unknown token.",
  input: 'SigningTokenInput',
  output: 'SigningPage',
  callers: ANY_CALLER,
  async run(input, ctx) {
    const { request: r, signer } = await openServedSession(ctx, input.token);
    const mode = r.signature_options?.signature_mode;
    return {
      status: pageStatusOf(r, ctx.clock.now()),
      signer_status: signer.status,
      environment: r.environment,
      title: r.title,
      description: r.description,
      document_name: r.document_name,
      signer_name: fullNameOf(signer),
      signature_mode: typeof mode === 'string' ? mode : 'both',
      ui_config: r.ui_config,
      redirect_complete_url: r.redirect_complete_url,
      redirect_cancel_url: r.redirect_cancel_url,
    };
  },
});
