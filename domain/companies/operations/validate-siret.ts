import type { SiretValidation, ValidateSiretInput } from '../../../schemas/mcp.js';
import { defineQuery } from '../../shared/operation.js';
import { isValidSiret } from '../../tenants/index.js';
import { frenchVatKey } from '../company.js';

/** A SIRET's form and check digit, as company and invoice creation check it; no registry is asked. */
export const validateSiret = defineQuery<ValidateSiretInput, SiretValidation>({
  name: 'validate_siret',
  summary:
    "Checks a SIRET's form (14 digits) and check digit, and gives its SIREN and the French VAT number derived from it. No registry lookup.",
  input: 'ValidateSiretInput',
  output: 'SiretValidation',
  callers: ['user', 'tenant'],
  transactional: false,
  async run(input) {
    const siret = input.siret.replace(/\s+/g, '');
    const invalid = (reason: string): SiretValidation => ({
      siret,
      valid: false,
      siren: null,
      vat_number: null,
      reason,
    });
    if (!/^[0-9]{14}$/.test(siret)) return invalid('A SIRET is 14 digits.');
    if (!isValidSiret(siret)) return invalid('The check digit does not match (Luhn).');
    const siren = siret.slice(0, 9);
    return { siret, valid: true, siren, vat_number: `FR${frenchVatKey(siren)}${siren}`, reason: null };
  },
});
