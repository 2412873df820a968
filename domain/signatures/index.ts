/**
 * Public surface of the signatures context for code outside it: what other contexts, api/ and
 * workers/ use. Its operations are exported from ./operations/index.ts.
 */

export { type PdfInfo, readPdfInfo } from './pdf/index.js';
export { type SignatureProviders, signatureProvidersFor } from './provider/signature-providers.js';
export { type SmsSender, smsSenderFor } from './sms-sender.js';
