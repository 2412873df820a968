/** The operations of the anchoring context: what routes, job handlers and the CLI call through execute(). */

export { completeFiscalAnchor } from './complete-fiscal-anchor.js';
export { downloadAnchorCaCertificate } from './download-anchor-ca-certificate.js';
export { downloadAnchorToken } from './download-anchor-token.js';
export { getAnchorToStamp } from './get-anchor-to-stamp.js';
export { listFiscalAnchors } from './list-fiscal-anchors.js';
export { recordAnchorAttempt } from './record-anchor-attempt.js';
