import { createCreditNote } from '../../domain/credit-notes/operations/create-credit-note.js';
import { createSubTenantCreditNote } from '../../domain/credit-notes/operations/create-sub-tenant-credit-note.js';
import { deleteCreditNote } from '../../domain/credit-notes/operations/delete-credit-note.js';
import { downloadCreditNote } from '../../domain/credit-notes/operations/download-credit-note.js';
import { downloadCreditNoteFile } from '../../domain/credit-notes/operations/download-credit-note-file.js';
import { getCreditNote } from '../../domain/credit-notes/operations/get-credit-note.js';
import { getRemainingCreditable } from '../../domain/credit-notes/operations/get-remaining-creditable.js';
import { listCreditNotes } from '../../domain/credit-notes/operations/list-credit-notes.js';
import { listSubTenantCreditNotes } from '../../domain/credit-notes/operations/list-sub-tenant-credit-notes.js';
import { sendCreditNote } from '../../domain/credit-notes/operations/send-credit-note.js';
import type { RouteSpec } from '../http/route-spec.js';

/** [Bearer] in the specification; the owner's secret keys too, as for invoices (a tenant's included). */
const user = { tag: 'Credit notes', auth: ['bearer', 'cookie', 'api_key'] } as const;
const BY_ID = '/api/v1/credit-notes/{id}';

/** Spec "Credit notes" [Bearer], and the remaining-creditable figures of "Invoices". */
export const creditNoteRoutes: RouteSpec[] = [
  { ...user, method: 'get', path: '/api/v1/credit-notes', operation: listCreditNotes, envelope: 'raw' },
  {
    ...user,
    method: 'post',
    path: '/api/v1/credit-notes',
    operation: createCreditNote,
    status: 201,
    message: 'Credit note created.',
    // Paid from the prepaid balance in production, as invoices are; 503 while the fiscal kill switch is active.
    errors: [402, 409, 503],
  },
  { ...user, method: 'get', path: BY_ID, operation: getCreditNote },
  { ...user, method: 'delete', path: BY_ID, operation: deleteCreditNote, message: 'Credit note deleted.' },
  {
    ...user,
    method: 'post',
    path: `${BY_ID}/send`,
    operation: sendCreditNote,
    message: 'Credit note sent.',
    errors: [409],
  },
  {
    ...user,
    method: 'get',
    path: `${BY_ID}/download`,
    operation: downloadCreditNote,
    // The file itself, as the specification says; `?link=true` answers a 15-minute link instead.
    file: ['application/pdf', 'application/xml'],
    alternateJson: 'DownloadLink',
    envelope: 'raw',
    errors: [409],
  },
  {
    ...user,
    tag: 'Invoices',
    method: 'get',
    path: '/api/v1/invoices/{invoice}/remaining-creditable',
    operation: getRemainingCreditable,
  },
];

/** Spec "Tenant invoices and credit notes" [TenantKey]. */
export const tenantCreditNoteRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/api/v1/tenant/sub-tenants/{subTenantId}/credit-notes',
    tag: 'Tenant credit notes',
    auth: ['tenant_key'],
    operation: createSubTenantCreditNote,
    status: 201,
    message: 'Credit note created.',
    errors: [402, 409, 503],
  },
  {
    method: 'get',
    path: '/api/v1/tenant/sub-tenants/{subTenantId}/credit-notes',
    tag: 'Tenant credit notes',
    auth: ['tenant_key'],
    operation: listSubTenantCreditNotes,
    envelope: 'raw',
  },
];

/** Where credit-note download links point: no credentials, the signed token is the permission. */
export const creditNoteFileRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/api/v1/files/credit-notes/{token}',
    tag: 'Credit notes',
    auth: ['none'],
    operation: downloadCreditNoteFile,
    file: ['application/pdf', 'application/xml'],
    errors: [403, 410],
  },
];
