import type { MailMessage } from './mailer.js';

export interface EmailVerificationMail {
  to: string;
  firstName: string | null;
  /** The service's external base URL (no trailing slash). */
  baseUrl: string;
  token: string;
  expiresAt: string;
}

/**
 * The verification e-mail: a link to the dashboard's verification page, which posts the token to
 * POST /api/v1/auth/verify-email (a page, not a GET that verifies: mail scanners open links).
 */
export function emailVerificationMail(mail: EmailVerificationMail): MailMessage {
  const link = `${mail.baseUrl}/verify-email?${new URLSearchParams({ token: mail.token })}`;
  return {
    to: mail.to,
    subject: 'Confirm your e-mail address',
    text: [
      `Hello${mail.firstName ? ` ${mail.firstName}` : ''},`,
      '',
      'An e-invoicing account was opened with this e-mail address. Open this link to confirm it is yours:',
      '',
      link,
      '',
      `The link works until ${mail.expiresAt} (24 hours). Production API keys need a confirmed address.`,
      'If you did not open this account, do not open the link and ignore this e-mail; signing in with',
      'Google under this address takes the account over and locks out whoever opened it.',
    ].join('\n'),
  };
}
