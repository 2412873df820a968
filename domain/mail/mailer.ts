import type { Clock } from '../shared/clock.js';
import type { Config } from '../shared/config.js';
import { LogMailer } from './log-mailer.js';
import { SmtpMailer } from './smtp-mailer.js';

/** One plain-text e-mail. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Outgoing mail. Sending happens in workers, outside any transaction; a throw makes the job retry
 * (pg-boss backoff, then the dead-letter queue).
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** SMTP when SMTP_URL is set, else the readable local mail log (MAIL_LOG). */
export const mailerFor = (config: Config, clock: Clock): Mailer =>
  config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.mailFrom)
    : new LogMailer(config.mailLogPath, config.mailFrom, clock);
