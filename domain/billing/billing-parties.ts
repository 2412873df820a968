import type { DocumentParty } from '../documents/index.js';
import { AppError } from '../shared/app-error.js';
import type { Config } from '../shared/config.js';

/**
 * The two parties of a billing invoice: the operator (the `PUBLISHER_*` settings) sells, the
 * tenant buys. Both are copied onto the invoice when it is issued, so it always reads as issued.
 */

/** Stand-ins for the operator's identity outside production, so a local run bills too. */
export const DEVELOPMENT_SELLER = {
  name: 'Opérateur e-invoice (développement)',
  siren: '732829320',
  address: '1 rue de la Paix, 75002 Paris',
} as const;

/** `1 rue de la Paix, 75002 Paris` → street, postcode and city; any other form is kept as the street line. */
export function splitAddress(address: string): { line1: string; postalCode: string; city: string } {
  const match = /^(.*\S)\s*,\s*(\d{5})\s+(.+)$/.exec(address.trim());
  return match
    ? { line1: match[1], postalCode: match[2], city: match[3].trim() }
    : { line1: address.trim(), postalCode: '', city: '' };
}

export const frenchVatNumberOfSiren = (siren: string): string =>
  `FR${String((12 + 3 * (Number(siren) % 97)) % 97).padStart(2, '0')}${siren}`;

/**
 * The operator as seller (BG-4). Production needs PUBLISHER_NAME, PUBLISHER_SIREN and
 * PUBLISHER_ADDRESS: without them no invoice is issued (an error the job does not retry); elsewhere
 * the development identity fills what is missing. The VAT number (BT-31, required with VAT at 20 %,
 * BR-S-02) is PUBLISHER_VAT_NUMBER, else the French one derived from the SIREN.
 */
export function sellerParty(config: Pick<Config, 'nodeEnv' | 'publisher'>): DocumentParty {
  const { publisher } = config;
  const missing = (
    [
      ['PUBLISHER_NAME', publisher.name],
      ['PUBLISHER_SIREN', publisher.siren],
      ['PUBLISHER_ADDRESS', publisher.address],
    ] as const
  )
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length && config.nodeEnv === 'production') {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      `Set ${missing.join(', ')}: the billing invoices name the operator as their seller.`,
      { retryable: false },
    );
  }
  const siren = publisher.siren ?? DEVELOPMENT_SELLER.siren;
  const address = splitAddress(publisher.address ?? DEVELOPMENT_SELLER.address);
  return {
    name: publisher.name ?? DEVELOPMENT_SELLER.name,
    siret: null,
    vatNumber: publisher.vatNumber ?? frenchVatNumberOfSiren(siren),
    // BT-30: the SIREN (the operator's legal registration), printed without a scheme.
    legalId: siren,
    address: { ...address, line2: null, country: 'FR' },
    electronicAddress: { scheme: '0225', value: siren },
  };
}

export interface BuyerTenant {
  name: string;
  legal_name: string | null;
  siret: string | null;
  vat_number: string | null;
}

/**
 * The tenant as buyer (BG-7): its legal name (else its name), SIRET and VAT number as the tenants
 * table holds them. The table keeps no postal address, so the address is the country alone (BT-55,
 * the only part EN 16931 requires): French, since the tenant's SIRET is.
 */
export function buyerParty(tenant: BuyerTenant): DocumentParty {
  return {
    name: tenant.legal_name ?? tenant.name,
    siret: tenant.siret,
    vatNumber: tenant.vat_number,
    legalId: null,
    address: { line1: '', line2: null, postalCode: '', city: '', country: 'FR' },
    electronicAddress: tenant.siret ? { scheme: '0225', value: tenant.siret.slice(0, 9) } : null,
  };
}
