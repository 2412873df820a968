import type { KycOutcome, KycProvider, KycSession, KycSubject } from '../../domain/companies/kyc-provider.js';
import { simulatedKycProvider } from '../../domain/companies/simulated-kyc-provider.js';

/**
 * The simulator with its calls recorded and two scripted behaviours, per SIRET so that concurrent
 * tests do not meet: `down` (start and check throw, as a provider that does not answer) and
 * `stillPending` (check answers pending).
 */
export class FakeKycProvider implements KycProvider {
  readonly starts: KycSubject[] = [];
  readonly checks: { reference: string; siret: string }[] = [];
  readonly down = new Set<string>();
  readonly stillPending = new Set<string>();

  async start(subject: KycSubject): Promise<KycSession> {
    this.starts.push(subject);
    if (this.down.has(subject.siret)) throw new Error('connect ECONNREFUSED kyc.example');
    return simulatedKycProvider.start(subject);
  }

  async check(session: { reference: string; siret: string }): Promise<KycOutcome> {
    this.checks.push(session);
    if (this.down.has(session.siret)) throw new Error('connect ECONNREFUSED kyc.example');
    if (this.stillPending.has(session.siret)) return { status: 'pending' };
    return simulatedKycProvider.check(session);
  }

  startsFor(companyId: string): number {
    return this.starts.filter((s) => s.companyId === companyId).length;
  }
}
