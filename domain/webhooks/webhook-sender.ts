/** A signed request, ready to POST (prepared in a transaction, sent outside any). */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  /** The exact bytes that were signed. */
  body: string;
  /** Deadline of the whole call: DNS, connection, TLS, the answer and its body. */
  timeout_ms: number;
}

/** What one attempt gave. A failure is an outcome, never a throw. */
export interface WebhookOutcome {
  /** A 2xx answer within the deadline. */
  success: boolean;
  status_code: number | null;
  response_time_ms: number;
  /** The first RESPONSE_EXCERPT_BYTES bytes of the answer body. */
  response_body: string | null;
  error: string | null;
}

/** Bytes of a receiver's answer kept in the log. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** Sends webhook requests for users: through the SSRF guard, no redirects followed. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookOutcome>;
}

declare module '../shared/deps.js' {
  interface Deps {
    /** Outgoing webhooks over HTTP, through the SSRF guard. */
    webhookSender: WebhookSender;
  }
}
