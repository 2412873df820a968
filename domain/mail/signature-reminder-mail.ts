import type { MailMessage } from './mailer.js';

export interface SignatureReminderMail {
  to: string;
  signerName: string;
  title: string;
  signingUrl: string;
}

/** The reminder a pending signer receives by e-mail: the request's title and the signing link. */
export function signatureReminderMail(mail: SignatureReminderMail): MailMessage {
  return {
    to: mail.to,
    subject: `Reminder: a document is waiting for your signature (${mail.title})`,
    text: [
      `Hello ${mail.signerName},`,
      '',
      `The document "${mail.title}" is still waiting for your signature.`,
      'Open this link to read it and sign it (a one-time code will be sent to you):',
      '',
      mail.signingUrl,
      '',
      'If you did not expect this request, ignore this message.',
    ].join('\n'),
  };
}
