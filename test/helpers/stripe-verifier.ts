import Stripe from 'stripe';

/**
 * The independent verifier of our signatures: the `stripe` package's own webhook check
 * (`t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">`, 300 s tolerance). Throws when it refuses.
 */
export const constructEvent = (rawBody: string, header: string, secret: string, receivedAtMs?: number): unknown =>
  Stripe.webhooks.constructEvent(rawBody, header, secret, 300, undefined, receivedAtMs);

/** Whether stripe's verifier accepts the delivery (as received at `receivedAtMs`, default now). */
export function stripeAccepts(rawBody: string, header: string, secret: string, receivedAtMs?: number): boolean {
  try {
    constructEvent(rawBody, header, secret, receivedAtMs);
    return true;
  } catch {
    return false;
  }
}
