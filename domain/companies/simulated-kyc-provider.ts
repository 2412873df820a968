import { randomAlphanumeric } from '../shared/random.js';
import type { KycOutcome, KycProvider, KycSession, KycSubject } from './kyc-provider.js';

/**
 * The SIRET the simulator rejects, like a payment sandbox's declined test card (Stripe's
 * 4000000000000002). It is Luhn-valid, so a company can be created with it.
 */
export const KYC_REJECTED_TEST_SIRET = '40000000000002';

export const KYC_REJECTED_TEST_REASON = 'Simulated rejection: the registry does not confirm this company (test SIRET).';

/**
 * The built-in KYC provider: deterministic and without state, so the web process (start) and the
 * worker (check) agree without sharing memory. Every company is approved on the first check except
 * the test SIRET above, which is rejected. It needs no user action, so it gives no verification URL.
 */
export const simulatedKycProvider: KycProvider = {
  async start(_subject: KycSubject): Promise<KycSession> {
    return { reference: `kyc_sim_${randomAlphanumeric(24)}`, verificationUrl: null };
  },
  async check({ siret }): Promise<KycOutcome> {
    if (siret === KYC_REJECTED_TEST_SIRET) return { status: 'rejected', reason: KYC_REJECTED_TEST_REASON };
    return { status: 'approved' };
  },
};
