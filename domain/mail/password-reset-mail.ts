import type { MailMessage } from './mailer.js';

export interface PasswordResetMail {
  to: string;
  firstName: string | null;
  /** The service's external base URL (no trailing slash). */
  baseUrl: string;
  token: string;
  expiresAt: string;
}

/** The reset e-mail: a link to the dashboard's reset page with the token and the e-mail. */
export function passwordResetMail(mail: PasswordResetMail): MailMessage {
  const link = `${mail.baseUrl}/reset-password?${new URLSearchParams({ token: mail.token, email: mail.to })}`;
  return {
    to: mail.to,
    subject: 'Reset your password',
    text: [
      `Hello${mail.firstName ? ` ${mail.firstName}` : ''},`,
      '',
      'Someone (hopefully you) asked to reset the password of your e-invoicing account.',
      'Open this link to choose a new one:',
      '',
      link,
      '',
      `The link works once, until ${mail.expiresAt} (60 minutes). Resetting signs you out everywhere.`,
      'If you did not ask for it, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
  };
}
