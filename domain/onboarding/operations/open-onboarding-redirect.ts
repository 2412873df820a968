import type { Knex } from 'knex';
import type { OnboardingRedirectInput, OnboardingRedirectPage } from '../../../schemas/onboarding.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { enterTenant } from '../../shared/tenant-context.js';
import { FINISHED, type SessionRow } from '../onboarding-session.js';
import { sha256Hex } from '../pkce.js';

/**
 * The session a provider redirect belongs to, found by its state's hash (the one read across
 * tenants, `onboarding_find_by_state`); the transaction then enters the session's tenant.
 */
export async function sessionByState(tx: Knex, state: string, options: { lock?: boolean } = {}): Promise<SessionRow> {
  const { rows } = await tx.raw<{ rows: { tenant_id: string; session_id: string }[] }>(
    'select tenant_id, session_id from onboarding_find_by_state(?)',
    [sha256Hex(state)],
  );
  if (!rows[0]) throw new AppError('NOT_FOUND', 'No onboarding session waits for this state.');
  await enterTenant(tx, rows[0].tenant_id);
  const query = tx('onboarding_sessions').where({ id: rows[0].session_id }).first<SessionRow>();
  if (options.lock) query.forUpdate();
  return query;
}

export const originOf = (url: string | null): string | null => {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

export const openOnboardingRedirect = defineCommand<OnboardingRedirectInput, OnboardingRedirectPage>({
  name: 'open_onboarding_redirect',
  summary:
    "The provider's redirect to the onboarding callback page: which session it is for and where the page may post its message. An `error` (the company refused) fails the session.",
  input: 'OnboardingRedirectInput',
  output: 'OnboardingRedirectPage',
  callers: ['anonymous'],
  async run(input, ctx) {
    const row = await sessionByState(ctx.tx, input.state, { lock: true });
    if (input.error && !row.state_used_at && !FINISHED.includes(row.status)) {
      const now = ctx.clock.now();
      await ctx
        .tx('onboarding_sessions')
        .where({ id: row.id })
        .update({
          status: 'superpdp_failed',
          state_used_at: now,
          failure_reason: `${input.error}${input.error_description ? `: ${input.error_description}` : ''}`.slice(
            0,
            1000,
          ),
          updated_at: now,
        });
    }
    return {
      session_id: row.id,
      mode: row.mode,
      target_origin: originOf(row.callback_url),
      callback_url: row.callback_url,
      client_state: row.client_state,
    };
  },
});
