import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../shared/config.js';

/** One text message. */
export interface SmsMessage {
  to: string;
  text: string;
}

/** Outgoing SMS, the signing codes of signers reached by phone. */
export interface SmsSender {
  send(message: SmsMessage, now: Date): Promise<void>;
}

/**
 * The local implementation: each message is appended to `sms.log` next to the mail log, one entry
 * per message, so a developer can read the code. No SMS gateway is configured in this service.
 */
export class LogSmsSender implements SmsSender {
  constructor(readonly file: string) {}

  async send(message: SmsMessage, now: Date): Promise<void> {
    const entry = `To: ${message.to}\nDate: ${now.toUTCString()}\n\n${message.text.trimEnd()}\n\n${'='.repeat(72)}\n`;
    await mkdir(path.dirname(this.file), { recursive: true });
    await appendFile(this.file, entry, { encoding: 'utf8', mode: 0o600 });
  }
}

export const smsSenderFor = (config: Config): SmsSender =>
  new LogSmsSender(path.join(path.dirname(config.mailLogPath), 'sms.log'));
