import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../shared/app-error.js';
import type {
  CheckoutRequest,
  CheckoutSession,
  OffSessionCharge,
  PaymentIntent,
  PaymentProvider,
} from './payment-provider.js';

export interface StripeOptions {
  /** `https://api.stripe.com`, without a trailing slash. */
  baseUrl: string;
  secretKey: string;
  timeoutMs: number;
  /** Pause before the first retry of a 5xx, 429 or network error (doubled each time); tests set 0. */
  retryDelayMs?: number;
}

/** Tries per call: a 5xx, 429 or network error is retried with the same Idempotency-Key (Stripe replays it). */
const ATTEMPTS = 3;

const unavailable = (message: string, cause?: unknown) =>
  new AppError('PROVIDER_UNAVAILABLE', `The payment provider is unavailable: ${message}`, { retryable: true, cause });

interface StripeError {
  type?: string;
  code?: string;
  decline_code?: string;
  message?: string;
  payment_intent?: Record<string, unknown>;
}

/** Stripe's nested form keys (`metadata[topup_id]`, `line_items[0][quantity]`) from a plain object. */
export function formEncode(params: Record<string, unknown>, prefix = '', out = new URLSearchParams()): URLSearchParams {
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const name = prefix ? `${prefix}[${key}]` : key;
    if (typeof value === 'object') formEncode(value as Record<string, unknown>, name, out);
    else out.append(name, String(value));
  }
  return out;
}

/**
 * Stripe's API over HTTP (provider-apis.md §3): form-encoded bodies, Bearer secret key, an
 * Idempotency-Key on every POST. A 5xx, 429 or network error is retried twice with the same key,
 * then reported as PROVIDER_UNAVAILABLE (503); a 404 of a retrieve is "unknown" (null); a card
 * error on an off-session charge is a declined PaymentIntent; any other 4xx is our mistake or a
 * refused key, reported as PROVIDER_UNAVAILABLE too (nothing the caller can fix) and logged.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  constructor(private readonly options: StripeOptions) {}

  async createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession> {
    const body = {
      mode: 'payment',
      line_items: {
        0: {
          quantity: 1,
          price_data: {
            currency: request.currency,
            unit_amount: request.amountCents,
            product_data: { name: 'Recharge de solde' },
          },
        },
      },
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      client_reference_id: request.tenantId,
      customer: request.customerId ?? undefined,
      customer_creation: request.customerId ? undefined : 'always',
      metadata: { tenant_id: request.tenantId, topup_id: request.topUpId, environment: request.environment },
      payment_intent_data: {
        setup_future_usage: 'off_session',
        metadata: { tenant_id: request.tenantId, topup_id: request.topUpId, environment: request.environment },
      },
    };
    const res = await this.call('POST', '/v1/checkout/sessions', formEncode(body), request.idempotencyKey);
    if (!res.ok) throw unavailable(`creating the checkout session failed (${res.status}: ${res.error.message})`);
    if (typeof res.body.id !== 'string' || typeof res.body.url !== 'string') {
      throw unavailable('Stripe answered a checkout session without its id or url.');
    }
    return toSession(res.body);
  }

  async retrieveCheckoutSession(id: string): Promise<CheckoutSession | null> {
    const res = await this.call('GET', `/v1/checkout/sessions/${encodeURIComponent(id)}`);
    if (res.ok) return toSession(res.body);
    if (res.status === 404) return null;
    throw unavailable(`reading checkout session ${id} failed (${res.status}: ${res.error.message})`);
  }

  async retrievePaymentIntent(id: string): Promise<PaymentIntent | null> {
    const res = await this.call('GET', `/v1/payment_intents/${encodeURIComponent(id)}`);
    if (res.ok) return toPaymentIntent(res.body);
    if (res.status === 404) return null;
    throw unavailable(`reading payment intent ${id} failed (${res.status}: ${res.error.message})`);
  }

  async chargeOffSession(charge: OffSessionCharge): Promise<PaymentIntent> {
    const body = {
      amount: charge.amountCents,
      currency: charge.currency,
      customer: charge.customerId,
      payment_method: charge.paymentMethodId,
      off_session: 'true',
      confirm: 'true',
      description: 'Rechargement automatique du solde',
      metadata: { tenant_id: charge.tenantId, topup_id: charge.topUpId, source: 'auto_reload' },
    };
    const res = await this.call('POST', '/v1/payment_intents', formEncode(body), charge.idempotencyKey);
    if (res.ok) return toPaymentIntent(res.body);
    // A declined card (402 card_error): Stripe returns the failed PaymentIntent inside the error.
    if (res.error.type === 'card_error') {
      const reason = [res.error.decline_code ?? res.error.code, res.error.message].filter(Boolean).join(': ');
      const intent = res.error.payment_intent ? toPaymentIntent(res.error.payment_intent) : null;
      return {
        id: intent?.id ?? '',
        status: intent?.status ?? 'requires_payment_method',
        amount: charge.amountCents,
        amountReceived: 0,
        currency: charge.currency,
        customerId: charge.customerId,
        paymentMethodId: charge.paymentMethodId,
        metadata: intent?.metadata ?? {},
        lastError: reason || 'card declined',
      };
    }
    throw unavailable(`the off-session charge failed (${res.status}: ${res.error.message})`);
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    form?: URLSearchParams,
    idempotencyKey?: string,
  ): Promise<
    { ok: true; status: number; body: Record<string, unknown> } | { ok: false; status: number; error: StripeError }
  > {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.options.secretKey}` };
    if (form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    let lastProblem = '';
    const networkProblem = (err: unknown) =>
      (err as Error).name === 'TimeoutError' ? `no answer within ${this.options.timeoutMs} ms` : (err as Error).message;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (attempt > 1) await sleep((this.options.retryDelayMs ?? 250) * 2 ** (attempt - 2));
      let res: Response;
      try {
        res = await fetch(`${this.options.baseUrl}${path}`, {
          method,
          headers,
          body: form?.toString(),
          redirect: 'manual',
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
      } catch (err) {
        lastProblem = networkProblem(err);
        continue;
      }
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        // the connection cut while the body was read: as a network error
        lastProblem = networkProblem(err);
        continue;
      }
      let json: Record<string, unknown> | null = null;
      try {
        const parsed = JSON.parse(text) as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
      } catch {
        // not JSON: reported below by status
      }
      if (res.status >= 200 && res.status < 300) {
        if (json) return { ok: true, status: res.status, body: json };
        // A success that cannot be read (an HTML page, a body cut short): asked again with the same
        // Idempotency-Key, which Stripe answers with the same object.
        lastProblem = `HTTP ${res.status} with a body that is not a JSON object (${text.slice(0, 60) || 'empty'})`;
        continue;
      }
      json ??= {};
      const error = (json.error as StripeError | undefined) ?? { message: text.slice(0, 200) || `HTTP ${res.status}` };
      if (res.status === 429 || res.status >= 500) {
        lastProblem = `HTTP ${res.status}: ${error.message ?? ''}`;
        continue;
      }
      return { ok: false, status: res.status, error };
    }
    throw unavailable(`Stripe did not answer after ${ATTEMPTS} tries (${lastProblem}). Retry later.`);
  }
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const idOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : str((value as { id?: unknown } | null)?.id);
const metadataOf = (value: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));

function toSession(body: Record<string, unknown>): CheckoutSession {
  return {
    id: String(body.id),
    url: str(body.url),
    status: (str(body.status) ?? 'open') as CheckoutSession['status'],
    paymentStatus: (str(body.payment_status) ?? 'unpaid') as CheckoutSession['paymentStatus'],
    amountTotal: Number(body.amount_total ?? 0),
    currency: str(body.currency) ?? '',
    paymentIntentId: idOf(body.payment_intent),
    customerId: idOf(body.customer),
    metadata: metadataOf(body.metadata),
  };
}

function toPaymentIntent(body: Record<string, unknown>): PaymentIntent {
  const lastError = body.last_payment_error as { message?: string; decline_code?: string; code?: string } | null;
  return {
    id: String(body.id),
    status: (str(body.status) ?? 'requires_payment_method') as PaymentIntent['status'],
    amount: Number(body.amount ?? 0),
    amountReceived: Number(body.amount_received ?? 0),
    currency: str(body.currency) ?? '',
    customerId: idOf(body.customer),
    paymentMethodId: idOf(body.payment_method),
    metadata: metadataOf(body.metadata),
    lastError: lastError
      ? [lastError.decline_code ?? lastError.code, lastError.message].filter(Boolean).join(': ') || 'declined'
      : null,
  };
}
