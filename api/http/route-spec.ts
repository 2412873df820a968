import type { Context } from 'koa';
import type { RateLimitClass } from '../../domain/platform/index.js';
import type { Caller, Environment } from '../../domain/shared/caller.js';
import type { Operation } from '../../domain/shared/operation.js';

/**
 * Credentials a route accepts, as the specification labels them: [None], [ApiKey], [TenantKey],
 * [Bearer], [PubKey], and the dashboard's cookie session.
 */
export type AuthScheme = 'none' | 'api_key' | 'tenant_key' | 'bearer' | 'publishable_key' | 'cookie';

/** POST, PUT and PATCH carry a JSON body; other methods take their input from the query string. */
export const takesBody = (method: string): boolean => ['post', 'put', 'patch'].includes(method.toLowerCase());

/** A route is data: its path, the operation it calls and how the answer is wrapped. */
export interface RouteSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Full path as served, parameters as `{name}` (OpenAPI style). */
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: a table holds operations of every input and output type
  operation: Operation<any, any>;
  tag: string;
  /** Accepted credentials, in the order they are tried. */
  auth: readonly AuthScheme[];
  /** Success status; 200 unless said otherwise. */
  status?: number;
  /** `data` wraps the output as `{data}` (`{message, data}` with a message); `raw` sends it as is. */
  envelope?: 'data' | 'raw';
  message?: string;
  /** Largest accepted JSON body (JSON_BODY_LIMIT when unset). */
  bodyLimit?: string;
  /** Also accepts multipart/form-data with this file field (the other fields in bracket notation). */
  upload?: UploadSpec;
  /** Overrides the operation's summary in the OpenAPI document. */
  summary?: string;
  /** Routes of one environment only (the `/v1/sandbox` set): other keys get API_KEY_ENVIRONMENT_MISMATCH. */
  environment?: Environment;
  /** The rate limit the route counts against; by default derived from its credentials (rate-limit.ts). */
  rateLimit?: RateLimitClass | 'none';
  /**
   * HTTP-only effects of a successful call (cookies): returns the body to send, or `undefined` for
   * an empty response. Used by the dashboard's session routes.
   */
  respond?: (ctx: Context, output: unknown, caller: Caller) => unknown;
  /**
   * The output is a file (domain/shared/file-output.ts) sent as its bytes, of these media types,
   * with Content-Disposition: the download links' target.
   */
  file?: readonly string[];
  /**
   * With `file`: the schema of the JSON the route answers instead when the operation returns no
   * file (a download route's `?link=true`, which answers a link).
   */
  alternateJson?: string;
  /** Error statuses the route answers beyond the usual ones, for the OpenAPI document (409, 410). */
  errors?: readonly number[];
  /**
   * A signed provider callback: the body is kept as its exact bytes (never parsed before the
   * signature is checked) and reaches the operation as `raw_body` (base64), with this header's
   * value as `signature` (InboundCallbackInput, domain/webhooks/operations/process-inbound-event.ts).
   * Without a header (providers that sign nothing), the query string carries the proof.
   */
  rawBody?: { signatureHeader?: string };
}

/** A route that also takes one file as multipart/form-data (spec: `original_file`, pdf or xml, 10 MB). */
export interface UploadSpec {
  /** The form field of the file; it reaches the operation as `{filename, content}` (base64). */
  field: string;
  maxBytes: number;
}
