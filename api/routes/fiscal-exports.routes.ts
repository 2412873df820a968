import {
  downloadFiscalAttestation,
  downloadFiscalExport,
  downloadIscaMeasuresRegister,
  downloadIscaSelfAttestation,
  downloadIscaTechnicalDossier,
  exportForensic,
  getFiscalAttestation,
  getFiscalCompliance,
} from '../../domain/fiscal-exports/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const BASE = '/api/v1/tenant/fiscal';
const common = { tag: 'Fiscal', auth: ['tenant_key'] } as const;
const pdf = ['application/pdf'] as const;

/**
 * Spec "Fiscal [TenantKey + scope]", scope `fiscal:read`: compliance, the forensic export, the
 * yearly attestation (JSON and PDF) and the three ISCA documents (PDF).
 */
export const fiscalExportRoutes: RouteSpec[] = [
  { ...common, method: 'get', path: `${BASE}/compliance`, operation: getFiscalCompliance },
  { ...common, method: 'get', path: `${BASE}/forensic-export`, operation: exportForensic, file: ['application/zip'] },
  { ...common, method: 'get', path: `${BASE}/attestation/{year}`, operation: getFiscalAttestation },
  {
    ...common,
    method: 'get',
    path: `${BASE}/attestation/{year}/download`,
    operation: downloadFiscalAttestation,
    file: pdf,
  },
  {
    ...common,
    method: 'get',
    path: `${BASE}/isca/self-attestation/download`,
    operation: downloadIscaSelfAttestation,
    file: pdf,
  },
  {
    ...common,
    method: 'get',
    path: `${BASE}/isca/technical-dossier/download`,
    operation: downloadIscaTechnicalDossier,
    file: pdf,
  },
  {
    ...common,
    method: 'get',
    path: `${BASE}/isca/measures-register/download`,
    operation: downloadIscaMeasuresRegister,
    file: pdf,
  },
];

/**
 * Where fiscal export links point (the MCP `export_fec` and `export_forensic` tools): no
 * credentials, the signed token is the permission; the file is built when the link is used.
 */
export const fiscalExportFileRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/api/v1/files/fiscal/{token}',
    tag: 'Fiscal',
    auth: ['none'],
    operation: downloadFiscalExport,
    file: ['text/plain', 'application/zip'],
    errors: [403, 404, 410],
  },
];
