import type { ProviderEvent, StatusToSend } from './einvoicing-provider.js';
import { cleanProviderEvent } from './lifecycle-events.js';

/** SuperPDP's `event` object (provider-apis.md §1.5). */
export interface SuperPdpEvent {
  id: number | string;
  invoice_id: number | string;
  status_code: string;
  status_text?: string;
  created_at: string;
  data?: { reason?: string } | null;
  details?: { reason?: string; notes?: { content_code?: string; contents?: { content?: string }[] }[] }[] | null;
}

/** The reason of an unfavourable status: `data.reason`, or the first detail's AFNOR code and note text. */
export function reasonOf(event: SuperPdpEvent): string | null {
  if (event.data?.reason) return event.data.reason;
  const detail = event.details?.[0];
  if (!detail) return null;
  const text = detail.notes
    ?.flatMap((note) => note.contents ?? [])
    .map((c) => c.content)
    .filter(Boolean)
    .join(' ');
  const parts = [detail.reason, text].filter(Boolean);
  return parts.length ? parts.join(': ') : null;
}

/** An ISO date when the provider's is one; else as sent, for the recording step to keep as an error. */
const isoOr = (value: unknown): string => {
  const date = new Date(value as string);
  return Number.isNaN(date.getTime()) ? String(value ?? '') : date.toISOString();
};

/** An event as the port has it; never throws, so one odd event cannot fail the whole page's read. */
export const toProviderEvent = (event: SuperPdpEvent): ProviderEvent => {
  const reason = reasonOf(event);
  return cleanProviderEvent({
    id: String(event.id),
    invoiceId: String(event.invoice_id),
    statusCode: String(event.status_code ?? ''),
    statusText: String(event.status_text ?? ''),
    reason: typeof reason === 'string' ? reason : reason === null ? null : String(reason),
    createdAt: isoOr(event.created_at),
  });
};

/**
 * `POST /v1.beta/invoice_events` body (§1.6): a reason goes as one detail with its AFNOR code and
 * a note; a payment reference (`fr:211`) goes as a note of its own, since an event detail carries
 * free text only in `notes[].contents[]`. Without either, no `details` at all (an empty array is
 * refused).
 */
export function statusBody(status: StatusToSend): Record<string, unknown> {
  const body: Record<string, unknown> = { invoice_id: Number(status.invoiceId), status_code: status.statusCode };
  const note = (content: string) => ({
    content_code: status.statusCode,
    contents: [{ content: content.slice(0, 900) }],
  });
  if (status.reason) {
    body.details = [
      { reason: status.reason.code, ...(status.reason.text ? { notes: [note(status.reason.text)] } : {}) },
    ];
  } else if (status.paymentReference) {
    body.details = [{ notes: [note(status.paymentReference)] }];
  }
  return body;
}
