import type { SessionRow } from './onboarding-session.js';

/** `onboarding.completed`'s data: the session and the account it created, for the session's owner. */
export const onboardingCompletedData = (row: SessionRow, name: string) => ({
  id: row.id,
  session_id: row.id,
  variant: row.variant,
  external_id: row.external_id,
  tenant_id: row.created_tenant_id,
  sub_tenant_id: row.sub_tenant_id,
  name,
  environment: row.environment,
  metadata: row.metadata,
  completed_at: (row.completed_at ?? row.updated_at).toISOString(),
});
