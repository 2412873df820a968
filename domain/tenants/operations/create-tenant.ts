import type { CreatedTenant, CreateTenantInput } from '../../../schemas/tenants.js';
import { AppError } from '../../shared/app-error.js';
import type { Environment } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { isUniqueViolation } from '../../shared/pg-errors.js';
import { isValidSiret } from '../siret.js';
import { issueTenantKey } from '../tenant-keys.js';
import { insertTenant } from '../tenant-store.js';

const ENVIRONMENTS: Environment[] = ['sandbox', 'production'];

export const createTenant = defineCommand<CreateTenantInput, CreatedTenant>({
  name: 'create_tenant',
  summary:
    'Create a platform tenant with its empty balance and four keys (secret and publishable, sandbox and production). The keys are shown once.',
  input: 'CreateTenantInput',
  output: 'CreatedTenant',
  callers: ['system'],
  async run(input, ctx) {
    if (!isValidSiret(input.siret)) {
      throw AppError.validation({ siret: ['must be a valid SIRET (14 digits, Luhn check)'] });
    }
    const tenant = await insertTenant(ctx.tx, {
      kind: 'platform',
      name: input.name,
      legalName: input.legal_name ?? input.name,
      email: input.email,
      siret: input.siret,
      isPartner: input.is_partner,
      kybStatus: input.kyb_status,
      now: ctx.clock.now(),
    }).catch((err: unknown) => {
      if (isUniqueViolation(err, 'tenants_email_unique')) {
        throw new AppError('CONFLICT', `A tenant with the e-mail ${input.email} already exists.`);
      }
      throw err;
    });

    const keys = { secret_keys: { sandbox: '', production: '' }, publishable_keys: { sandbox: '', production: '' } };
    for (const environment of ENVIRONMENTS) {
      const secret = await issueTenantKey(
        ctx.tx,
        tenant.id,
        'secret',
        environment,
        `Default ${environment} secret key`,
      );
      const publishable = await issueTenantKey(
        ctx.tx,
        tenant.id,
        'publishable',
        environment,
        `Default ${environment} publishable key`,
      );
      keys.secret_keys[environment] = secret.key;
      keys.publishable_keys[environment] = publishable.key;
    }
    ctx.log.info({ tenant_id: tenant.id, is_partner: tenant.is_partner }, 'tenant created');
    return { tenant_id: tenant.id, ...keys };
  },
});
