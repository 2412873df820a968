import { randomUUID } from 'node:crypto';

/** Luhn-valid SIRETs of two real establishments (public INSEE data). */
export const SELLER_SIRET = '73282932000074';
export const BUYER_SIRET = '44306184100047';

/**
 * A valid creation body of the specification: two lines at 20 % and 10 % with the totals right to
 * the cent, a French business buyer. `overrides` replace top-level fields.
 */
export function invoiceBody(overrides: Record<string, unknown> = {}) {
  return {
    invoice_number: `F-${randomUUID().slice(0, 8)}`,
    direction: 'outgoing',
    output_format: 'facturx',
    issue_date: '2026-11-20',
    due_date: '2026-12-20',
    currency: 'EUR',
    total_ht: 1250,
    total_tax: 225,
    total_ttc: 1475,
    seller_siret: SELLER_SIRET,
    seller_name: 'Vendeur SAS',
    seller_address: { line1: '1 rue de la Paix', postal_code: '75002', city: 'Paris', country: 'FR' },
    buyer_siret: BUYER_SIRET,
    buyer_name: 'Acheteur SARL',
    buyer_address: { line1: '10 avenue des Champs', postal_code: '69001', city: 'Lyon', country: 'FR' },
    lines: [
      {
        description: 'Conseil',
        quantity: 5,
        unit_price: 200,
        tax_rate: 20,
        total_ht: 1000,
        total_tax: 200,
        total_ttc: 1200,
      },
      {
        description: 'Formation',
        quantity: 2,
        unit_price: 125,
        tax_rate: 10,
        total_ht: 250,
        total_tax: 25,
        total_ttc: 275,
      },
    ],
    ...overrides,
  };
}
