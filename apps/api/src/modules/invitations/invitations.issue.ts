import type { Transaction } from 'sequelize';
import type { HandlerContext } from '../../context.js';
import { issueLinks } from '../../auth/user-links.js';
import { chunks } from '../../repositories/chunks.js';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { enqueueMail } from '../../mail/outbox.js';
import { mailSettings, publicLink } from '../../mail/settings.js';

/** Who is invited: a user row (the model's, or a batch's plain row). */
export interface Invitee {
  id: number;
  name: string;
  email: string;
}

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
  users: readonly Invitee[],
  context: Record<string, unknown> = {},
  now = new Date(),
): Promise<Invited[]> {
  const { db, config } = ctx;
  if (users.length === 0) return [];
  const settings = mailSettings(config);
  const ids = users.map((u) => u.id);
  // One statement per few hundred users for the links, the users' columns, the outbox and the
  // audit: a bulk invitation's chunk of thousands costs a handful of round trips.
  const links = await issueLinks(
    db,
    tx,
    { userIds: ids, purpose: 'invitation', ttlMs: config.INVITE_TTL_HOURS * 3_600_000, createdBy: ctx.actor.id },
    now,
  );
  const expiresAt = links[0]?.expiresAt as Date;
  const urls = links.map((link) => publicLink(settings, `/invite/${link.token}`));
  const mails = users.map((user, i) => ({
    to: user.email,
    template: 'invitation' as const,
    vars: { name: user.name, url: urls[i] as string, expires_at: expiresAt.toISOString() },
  }));
  for (const part of chunks(ids)) {
    await db.models.User.update(
      { invitation_sent_at: now, invitation_expires_at: expiresAt, invitation_accepted_at: null },
      { where: { id: part }, transaction: tx, silent: true },
    );
  }
  await enqueueMail(db, tx, settings, mails);
  await recordChange(db, tx, {
    ...auditOriginOf(ctx),
    action: 'user.invite',
    targetType: 'user',
    targetIds: ids,
    context: { expires_at: expiresAt.toISOString(), mailed: settings.enabled, ...context },
  });
  return users.map((user, i) => ({
    userId: user.id,
    expiresAt,
    sent: settings.enabled,
    url: settings.enabled ? null : (urls[i] as string),
  }));
}
