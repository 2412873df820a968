/**
 * Types written by hand next to a schema, each checked against what FromSchema derives from it:
 * a change to one side that the other does not follow fails `npm run build`. Each says why it is
 * not the FromSchema type itself.
 */

import type { ErrorBody, ValidationErrorBody } from '../../domain/shared/error-body.js';
import type { ProviderEvent } from '../../domain/transmission/einvoicing-provider.js';
import type { WebhookRequest } from '../../domain/webhooks/webhook-sender.js';
import type { EmptyInput } from '../../schemas/common.js';
import type { UpdateInvoiceInput } from '../../schemas/invoice-reading.js';
import type { Assert, Equals, Fits, MutuallyAssignable, SchemaType } from './schema-type.js';

/** Same fields and types both ways, and no field on one side only. */
type Matches<A, B> = MutuallyAssignable<A, B> extends true ? Equals<keyof A, keyof B> : false;

/** `Record<string, never>` reads better at call sites than FromSchema's `{}` for "no parameters". */
export type EmptyInputMatches = Assert<MutuallyAssignable<EmptyInput, SchemaType<'EmptyInput'>>>;

/**
 * The e-invoicing provider port's event: the port's own vocabulary, documented field by field for
 * adapters; the schema carries it through a job (ProviderEventsInput, UploadOutcomeInput).
 */
export type ProviderEventMatches = Assert<Matches<ProviderEvent, SchemaType<'ProviderEventData'>>>;

/**
 * The SSRF-guarded HTTP sender's request: its contract, documented for the sender's callers; the
 * schema carries it from the delivery-preparing operation to the worker that sends it.
 */
export type WebhookRequestMatches = Assert<Matches<WebhookRequest, SchemaType<'WebhookRequest'>>>;

/**
 * FromSchema's type plus an index signature for the locked fields, whose names the schema computes
 * (FromSchema cannot see them): every input the schema accepts is one, with the same named fields.
 */
export type UpdateInvoiceInputMatches = Assert<
  Fits<SchemaType<'UpdateInvoiceInput'>, UpdateInvoiceInput> extends true
    ? Equals<keyof SchemaType<'UpdateInvoiceInput'>, 'id' | 'metadata' | 'archive_enabled'>
    : false
>;

/**
 * The error shape every surface reports: narrower than its schema (`code` is one of the error
 * catalogue's, the schema says a string), so it must fit the schema, not equal it.
 */
export type ErrorBodyFits = Assert<Fits<ErrorBody, SchemaType<'ErrorResponse'>>>;

/** The 422 body, `{message, errors}` and nothing else. */
export type ValidationErrorBodyMatches = Assert<Matches<ValidationErrorBody, SchemaType<'ValidationErrorResponse'>>>;
