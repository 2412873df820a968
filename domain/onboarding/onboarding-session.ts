import type { Knex } from 'knex';
import type { OnboardingSession } from '../../schemas/onboarding.js';
import { signToken } from '../auth/index.js';
import { AppError } from '../shared/app-error.js';
import type { Caller, Environment } from '../shared/caller.js';
import type { Config } from '../shared/config.js';
import { publicBaseUrlOf } from '../users/index.js';

export type Variant = 'partner' | 'tenant';
export type OnboardingStatus = OnboardingSession['onboarding_status'];

/** A session lives 7 days: the origin's `resume_url` lasts as long (origin-notes.md). */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
/** The authorization code the callback returns: single use, 5 minutes. */
export const AUTHORIZATION_CODE_TTL_MS = 5 * 60_000;

/** An `onboarding_sessions` row (migrations/20261127040000_create_onboarding.ts). */
export interface SessionRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  variant: Variant;
  mode: OnboardingSession['mode'];
  status: OnboardingStatus;
  external_id: string | null;
  callback_url: string | null;
  client_state: string | null;
  metadata: Record<string, unknown>;
  provider: 'superpdp' | 'simulator' | null;
  state_hash: string | null;
  state_used_at: Date | null;
  code_verifier_sealed: string | null;
  created_tenant_id: string | null;
  sub_tenant_id: string | null;
  provider_connection_id: string | null;
  authorization_code_hash: string | null;
  authorization_code_expires_at: Date | null;
  authorization_code_used_at: Date | null;
  issued_key_id: string | null;
  failure_reason: string | null;
  expires_at: Date;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Statuses after which the company has its account: nothing more to authorize. */
export const FINISHED: readonly OnboardingStatus[] = ['superpdp_pending_review', 'active'];

/** The caller's tenant and environment: a session is reached by its owner only (else 404). */
export function sessionOwnerOf(caller: Caller): { tenantId: string; environment: Environment } {
  if (!caller.tenantId || !caller.environment) {
    throw new AppError('FORBIDDEN', 'Onboarding sessions are reached with a publishable key (or a tenant key).');
  }
  return { tenantId: caller.tenantId, environment: caller.environment };
}

/** The owner's session of this variant, or 404 for an unknown or foreign id. */
export async function requireSession(
  tx: Knex,
  owner: { tenantId: string; environment: Environment },
  variant: Variant,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SessionRow> {
  const query = tx('onboarding_sessions')
    .where({ tenant_id: owner.tenantId, environment: owner.environment, variant, id })
    .first<SessionRow | undefined>();
  if (options.forUpdate) query.forUpdate();
  const row = await query;
  if (!row) throw new AppError('NOT_FOUND', `No onboarding session ${id}.`);
  return row;
}

export const isExpired = (row: SessionRow, now: Date): boolean => row.expires_at.getTime() <= now.getTime();

/** 400 on a session past its `expires_at` (spec "Onboarding session": a callback on an expired session). */
export function assertOpen(row: SessionRow, now: Date): void {
  if (isExpired(row, now)) {
    throw new AppError(
      'ONBOARDING_SESSION_EXPIRED',
      `The onboarding session expired at ${row.expires_at.toISOString()}: start a new session.`,
    );
  }
}

/** The specification's `pending`/`completed` over the origin's detailed statuses. */
export function publicStatus(row: SessionRow, now: Date): OnboardingSession['status'] {
  if (row.status === 'active') return 'completed';
  if (row.status === 'superpdp_failed') return 'failed';
  if (row.status === 'superpdp_pending_review') return 'pending';
  return isExpired(row, now) ? 'expired' : 'pending';
}

const resumeKeyOptions = (config: Config, now: Date) => ({ key: config.appKey, purpose: 'onboarding-resume', now });

/** The session's signed resume link, valid until the session expires (7 days). */
export function resumeUrlOf(config: Config, row: SessionRow, now: Date): string {
  const ttl = Math.max(1, Math.floor((row.expires_at.getTime() - now.getTime()) / 1000));
  const token = signToken(
    resumeKeyOptions(config, now),
    { sid: row.id, tid: row.tenant_id, env: row.environment },
    ttl,
  );
  return `${publicBaseUrlOf(config)}/onboarding/resume/${token}`;
}

export { resumeKeyOptions };

export function toSessionView(config: Config, row: SessionRow, now: Date): OnboardingSession {
  const open = !FINISHED.includes(row.status) && !isExpired(row, now);
  const resumeUrl = open ? resumeUrlOf(config, row, now) : null;
  return {
    id: row.id,
    mode: row.mode,
    status: publicStatus(row, now),
    onboarding_status: row.status,
    environment: row.environment,
    external_id: row.external_id,
    tenant_id: row.created_tenant_id,
    sub_tenant_id: row.sub_tenant_id,
    expires_at: row.expires_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
    resume_url: resumeUrl,
    ...(row.mode === 'redirect' && resumeUrl ? { redirect_url: resumeUrl } : {}),
  };
}
