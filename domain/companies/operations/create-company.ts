import type { Company, CreateCompanyInput } from '../../../schemas/companies.js';
import { defineCommand } from '../../shared/operation.js';
import { assertValidCompany, type CompanyFields, normalizeFields, toCompanyView } from '../company.js';
import { insertCompany } from '../company-store.js';

export const createCompany = defineCommand<CreateCompanyInput, Company>({
  name: 'create_company',
  summary:
    'Create a company (legal entity) from its SIRET, address and contacts. The SIRET must be valid and not already used by another of your companies.',
  input: 'CreateCompanyInput',
  output: 'Company',
  callers: ['user'],
  async run(input, ctx) {
    const fields = normalizeFields({
      vat_number: null,
      legal_form: null,
      address_line2: null,
      phone: null,
      email: null,
      website: null,
      ...input,
    }) as CompanyFields;
    assertValidCompany(fields);
    return toCompanyView(await insertCompany(ctx.tx, ctx.caller.tenantId!, fields, ctx.clock.now()));
  },
});
