import type { MailMessage } from './mailer.js';

export interface BalanceAlertMail {
  to: string;
  kind: 'low' | 'critical' | 'auto_reload_failed';
  /** EUR, 2 decimals. */
  balance: string;
  /** The threshold crossed, or the auto-reload's amount. */
  threshold: string | null;
  reason: string | null;
}

/** The billing e-mail sent when the balance crosses an alert threshold, or an auto-reload fails. */
export function balanceAlertMail(mail: BalanceAlertMail): MailMessage {
  const topUp =
    'Top up with POST /api/v1/tenant/billing/top-up, or turn on auto-reload with PUT /api/v1/balance/settings.';
  if (mail.kind === 'auto_reload_failed') {
    return {
      to: mail.to,
      subject: 'Your balance auto-reload failed',
      text: [
        'Hello,',
        '',
        `We could not reload your prepaid balance with ${mail.threshold} EUR on your saved card.`,
        `Reason: ${mail.reason ?? 'unknown'}`,
        `Your balance is ${mail.balance} EUR. Paid operations are refused (402) once it no longer covers them.`,
        '',
        'Pay one top-up by checkout to save a new card: POST /api/v1/tenant/billing/top-up.',
      ].join('\n'),
    };
  }
  const word = mail.kind === 'critical' ? 'critically low' : 'low';
  return {
    to: mail.to,
    subject: `Your balance is ${word}: ${mail.balance} EUR`,
    text: [
      'Hello,',
      '',
      `Your prepaid balance went below your ${mail.kind} alert threshold of ${mail.threshold} EUR:`,
      `it is ${mail.balance} EUR. Paid operations are refused (402) once it no longer covers them.`,
      '',
      topUp,
    ].join('\n'),
  };
}
