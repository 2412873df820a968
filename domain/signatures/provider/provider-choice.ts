import type { Knex } from 'knex';
import { AppError } from '../../shared/app-error.js';
import type { Environment } from '../../shared/caller.js';
import type { Config } from '../../shared/config.js';

/**
 * Who carries a new request (DECISIONS.md "Providers"): the sandbox always the service's own signing
 * page (the simulator); production Openapi EU-SES once an admin configured the account, else the
 * signing page only while ENABLE_SIMULATORS is on (never in production deployments). Otherwise the
 * request is refused (503) before anything is written or charged.
 */
export async function providerForNewRequest(
  tx: Knex,
  config: Config,
  environment: Environment,
): Promise<'simulator' | 'openapi'> {
  if (environment === 'sandbox') return 'simulator';
  const { rows } = await tx.raw<{ rows: { configured: boolean }[] }>(
    'select signature_provider_configured() as configured',
  );
  if (rows[0]?.configured) return 'openapi';
  if (config.enableSimulators) return 'simulator';
  throw new AppError(
    'PROVIDER_UNAVAILABLE',
    'No signature provider is configured for production requests: retry later, or use the sandbox.',
  );
}
