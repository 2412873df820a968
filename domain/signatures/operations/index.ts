/** Every operation of the signatures context. */

export { cancelSandboxSignature } from './cancel-sandbox-signature.js';
export { cancelSignature } from './cancel-signature.js';
export { completeSignature } from './complete-signature.js';
export { createSignature } from './create-signature.js';
export { downloadSignatureFile } from './download-signature-file.js';
export { expireSignatures } from './expire-signatures.js';
export { getSandboxSignatureDownloadLink } from './get-sandbox-signature-download-link.js';
export { getSignature } from './get-signature.js';
export { getSignatureDownloadLink } from './get-signature-download-link.js';
export { getSignatureReminder } from './get-signature-reminder.js';
export { getSigningDocument } from './get-signing-document.js';
export { getSigningPage, type SigningPageView } from './get-signing-page.js';
export { issueSigningCode } from './issue-signing-code.js';
export { listSignatures } from './list-signatures.js';
export { refuseSignature } from './refuse-signature.js';
export { remindSandboxSignature } from './remind-sandbox-signature.js';
export { remindSignature } from './remind-signature.js';
export { sendSigningCode } from './send-signing-code.js';
export { signSignature } from './sign-signature.js';
export { verifySigningCode } from './verify-signing-code.js';
