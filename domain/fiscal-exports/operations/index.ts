/** The operations of the fiscal-exports context: what routes, job handlers and the CLI call through execute(). */

export { downloadFiscalAttestation } from './download-fiscal-attestation.js';
export { downloadFiscalExport } from './download-fiscal-export.js';
export { downloadIscaMeasuresRegister } from './download-isca-measures-register.js';
export { downloadIscaSelfAttestation } from './download-isca-self-attestation.js';
export { downloadIscaTechnicalDossier } from './download-isca-technical-dossier.js';
export { exportForensic } from './export-forensic.js';
export { getFiscalAttestation } from './get-fiscal-attestation.js';
export { getFiscalCompliance } from './get-fiscal-compliance.js';
export { getFiscalExportLink } from './get-fiscal-export-link.js';
