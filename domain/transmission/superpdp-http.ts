import { AppError } from '../shared/app-error.js';

/** A provider that cannot be reached or answers "later" (network, timeout, 5xx, 429, 403 under review): retried. */
export const providerUnavailable = (message: string, cause?: unknown): AppError =>
  new AppError('PROVIDER_UNAVAILABLE', message, { retryable: true, cause });

/**
 * One HTTP call with a timeout. Network errors and timeouts become PROVIDER_UNAVAILABLE (retryable),
 * never a hang: the worker's job is retried with backoff.
 */
export async function fetchWithTimeout(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const why = (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (err as Error).message;
    throw providerUnavailable(`The e-invoicing provider cannot be reached: ${why}.`, err);
  }
}

/** SuperPDP's `http_ko` body (provider-apis.md §1.8) or RFC 6749 error, read as one short message. */
export async function errorMessageOf(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: string; error?: string; error_description?: string };
    const message = body.message ?? [body.error, body.error_description].filter(Boolean).join(': ');
    if (message) return message.slice(0, 500);
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 500) || `HTTP ${res.status}`;
}

/** Throws the retryable error for answers that mean "try later"; returns for the others. */
export async function throwIfUnavailable(res: Response, what: string): Promise<void> {
  if (res.status === 403) {
    throw providerUnavailable(
      `SuperPDP refuses ${what} (403): the company is probably still under review (KYB): ${await errorMessageOf(res)}`,
    );
  }
  if (res.status === 429 || res.status >= 500) {
    throw providerUnavailable(`SuperPDP answered ${res.status} to ${what}: ${await errorMessageOf(res)}`);
  }
  if (res.status >= 300 && res.status < 400) {
    throw providerUnavailable(`SuperPDP answered a redirect (${res.status}) to ${what}.`);
  }
}

/**
 * The JSON of a successful answer. A body that is not JSON (an HTML error page of a proxy, an answer
 * cut short) means the provider is not answering properly: retryable, counted like a 5xx, so a
 * lasting fault ends the invoice `failed` with this reason instead of leaving it submitted.
 */
export async function jsonBody<T>(res: Response, what: string): Promise<T> {
  const text = await res.text().catch(() => '');
  try {
    return JSON.parse(text) as T;
  } catch {
    const sample = text.slice(0, 80).replace(/\s+/g, ' ');
    throw providerUnavailable(`SuperPDP's answer to ${what} is not JSON (HTTP ${res.status}: ${sample || 'empty'}).`);
  }
}
