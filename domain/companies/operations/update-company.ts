import type { Company, UpdateCompanyInput } from '../../../schemas/companies.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import {
  assertSiretChangeable,
  assertValidCompany,
  type CompanyFields,
  normalizeFields,
  toCompanyView,
} from '../company.js';
import { getCompany, updateCompany as storeUpdate } from '../company-store.js';

export const updateCompany = defineCommand<UpdateCompanyInput, Company>({
  name: 'update_company',
  summary:
    'Change some fields of one of your companies; the others keep their value. The SIRET cannot change once KYC is pending or completed.',
  input: 'UpdateCompanyInput',
  output: 'Company',
  callers: ['user'],
  async run({ id, ...input }, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const current = await getCompany(ctx.tx, tenantId, id, { forUpdate: true });
    if (Object.keys(input).length === 0) {
      throw AppError.validation({ body: ['give at least one field to change'] });
    }
    const changes = normalizeFields(input as Partial<CompanyFields>);
    assertSiretChangeable(current, changes.siret);
    assertValidCompany({ ...current, ...changes });
    return toCompanyView(await storeUpdate(ctx.tx, tenantId, id, changes, ctx.clock.now()));
  },
});
