import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { systemCaller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { randomAlphanumeric } from '../shared/random.js';
import { inTenantContext } from '../shared/tenant-context.js';
import type {
  CheckoutRequest,
  CheckoutSession,
  OffSessionCharge,
  PaymentIntent,
  PaymentProvider,
} from './payment-provider.js';

interface SimulatedRow {
  id: string;
  tenant_id: string;
  kind: 'checkout_session' | 'payment_intent';
  status: string;
  amount_cents: string;
  currency: string;
  payment_intent_id: string | null;
  customer_id: string | null;
  payment_method_id: string | null;
  success_url: string | null;
  cancel_url: string | null;
  metadata: Record<string, string>;
  last_error: string | null;
}

/** Stripe's test card that is saved and pays now, but is declined when charged off-session later. */
export const DECLINES_OFF_SESSION_CARD = '4000000000000341';
const DECLINING_METHOD = 'pm_sim_declines_off_session_';

/**
 * The built-in payment provider (spec/DECISIONS.md "Providers"): sandbox always, production only with
 * ENABLE_SIMULATORS and no STRIPE_SECRET_KEY. Its Checkout Sessions are paid on the service's own
 * checkout page (`/simulator/checkout/<id>`), with Stripe's test cards: 4242… pays and keeps paying;
 * 4000 0000 0000 0341 pays, but the saved card is declined off-session, so auto-reloads fail on demand.
 */
export class SimulatedPaymentProvider implements PaymentProvider {
  readonly kind = 'simulator' as const;
  constructor(
    private readonly db: Knex,
    private readonly clock: Clock,
    private readonly baseUrl: () => string,
  ) {}

  checkoutUrl(sessionId: string): string {
    return `${this.baseUrl()}/simulator/checkout/${sessionId}`;
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession> {
    const id = `cs_sim_${randomAlphanumeric(32)}`;
    const row = await this.inTenant(request.tenantId, (tx) =>
      tx('simulated_payments')
        .insert({
          id,
          tenant_id: request.tenantId,
          kind: 'checkout_session',
          status: 'open',
          amount_cents: request.amountCents,
          currency: request.currency,
          customer_id: request.customerId,
          success_url: request.successUrl.replace('{CHECKOUT_SESSION_ID}', id),
          cancel_url: request.cancelUrl.replace('{CHECKOUT_SESSION_ID}', id),
          metadata: { tenant_id: request.tenantId, topup_id: request.topUpId, environment: request.environment },
          created_at: this.clock.now(),
        })
        .returning<SimulatedRow[]>('*'),
    );
    return this.toSession(row[0]);
  }

  async retrieveCheckoutSession(id: string): Promise<CheckoutSession | null> {
    const row = await this.find(id, 'checkout_session');
    return row ? this.toSession(row) : null;
  }

  async retrievePaymentIntent(id: string): Promise<PaymentIntent | null> {
    const row = await this.find(id, 'payment_intent');
    return row ? toIntent(row) : null;
  }

  /** The simulator's page: the payer paid with a test card. Paying twice changes nothing. */
  async pay(sessionId: string, card: string): Promise<{ session: CheckoutSession; tenantId: string } | null> {
    const tenantId = await this.tenantOf(sessionId);
    if (!tenantId) return null;
    const session = await this.inTenant(tenantId, async (tx) => {
      const found = await tx('simulated_payments')
        .where({ id: sessionId, kind: 'checkout_session' })
        .forUpdate()
        .first<SimulatedRow>();
      if (found?.status !== 'open') return found;
      const customer = found.customer_id ?? `cus_sim_${randomAlphanumeric(24)}`;
      const method =
        card === DECLINES_OFF_SESSION_CARD
          ? `${DECLINING_METHOD}${randomAlphanumeric(16)}`
          : `pm_sim_card_${randomAlphanumeric(16)}`;
      const intentId = `pi_sim_${randomAlphanumeric(24)}`;
      await tx('simulated_payments').insert({
        id: intentId,
        tenant_id: tenantId,
        kind: 'payment_intent',
        status: 'succeeded',
        amount_cents: found.amount_cents,
        currency: found.currency,
        checkout_session_id: found.id,
        customer_id: customer,
        payment_method_id: method,
        metadata: found.metadata,
        created_at: this.clock.now(),
      });
      const [paid] = await tx('simulated_payments')
        .where({ id: sessionId })
        .update({ status: 'complete', payment_intent_id: intentId, customer_id: customer })
        .returning<SimulatedRow[]>('*');
      return paid;
    });
    return session ? { session: this.toSession(session), tenantId } : null;
  }

  /** The cancel URL of a session, as the page's Cancel button leaves it (the session stays open, as at Stripe). */
  async cancelUrl(sessionId: string): Promise<string | null> {
    const row = await this.find(sessionId, 'checkout_session');
    return row?.cancel_url ?? null;
  }

  /** Where the page sends the browser once paid. */
  async successUrl(sessionId: string): Promise<string | null> {
    const row = await this.find(sessionId, 'checkout_session');
    return row?.success_url ?? null;
  }

  async chargeOffSession(charge: OffSessionCharge): Promise<PaymentIntent> {
    // The idempotency key names the PaymentIntent: a retried charge finds the first one.
    const id = `pi_sim_${createHash('sha256').update(charge.idempotencyKey).digest('hex').slice(0, 24)}`;
    const declined = charge.paymentMethodId.startsWith(DECLINING_METHOD);
    const row = await this.inTenant(charge.tenantId, async (tx) => {
      await tx('simulated_payments')
        .insert({
          id,
          tenant_id: charge.tenantId,
          kind: 'payment_intent',
          status: declined ? 'requires_payment_method' : 'succeeded',
          amount_cents: charge.amountCents,
          currency: charge.currency,
          customer_id: charge.customerId,
          payment_method_id: charge.paymentMethodId,
          metadata: { tenant_id: charge.tenantId, topup_id: charge.topUpId, source: 'auto_reload' },
          last_error: declined ? 'card_declined: Your card was declined.' : null,
          created_at: this.clock.now(),
        })
        .onConflict('id')
        .ignore();
      return tx('simulated_payments').where({ id }).first<SimulatedRow>();
    });
    return toIntent(row!);
  }

  private async tenantOf(id: string): Promise<string | null> {
    const { rows } = await this.db.raw<{ rows: { tenant_id: string }[] }>(
      'select tenant_id from simulated_payment_find(?)',
      [id],
    );
    return rows[0]?.tenant_id ?? null;
  }

  private async find(id: string, kind: SimulatedRow['kind']): Promise<SimulatedRow | null> {
    const tenantId = await this.tenantOf(id);
    if (!tenantId) return null;
    return (
      (await this.inTenant(tenantId, (tx) => tx('simulated_payments').where({ id, kind }).first<SimulatedRow>())) ??
      null
    );
  }

  private inTenant<T>(tenantId: string, work: (tx: Knex) => Promise<T>): Promise<T> {
    return inTenantContext(this.db, systemCaller(tenantId), work);
  }

  private toSession(row: SimulatedRow): CheckoutSession {
    return {
      id: row.id,
      url: row.status === 'open' ? this.checkoutUrl(row.id) : null,
      status: row.status as CheckoutSession['status'],
      paymentStatus: row.status === 'complete' ? 'paid' : 'unpaid',
      amountTotal: Number(row.amount_cents),
      currency: row.currency,
      paymentIntentId: row.payment_intent_id,
      customerId: row.customer_id,
      metadata: row.metadata,
    };
  }
}

function toIntent(row: SimulatedRow): PaymentIntent {
  const succeeded = row.status === 'succeeded';
  return {
    id: row.id,
    status: row.status as PaymentIntent['status'],
    amount: Number(row.amount_cents),
    amountReceived: succeeded ? Number(row.amount_cents) : 0,
    currency: row.currency,
    customerId: row.customer_id,
    paymentMethodId: row.payment_method_id,
    metadata: row.metadata,
    lastError: row.last_error,
  };
}
