import type { Transaction } from 'sequelize';
import type { HandlerContext } from '../../context.js';
import type { User } from '../../db/models/index.js';
import { issueLink } from '../../auth/user-links.js';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { enqueueMail } from '../../mail/outbox.js';
import { mailSettings, publicLink } from '../../mail/settings.js';

export interface Invited {
  userId: number;
  expiresAt: Date;
  sent: boolean;
  /** The link, when no mail carries it (no SMTP_URL): the administrator passes it on. */
  url: string | null;
}

/**
 * Invites users already judged (locked, live, active, never signed in, under the caller's
 * ceiling) in the caller's transaction: a new single-use link each, voiding the earlier ones;
 * the users' invitation columns; the mail in the outbox (sent when this commits, never for a
 * change rolled back); one audit row naming them (`user.invite`, whose event is `user.invited`).
 * The token appears only in the mail (sealed in the outbox) and, without mail, in the answer.
 */
export async function inviteUsers(
  ctx: HandlerContext,
  tx: Transaction,
  users: readonly User[],
  context: Record<string, unknown> = {},
  now = new Date(),
): Promise<Invited[]> {
  const { db, config } = ctx;
  if (users.length === 0) return [];
  const settings = mailSettings(config);
  const ttlMs = config.INVITE_TTL_HOURS * 3_600_000;
  const invited: Invited[] = [];
  const mails = [];
  for (const user of users) {
    const link = await issueLink(
      db,
      tx,
      { userId: user.id, purpose: 'invitation', ttlMs, createdBy: ctx.actor.id },
      now,
    );
    const url = publicLink(settings, `/invite/${link.token}`);
    mails.push({
      to: user.email,
      template: 'invitation' as const,
      vars: { name: user.name, url, expires_at: link.expiresAt.toISOString() },
    });
    invited.push({
      userId: user.id,
      expiresAt: link.expiresAt,
      sent: settings.enabled,
      url: settings.enabled ? null : url,
    });
  }
  const expiresAt = invited[0]?.expiresAt as Date;
  await db.models.User.update(
    { invitation_sent_at: now, invitation_expires_at: expiresAt, invitation_accepted_at: null },
    { where: { id: users.map((u) => u.id) }, transaction: tx, silent: true },
  );
  await enqueueMail(db, tx, settings, mails);
  await recordChange(db, tx, {
    ...auditOriginOf(ctx),
    action: 'user.invite',
    targetType: 'user',
    targetIds: users.map((u) => u.id),
    context: { expires_at: expiresAt.toISOString(), mailed: settings.enabled, ...context },
  });
  return invited;
}
