/**
 * Types written by hand next to a schema, each checked against what FromSchema derives from it:
 * a change to one side that the other does not follow fails `npm run build`. Each says why it is
 * not the FromSchema type itself.
 */

import type { ProviderEvent } from '../../domain/transmission/einvoicing-provider.js';
import type { WebhookRequest } from '../../domain/webhooks/webhook-sender.js';
import type { EmptyInput } from '../../schemas/common.js';
import type { Assert, Equals, MutuallyAssignable, SchemaType } from './schema-type.js';

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
