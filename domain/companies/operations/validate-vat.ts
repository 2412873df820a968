import type { ValidateVatInput, VatValidation } from '../../../schemas/mcp.js';
import { defineQuery } from '../../shared/operation.js';
import { frenchVatKey } from '../company.js';

/** VAT prefixes of the EU member states (Greece is EL), and XI for Northern Ireland. */
const VAT_PREFIXES = new Set(
  'AT BE BG CY CZ DE DK EE EL ES FI FR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK XI'.split(' '),
);

/**
 * An intra-community VAT number's form and, for a French one, its key (FR + key + SIREN, the key
 * computed from the SIREN); with a SIRET, the SIREN must be the SIRET's. No VIES lookup.
 */
export const validateVat = defineQuery<ValidateVatInput, VatValidation>({
  name: 'validate_vat',
  summary:
    "Checks an intra-community VAT number's form (EU country prefix, 2 to 13 letters or digits) and, for a French number, its key against the SIREN (and the SIRET's SIREN when given). No VIES lookup.",
  input: 'ValidateVatInput',
  output: 'VatValidation',
  callers: ['user', 'tenant'],
  transactional: false,
  async run(input) {
    const vat = input.vat_number.replace(/[\s.-]+/g, '').toUpperCase();
    const prefix = /^[A-Z]{2}/.test(vat) ? vat.slice(0, 2) : null;
    const answer = (reason: string | null): VatValidation => ({
      vat_number: vat,
      valid: reason === null,
      country_code: prefix,
      reason,
    });
    if (!prefix || !/^[A-Z]{2}[0-9A-Z]{2,13}$/.test(vat)) {
      return answer('A VAT number is a 2-letter country prefix, then 2 to 13 letters or digits.');
    }
    if (!VAT_PREFIXES.has(prefix)) return answer(`${prefix} is not the VAT prefix of an EU member state.`);
    if (prefix !== 'FR') return answer(null);
    if (!/^FR[0-9A-Z]{2}[0-9]{9}$/.test(vat))
      return answer('A French VAT number is FR, a 2-character key, then the 9-digit SIREN.');
    const siren = vat.slice(4);
    if (/^[0-9]{2}$/.test(vat.slice(2, 4)) && vat.slice(2, 4) !== frenchVatKey(siren)) {
      return answer(`The key does not match the SIREN: it is FR${frenchVatKey(siren)}${siren}.`);
    }
    const siret = input.siret?.replace(/\s+/g, '');
    if (siret && siret.slice(0, 9) !== siren)
      return answer(`The SIREN ${siren} is not the SIRET's (${siret.slice(0, 9)}).`);
    return answer(null);
  },
});
