import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../shared/clock.js';
import type { Mailer, MailMessage } from './mailer.js';

/** Printed between two messages of the log. */
export const MAIL_LOG_SEPARATOR = '='.repeat(72);

/**
 * The local mailer (SMTP_URL empty): each message is appended to one readable plain-text file
 * (MAIL_LOG, DATA_DIR/mail.log by default), headers first, so a developer can open the links.
 */
export class LogMailer implements Mailer {
  constructor(
    readonly file: string,
    private readonly from: string,
    private readonly clock: Clock,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const entry = [
      `From: ${this.from}`,
      `To: ${message.to}`,
      `Subject: ${message.subject}`,
      `Date: ${this.clock.now().toUTCString()}`,
      '',
      message.text.trimEnd(),
      '',
      MAIL_LOG_SEPARATOR,
      '',
    ].join('\n');
    await mkdir(path.dirname(this.file), { recursive: true });
    // One write per message with O_APPEND: messages of several workers do not interleave.
    await appendFile(this.file, entry, { encoding: 'utf8', mode: 0o600 });
  }
}
