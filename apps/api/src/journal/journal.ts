import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { writeTransaction } from '../db/transaction.js';
import { writeAuditRow } from './audit-row.js';
import { type ChangeEntry, SECRET_FIELDS } from './entry.js';
import { recordWebhookEvents } from './outbox.js';

export { type AuditOriginSource, auditOriginOf, type ChangeEntry, diff } from './entry.js';

/**
 * The journal: the one way a change is recorded. It writes the audit row and the change's webhook
 * events (the outbox) inside the caller's transaction, so the change, its record and its events
 * commit or roll back together, and no path can record a change without its events.
 */
export async function recordChange(db: Database, tx: Transaction | null, entry: ChangeEntry): Promise<void> {
  // An event about nothing else (a sign-in, an export) gets a transaction of its own: its row,
  // targets and webhook events commit together, in their turn among the writers.
  if (!tx) return writeTransaction(db, (own) => recordChange(db, own, entry));
  const changes = entry.changes
    ? Object.fromEntries(Object.entries(entry.changes).filter(([k]) => !SECRET_FIELDS.has(k)))
    : null;
  const recorded = { ...entry, changes };
  await writeAuditRow(db, tx, recorded);
  await recordWebhookEvents(db, tx, recorded);
}
