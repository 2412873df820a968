import { readFile } from 'node:fs/promises';
import type { Knex } from 'knex';
import { sendEmailVerification } from '../../workers/handlers/send-email-verification.js';
import { postJson } from './http.js';
import type { TestApp } from './test-app.js';

interface JobRow {
  data: { tenantId: string; userId: string };
}

/** Works the user's queued verification mails the way the worker does (into the app's MAIL_LOG). */
export async function sendQueuedVerificationMails(app: TestApp, userId: string): Promise<number> {
  const { rows } = await app.ownerDb.raw<{ rows: JobRow[] }>(
    "select data from pgboss.job where name = 'send-email-verification' and data->>'userId' = ? order by created_on",
    [userId],
  );
  for (const job of rows) await sendEmailVerification(job.data, app.deps);
  return rows.length;
}

/** The token of the last verification link mailed to `email`, read out of the mail log. */
export async function mailedVerificationToken(mailLog: string, email: string): Promise<string | undefined> {
  const log = await readFile(mailLog, 'utf8').catch(() => '');
  const entries = log.split(/^={72}$/m).filter((entry) => entry.includes(`To: ${email}\n`));
  const link = entries.at(-1)?.match(/^(https?:\/\/\S+\/verify-email\?\S+)$/m)?.[1];
  return link ? (new URL(link).searchParams.get('token') ?? undefined) : undefined;
}

/** Verifies a registered user's e-mail the way its owner would: the mailed link, then the route. */
export async function verifyThroughMail(app: TestApp, mailLog: string, user: { userId: string; email: string }) {
  await sendQueuedVerificationMails(app, user.userId);
  const token = await mailedVerificationToken(mailLog, user.email);
  if (!token) throw new Error(`no verification mail for ${user.email}`);
  return app.request('/api/v1/auth/verify-email', postJson({ token }));
}

/** Test setup only: marks a user's e-mail verified in the database. */
export async function markEmailVerified(db: Knex, userId: string): Promise<void> {
  await db('users').where({ id: userId }).update({ email_verified_at: new Date() });
}
