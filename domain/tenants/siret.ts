import { luhn } from '../shared/luhn.js';

/** La Poste's SIREN: its establishments' SIRETs follow a digit-sum rule instead of Luhn (INSEE). */
const LA_POSTE_SIREN = '356000000';

/** A SIRET is 14 digits and Luhn-valid, except La Poste's, whose digit sum is a multiple of 5. */
export function isValidSiret(siret: string): boolean {
  if (!/^[0-9]{14}$/.test(siret)) return false;
  if (siret.startsWith(LA_POSTE_SIREN)) {
    const sum = [...siret].reduce((acc, d) => acc + Number(d), 0);
    return sum % 5 === 0 || luhn(siret);
  }
  return luhn(siret);
}
