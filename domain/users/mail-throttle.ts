import type { Knex } from 'knex';

/** Which mail of a user is throttled. */
export type ThrottledMail = 'reset_mail_queued_at' | 'verification_mail_queued_at';

/**
 * Claims a user's next mail of a kind: true (and the time recorded) when none was queued in the last
 * `seconds`, false otherwise. The conditional update takes the user's row lock, so concurrent
 * requests take turns and exactly one of a burst wins, whatever the clock minute.
 */
export async function claimMailSlot(
  tx: Knex,
  user: { tenantId: string; userId: string },
  mail: ThrottledMail,
  seconds: number,
  now: Date,
): Promise<boolean> {
  const since = new Date(now.getTime() - seconds * 1000);
  const claimed = await tx('users')
    .where({ tenant_id: user.tenantId, id: user.userId })
    .andWhere((q) => q.whereNull(mail).orWhere(mail, '<=', since))
    .update({ [mail]: now })
    .returning('id');
  return claimed.length > 0;
}
