import type { RegisterTenantInput, TenantCredentials } from '../../../schemas/tenant-auth.js';
import { resolveApiKey } from '../../auth/index.js';
import { countOperationLimit } from '../../platform/index.js';
import { AppError } from '../../shared/app-error.js';
import type { Environment } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { isUniqueViolation } from '../../shared/pg-errors.js';
import { hashPassword } from '../../users/index.js';
import { isValidSiret } from '../siret.js';
import { issueTenantKey } from '../tenant-keys.js';
import { insertTenantAndEnter } from '../tenant-store.js';

const ENVIRONMENTS: Environment[] = ['sandbox', 'production'];

export const registerTenant = defineCommand<RegisterTenantInput, TenantCredentials>({
  name: 'register_tenant',
  summary:
    "Sign a platform tenant up under a partner, with the partner's publishable key. The new tenant starts with KYB pending, an empty balance and its keys; the answer carries its secret key for the publishable key's environment, shown this once.",
  input: 'RegisterTenantInput',
  output: 'TenantCredentials',
  callers: ['anonymous'],
  async run(input, ctx) {
    const now = ctx.clock.now();
    // The partner's key goes through the same checks as on any [PubKey] route (401 codes, KYB in production).
    const partner = await resolveApiKey(ctx.tx, 'publishable', input.publishable_key, {
      ip: ctx.caller.ip ?? null,
      now,
    });
    if (!partner.isPartner) {
      throw new AppError('FORBIDDEN', 'Only a partner tenant can register tenants with its publishable key.');
    }
    // A publishable key is public (it lives in browsers): what it can create is limited per key.
    await countOperationLimit(ctx.deps, 'tenant_registration', `key:${partner.credential!.id}`, {
      subject: 'publishable key',
      environment: partner.environment as Environment,
    });
    if (!isValidSiret(input.siret)) {
      throw AppError.validation({ siret: ['must be a valid SIRET (14 digits, Luhn check)'] });
    }
    const environment = partner.environment as Environment;
    const passwordHash = await hashPassword(input.password);

    const { id: tenantId } = await insertTenantAndEnter(ctx.tx, {
      kind: 'platform',
      name: input.name,
      email: input.email,
      siret: input.siret,
      parentTenantId: partner.tenantId,
      passwordHash,
      kybStatus: 'pending',
      now,
    }).catch((err: unknown) => {
      if (isUniqueViolation(err, 'tenants_email_unique')) {
        throw new AppError('CONFLICT', `The e-mail ${input.email} is already in use. Sign in instead.`);
      }
      throw err;
    });

    let apiKey = '';
    for (const env of ENVIRONMENTS) {
      const secret = await issueTenantKey(ctx.tx, tenantId, 'secret', env);
      await issueTenantKey(ctx.tx, tenantId, 'publishable', env);
      if (env === environment) apiKey = secret.key;
    }
    ctx.log.info({ tenant_id: tenantId, parent_tenant_id: partner.tenantId, environment }, 'tenant registered');
    return { tenant_id: tenantId, api_key: apiKey, environment };
  },
});
