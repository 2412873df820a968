import type { Clock } from '../shared/clock.js';
import type { Config } from '../shared/config.js';
import { LogMailer } from './log-mailer.js';
import type { Mailer } from './mailer.js';
import { SmtpMailer } from './smtp-mailer.js';

/** SMTP when SMTP_URL is set, else the readable local mail log (MAIL_LOG). */
export const mailerFor = (config: Config, clock: Clock): Mailer =>
  config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.mailFrom)
    : new LogMailer(config.mailLogPath, config.mailFrom, clock);
