import { canonicalEmail } from '@app/contracts';
import { z } from 'zod';
import type { Database } from '../db/database.js';
import type { User } from '../db/models/index.js';
import { bucketKey } from './rate-limit.js';

/**
 * What a sign-in attempt's e-mail reaches, in one place: the account, the counter and the audit.
 *
 * An attempt reaches an account only under the account's canonical spelling, compared byte for
 * byte. MariaDB's `utf8mb4_unicode_ci` finds `known@x.tést` for `known@x.test`, so the row the
 * collation finds is kept only when its address, canonicalised, is exactly the one typed (an
 * address stored with capitals before e-mails were canonicalised still matches its canonical
 * spelling). The per-account counter is keyed by that same canonical spelling whether or not an
 * account has it, so no spelling answers differently for an existing account than for a
 * missing one, and every spelling that signs into an account spends that account's counter.
 */
export async function findLoginAccount(db: Database, email: string): Promise<User | null> {
  // The default scope hides deleted users, so a deleted account looks exactly like an unknown one.
  const found = await db.models.User.scope('withPassword').findOne({ where: { email } });
  return found && canonicalEmail(found.email) === email ? found : null;
}

/** The per-account counter of an attempt: its canonical e-mail, whether an account has it or not. */
export const loginAttemptsBucket = (email: string) => bucketKey('login-email', email);

/** An e-mail kept in an audit row is at most as long as a stored one. */
const AUDITED_EMAIL_MAX = 255;

/** The shape the user forms require of an address (`z.email`), within a stored address's length. */
const auditableEmail = z.email().max(AUDITED_EMAIL_MAX);

/**
 * What a failed sign-in's audit row says about the e-mail typed: the canonical address when it
 * has an address's shape, else null and `email_withheld` — people type passwords into the
 * e-mail field, and audit readers must not see them.
 */
export function auditedLoginEmail(email: string): { email: string } | { email: null; email_withheld: true } {
  return auditableEmail.safeParse(email).success ? { email } : { email: null, email_withheld: true };
}
