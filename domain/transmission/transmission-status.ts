import type { InvoiceTransmissionStatus } from '../../schemas/transmission.js';
import type { InvoiceRow } from '../invoicing/index.js';

/** One entry of bulk-submit and bulk-status (schema InvoiceTransmissionStatus). */
export const transmissionStatusOf = (invoice: InvoiceRow): InvoiceTransmissionStatus => ({
  id: invoice.id,
  status: invoice.status,
  status_message: invoice.status_message,
  pdp_id: invoice.pdp_id,
  submitted_at: invoice.submitted_at?.toISOString() ?? null,
  error: null,
});
