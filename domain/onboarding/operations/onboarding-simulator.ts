import type { Knex } from 'knex';
import type {
  OnboardingSimulatorDecision,
  OnboardingSimulatorRedirect,
  OnboardingSimulatorRequest,
  OnboardingSimulatorView,
} from '../../../schemas/onboarding.js';
import { AppError } from '../../shared/app-error.js';
import type { Deps } from '../../shared/deps.js';
import { defineCommand, defineQuery } from '../../shared/operation.js';
import { isValidSiret } from '../../tenants/index.js';
import { FINISHED, isExpired, type SessionRow } from '../onboarding-session.js';
import { sessionByState } from './open-onboarding-redirect.js';

/**
 * The simulator answers only for a session that was sent to it (sandbox, or a local production
 * with ENABLE_SIMULATORS), to the service's own callback page (never an open redirect): a
 * production session sent to SuperPDP is 404 here, so production never goes through the simulator.
 */
async function simulatedSession(
  tx: Knex,
  deps: Deps,
  input: OnboardingSimulatorRequest,
  now: Date,
): Promise<SessionRow> {
  if (input.redirect_uri !== deps.onboardingProviders.simulator.redirectUri) {
    throw new AppError('BAD_REQUEST', `redirect_uri must be ${deps.onboardingProviders.simulator.redirectUri}.`);
  }
  const row = await sessionByState(tx, input.state);
  if (row.provider !== 'simulator' || row.state_used_at || FINISHED.includes(row.status) || isExpired(row, now)) {
    throw new AppError('NOT_FOUND', 'No onboarding session waits for this state at the simulator.');
  }
  return row;
}

export const getOnboardingSimulator = defineQuery<OnboardingSimulatorRequest, OnboardingSimulatorView>({
  name: 'get_onboarding_simulator',
  summary: "The onboarding simulator's authorization page: the session it serves.",
  input: 'OnboardingSimulatorRequest',
  output: 'OnboardingSimulatorView',
  callers: ['anonymous'],
  async run(input, ctx) {
    const row = await simulatedSession(ctx.tx, ctx.deps, input, ctx.clock.now());
    return { environment: row.environment, variant: row.variant };
  },
});

export const decideOnboardingSimulator = defineCommand<OnboardingSimulatorDecision, OnboardingSimulatorRedirect>({
  name: 'decide_onboarding_simulator',
  summary:
    "The onboarding simulator's form: approve (the company's account is created, optionally under review for a few seconds) or refuse; then back to the callback page.",
  input: 'OnboardingSimulatorDecision',
  output: 'OnboardingSimulatorRedirect',
  callers: ['anonymous'],
  async run(input, ctx) {
    await simulatedSession(ctx.tx, ctx.deps, input, ctx.clock.now());
    const target = new URL(input.redirect_uri);
    target.searchParams.set('state', input.state);
    if (input.decision === 'refuse') {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The company refused access.');
      return { redirect_to: target.toString() };
    }
    const fields: Record<string, string[]> = {};
    if (!input.company_name) fields.company_name = ['is required'];
    if (!input.siret || !isValidSiret(input.siret)) fields.siret = ['must be a valid SIRET (14 digits, Luhn check)'];
    if (!input.email) fields.email = ['is required'];
    if (Object.keys(fields).length) throw AppError.validation(fields);
    const code = await ctx.deps.onboardingProviders.simulator.createAccount(ctx.tx, {
      redirectUri: input.redirect_uri,
      codeChallenge: input.code_challenge,
      companyName: (input.company_name as string).trim(),
      siret: input.siret as string,
      email: input.email as string,
      reviewSeconds: Number(input.review_seconds ?? '0'),
    });
    target.searchParams.set('code', code);
    return { redirect_to: target.toString() };
  },
});
