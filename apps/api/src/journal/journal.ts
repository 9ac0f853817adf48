import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { writeTransaction } from '../db/transaction.js';
import { writeAuditRows } from './audit-row.js';
import { type ChangeEntry, SECRET_FIELDS } from './entry.js';
import { planEvents, planManyEvents } from './event-plan.js';
import { recordWebhookEvents } from './outbox.js';

export { type AuditOriginSource, auditOriginOf, type ChangeEntry, diff } from './entry.js';

/** An entry as it is recorded: a password or hash never reaches the audit log or a webhook. */
const withoutSecrets = (entry: ChangeEntry): ChangeEntry => ({
  ...entry,
  changes: entry.changes
    ? Object.fromEntries(Object.entries(entry.changes).filter(([k]) => !SECRET_FIELDS.has(k)))
    : null,
});

/**
 * The journal: the one way a change is recorded. It writes the audit row and the change's webhook
 * events (the outbox) inside the caller's transaction, so the change, its record and its events
 * commit or roll back together, and no path can record a change without its events.
 */
export async function recordChange(db: Database, tx: Transaction | null, entry: ChangeEntry): Promise<void> {
  // An event about nothing else (a sign-in, an export) gets a transaction of its own: its row,
  // targets and webhook events commit together, in their turn among the writers.
  if (!tx) return writeTransaction(db, (own) => recordChange(db, own, entry));
  const recorded = withoutSecrets(entry);
  await writeAuditRows(db, tx, [recorded]);
  await recordWebhookEvents(db, tx, planEvents(recorded));
}

/**
 * Many changes of one single-user action at once (an import chunk's new accounts, each with its
 * own diff): their audit rows in multi-row statements, and their webhook events planned once over
 * all their users, each with its own changes — the rows and events `recordChange` would write one
 * by one (`user.create`).
 */
export async function recordChanges(db: Database, tx: Transaction, entries: readonly ChangeEntry[]): Promise<void> {
  const first = entries[0];
  if (!first) return;
  if (entries.some((e) => e.action !== first.action || e.targetType !== 'user' || (e.targetIds ?? []).length !== 1)) {
    throw new Error('recordChanges takes entries of one action, each about one user');
  }
  const recorded = entries.map(withoutSecrets);
  await writeAuditRows(db, tx, recorded);
  await recordWebhookEvents(db, tx, planManyEvents(recorded));
}
