import type { Transaction } from 'sequelize';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { User } from '../../db/models/index.js';
import { issueLink } from '../../auth/user-links.js';
import { enqueueMail } from '../../mail/outbox.js';
import { mailSettings, publicLink } from '../../mail/settings.js';

export interface ResetIssued {
  expiresAt: Date;
  sent: boolean;
  /** The link, when no mail carries it (no SMTP_URL): only an administrator's request answers it. */
  url: string | null;
}

/**
 * A new reset link for a user already judged (locked, live, active), in the caller's
 * transaction: it voids the user's earlier reset links, and its mail goes to the outbox (sent
 * when this commits, never for a change rolled back). The token leaves only in the mail (sealed
 * in the outbox) and, without mail, in `url` for the caller to decide what to do with it.
 */
export async function issueResetLink(
  db: Database,
  config: AppConfig,
  tx: Transaction,
  user: User,
  createdBy: number | null,
  now = new Date(),
): Promise<ResetIssued> {
  const settings = mailSettings(config);
  const link = await issueLink(
    db,
    tx,
    { userId: user.id, purpose: 'password_reset', ttlMs: config.RESET_TTL_MINUTES * 60_000, createdBy },
    now,
  );
  const url = publicLink(settings, `/reset-password/${link.token}`);
  const queued = await enqueueMail(db, tx, settings, {
    to: user.email,
    template: 'password-reset',
    vars: { name: user.name, url, expires_at: link.expiresAt.toISOString() },
  });
  return { expiresAt: link.expiresAt, sent: queued.sent, url: queued.sent ? null : url };
}
