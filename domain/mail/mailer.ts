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

declare module '../shared/deps.js' {
  interface Deps {
    /** Outgoing mail (SMTP, or the local mail log). */
    mailer: Mailer;
  }
}
