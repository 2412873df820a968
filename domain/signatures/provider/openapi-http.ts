import { AppError } from '../../shared/app-error.js';

/** Openapi's hosts (provider-apis.md §2.1): production, or the test hosts with sandbox credit. */
export interface OpenapiHosts {
  esignature: string;
  oauth: string;
}

/** `baseUrl` (OPENAPI_BASE_URL) stands for both hosts: their paths do not overlap. */
export const openapiHostsOf = (testMode: boolean, baseUrl: string | null = null): OpenapiHosts =>
  baseUrl
    ? { esignature: baseUrl, oauth: baseUrl }
    : testMode
      ? { esignature: 'https://test.esignature.openapi.com', oauth: 'https://test.oauth.openapi.com' }
      : { esignature: 'https://esignature.openapi.com', oauth: 'https://oauth.openapi.com' };

export interface OpenapiHttpSettings {
  timeoutMs: number;
  /** Largest answer read; a larger one is refused before it fills the memory. */
  maxBytes: number;
  /** Tries of a call that fails with a network error, a timeout, 429 or 5xx (1 = no retry). */
  tries: number;
  /** Pause before the n-th retry (n from 1), in milliseconds. */
  backoffMs(n: number): number;
}

export const DEFAULT_OPENAPI_HTTP: Omit<OpenapiHttpSettings, 'timeoutMs'> = {
  maxBytes: 64 * 1024 * 1024,
  tries: 3,
  backoffMs: (n) => 250 * 4 ** (n - 1),
};

/** An answer read whole, under the byte budget. */
export interface OpenapiAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

export const providerUnavailable = (message: string, cause?: unknown): AppError =>
  new AppError('PROVIDER_UNAVAILABLE', message, { retryable: true, cause });

export const providerRefused = (message: string): AppError =>
  new AppError('PROVIDER_REFUSED', message, { retryable: false });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One call to Openapi, retried on what means "later" (network, timeout, 429, 5xx) with backoff; the
 * answer is read under a byte budget and a deadline, never trusted further. Other statuses (4xx)
 * are returned for the caller to read: 401 re-mints a token, 404 may be no error.
 */
export async function openapiCall(
  settings: OpenapiHttpSettings,
  url: string,
  init: RequestInit,
  what: string,
): Promise<OpenapiAnswer> {
  let last: AppError | null = null;
  for (let attempt = 1; attempt <= settings.tries; attempt += 1) {
    if (attempt > 1) await sleep(settings.backoffMs(attempt - 1));
    let answer: OpenapiAnswer;
    try {
      answer = await fetchBounded(settings, url, init);
    } catch (err) {
      if (err instanceof AppError) throw err;
      const code = ((err as Error).cause as { code?: string } | undefined)?.code;
      const why =
        (err as Error).name === 'TimeoutError'
          ? `no answer within ${settings.timeoutMs} ms`
          : `${(err as Error).message}${code ? ` (${code})` : ''}`;
      last = providerUnavailable(`Openapi cannot be reached (${what}): ${why}.`, err);
      continue;
    }
    if (answer.status === 429 || answer.status >= 500) {
      last = providerUnavailable(`Openapi answered ${answer.status} to ${what}: ${messageOf(answer)}`);
      continue;
    }
    if (answer.status >= 300 && answer.status < 400) {
      throw providerUnavailable(`Openapi answered a redirect (${answer.status}) to ${what}.`);
    }
    return answer;
  }
  throw last ?? providerUnavailable(`Openapi cannot be reached (${what}).`);
}

async function fetchBounded(settings: OpenapiHttpSettings, url: string, init: RequestInit): Promise<OpenapiAnswer> {
  const signal = AbortSignal.timeout(settings.timeoutMs);
  const res = await fetch(url, { ...init, redirect: 'manual', signal });
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > settings.maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw providerUnavailable(`Openapi's answer is larger than ${settings.maxBytes} bytes (${declared}).`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  if (res.body) {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > settings.maxBytes) {
        throw providerUnavailable(`Openapi's answer is larger than ${settings.maxBytes} bytes.`);
      }
      chunks.push(Buffer.from(chunk));
    }
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.concat(chunks) };
}

/** Openapi's envelope `{success, message, error, data}`: its message, for an error. */
export function messageOf(answer: OpenapiAnswer): string {
  const text = answer.body.subarray(0, 4096).toString('utf8');
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    const message = typeof body.message === 'string' ? body.message : '';
    const code = typeof body.error === 'number' || typeof body.error === 'string' ? ` (error ${body.error})` : '';
    if (message || code) return `${message}${code}`.slice(0, 500);
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 500) || `HTTP ${answer.status}`;
}

/**
 * The JSON of a successful answer, unwrapped from `{data: …}` when the provider wraps it (the live
 * API does, the published schema does not: provider-apis.md §2.3). Anything else is refused.
 */
export function jsonOf(answer: OpenapiAnswer, what: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw providerUnavailable(`Openapi's answer to ${what} is not JSON.`);
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const envelope = body as { success?: unknown; data?: unknown };
    if (envelope.success === false) throw providerRefused(`Openapi refused ${what}: ${messageOf(answer)}`);
    if ('data' in envelope && envelope.data !== undefined && envelope.data !== null) return envelope.data;
  }
  return body;
}

/**
 * A PDF answer: its bytes, refused unless they are a PDF, whole: it starts with `%PDF-` and ends with
 * `%%EOF` (ISO 32000-1 §7.5.5; only white space may follow), so a file cut short is never stored.
 */
export function pdfOf(answer: OpenapiAnswer, what: string): Buffer {
  if (answer.body.subarray(0, 5).toString('latin1') !== '%PDF-') {
    throw providerUnavailable(`Openapi's answer to ${what} is not a PDF (${answer.contentType || 'no content type'}).`);
  }
  if (!/%%EOF\s*$/.test(answer.body.subarray(-1024).toString('latin1'))) {
    throw providerUnavailable(`Openapi's answer to ${what} is a PDF cut short (no %%EOF at its end).`);
  }
  return answer.body;
}

/** Throws for an answer that is not a success: 4xx is a refusal (PROVIDER_REFUSED), with the provider's message. */
export function assertOk(answer: OpenapiAnswer, what: string): void {
  if (answer.status >= 200 && answer.status < 300) return;
  if (answer.status === 402) {
    throw providerUnavailable(
      `Openapi refuses ${what} (402): the account's wallet is probably exhausted: ${messageOf(answer)}`,
    );
  }
  throw providerRefused(`Openapi refused ${what} (${answer.status}): ${messageOf(answer)}`);
}
