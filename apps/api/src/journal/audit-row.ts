import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { ChangeEntry } from './entry.js';

/** Target rows per INSERT: a bulk's 10 000 targets in ten statements. */
const TARGETS_PER_INSERT = 1_000;

/** The audit row of `entry` and its target rows, in `tx`. Only `recordChange` calls it. */
export async function writeAuditRow(db: Database, tx: Transaction, entry: ChangeEntry): Promise<void> {
  const changes = entry.changes ?? null;
  const row = await db.models.AuditLog.create(
    {
      actor_id: entry.actorId,
      action: entry.action,
      target_type: entry.targetType ?? null,
      target_ids: entry.targetIds ?? [],
      changes,
      context: entry.source ? { source: entry.source, ...entry.context } : (entry.context ?? null),
      ip: entry.ip ?? null,
      request_id: entry.requestId ?? null,
      via: entry.via?.kind ?? null,
      via_name: entry.via?.name ?? null,
    },
    { transaction: tx },
  );
  // The event's targets, indexed for "this user's history", in the event's own transaction. Only
  // users: a role's id there would put the role's events in the history of the user with that id.
  const targets = entry.targetType === 'user' ? [...new Set(entry.targetIds ?? [])] : [];
  for (let i = 0; i < targets.length; i += TARGETS_PER_INSERT) {
    const part = targets.slice(i, i + TARGETS_PER_INSERT);
    await db.sequelize.query(
      `INSERT INTO audit_targets (target_id, audit_id, created_at) VALUES ${part.map(() => '(?, ?, ?)').join(', ')}`,
      {
        replacements: part.flatMap((target) => [target, row.id, row.created_at]),
        transaction: tx,
      },
    );
  }
}

/** Audit rows per multi-row INSERT (12 values each). */
const ROWS_PER_INSERT = 500;

/**
 * Many audit rows in multi-row statements, each naming one user: an import chunk's new accounts.
 * The same rows `writeAuditRow` writes one by one. Only `recordChanges` calls it.
 */
export async function writeAuditRows(db: Database, tx: Transaction, entries: readonly ChangeEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += ROWS_PER_INSERT) {
    const part = entries.slice(i, i + ROWS_PER_INSERT);
    const rows = await db.models.AuditLog.bulkCreate(
      part.map((entry) => ({
        actor_id: entry.actorId,
        action: entry.action,
        target_type: entry.targetType ?? null,
        target_ids: entry.targetIds ?? [],
        changes: entry.changes ?? null,
        context: entry.source ? { source: entry.source, ...entry.context } : (entry.context ?? null),
        ip: entry.ip ?? null,
        request_id: entry.requestId ?? null,
        via: entry.via?.kind ?? null,
        via_name: entry.via?.name ?? null,
      })),
      { transaction: tx },
    );
    const targets = rows.flatMap((row, k) =>
      part[k]?.targetType === 'user'
        ? [...new Set(part[k]?.targetIds ?? [])].map((id) => [id, row.id, row.created_at] as const)
        : [],
    );
    for (let j = 0; j < targets.length; j += TARGETS_PER_INSERT) {
      const slice = targets.slice(j, j + TARGETS_PER_INSERT);
      await db.sequelize.query(
        `INSERT INTO audit_targets (target_id, audit_id, created_at) VALUES ${slice.map(() => '(?, ?, ?)').join(', ')}`,
        { replacements: slice.flat(), transaction: tx },
      );
    }
  }
}
