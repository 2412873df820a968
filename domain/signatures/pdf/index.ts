/**
 * The PDF engine of simple electronic signatures: reading a document's pages, stamping visible
 * signature blocks and a PAdES signature by incremental update, and the proof file (audit trail).
 */
export { type SigningIdentity, simulatorIdentity } from './cms-signature.js';
export { PDF_INFO_BUDGET, type PdfInfoOutcome, PdfInfoPool, pdfInfoPool } from './pdf-info-pool.js';
export { type PdfRect, type SignaturePosition, toPdfRect } from './position-rect.js';
export { type ProofEvent, type ProofFile, renderProofPdf } from './proof-pdf.js';
export { type PdfInfo, readPdfInfo } from './read-pdf-info.js';
export { type SignerStamp, type SignPdfOptions, signPdf } from './sign-pdf.js';
