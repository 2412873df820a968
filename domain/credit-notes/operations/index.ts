/** The operations of the credit-notes context: what routes, job handlers and the CLI call through execute(). */

export { createCreditNote } from './create-credit-note.js';
export { createSubTenantCreditNote } from './create-sub-tenant-credit-note.js';
export { deleteCreditNote } from './delete-credit-note.js';
export { downloadCreditNote } from './download-credit-note.js';
export { downloadCreditNoteFile } from './download-credit-note-file.js';
export { generateCreditNoteDocuments } from './generate-credit-note-documents.js';
export { getCreditNote } from './get-credit-note.js';
export { getCreditNoteAuditTrail } from './get-credit-note-audit-trail.js';
export { getRemainingCreditable } from './get-remaining-creditable.js';
export { listCreditNotes } from './list-credit-notes.js';
export { listSubTenantCreditNotes } from './list-sub-tenant-credit-notes.js';
export { sendCreditNote } from './send-credit-note.js';
