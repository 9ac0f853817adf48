import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { AuditChanges } from '../db/models/audit.model.js';

/** Fields that never enter the audit trail, whatever the caller passes. */
const SECRET_FIELDS = new Set(['password', 'password_confirmation', 'password_hash', 'token', 'token_hash']);

export interface AuditEntry {
  actorId: number | null;
  action: string;
  targetType?: string;
  targetIds?: number[];
  changes?: AuditChanges | null;
  context?: Record<string, unknown>;
  ip?: string | null;
  requestId?: string | null;
  /** Set for changes made outside a request (the command line); kept in `context.source`. */
  source?: 'cli';
}

/** Before/after of the fields that changed, secrets removed. `undefined` means absent on that side. */
export function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): AuditChanges {
  const out: AuditChanges = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    if (SECRET_FIELDS.has(key)) continue;
    const a = before?.[key] ?? null;
    const b = after?.[key] ?? null;
    const same =
      a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : JSON.stringify(a) === JSON.stringify(b);
    if (!same) out[key] = { before: a, after: b };
  }
  return out;
}

/** Writes one audit row inside the caller's transaction: the change and its record commit together. */
export async function recordAudit(db: Database, tx: Transaction | null, entry: AuditEntry): Promise<void> {
  const changes = entry.changes
    ? Object.fromEntries(Object.entries(entry.changes).filter(([k]) => !SECRET_FIELDS.has(k)))
    : null;
  await db.models.AuditLog.create(
    {
      actor_id: entry.actorId,
      action: entry.action,
      target_type: entry.targetType ?? null,
      target_ids: entry.targetIds ?? [],
      changes,
      context: entry.source ? { source: entry.source, ...entry.context } : (entry.context ?? null),
      ip: entry.ip ?? null,
      request_id: entry.requestId ?? null,
    },
    { transaction: tx },
  );
}
