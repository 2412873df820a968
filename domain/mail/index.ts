/** Public surface of the mail context for code outside it: what other contexts, api/ and workers/ use. */

export { balanceAlertMail } from './balance-alert-mail.js';
export { emailVerificationMail } from './email-verification-mail.js';
export { kybStatusMail } from './kyb-status-mail.js';
export type { Mailer } from './mailer.js';
export { mailerFor } from './mailer-for.js';
export { passwordResetMail } from './password-reset-mail.js';
export { signatureReminderMail } from './signature-reminder-mail.js';
export { webhookDisabledMail } from './webhook-disabled-mail.js';
