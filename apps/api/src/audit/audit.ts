import type { Transaction } from 'sequelize';
import type { Actor, AuthMethod } from '../auth/actor.js';
import type { Database } from '../db/database.js';
import type { AuditChanges } from '../db/models/audit.model.js';
import { writeTransaction } from '../db/transaction.js';
import { recordWebhookEvents } from '../webhooks/outbox.js';

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
  /** How the change came in; kept in `via` and `via_name`. */
  via?: AuditVia | null;
}

export interface AuditVia {
  kind: 'session' | 'token' | 'cli';
  /** The API token's name, for `token`. */
  name?: string | null;
}

/** What an audit row needs to know about who asked and how: a request's context or the CLI's. */
export interface AuditOriginSource {
  actor: Actor;
  auth: AuthMethod | null;
  source?: 'cli';
  ip: string;
  requestId: string;
}

/** Who did it, from where and through which door: the origin fields of an audit entry. */
export function auditOriginOf(ctx: AuditOriginSource) {
  const via: AuditVia | null =
    ctx.source === 'cli'
      ? { kind: 'cli' }
      : ctx.auth?.via === 'token'
        ? { kind: 'token', name: ctx.auth.tokenName }
        : ctx.auth?.via === 'session'
          ? { kind: 'session' }
          : null;
  return {
    actorId: ctx.source === 'cli' ? null : ctx.actor.id,
    ip: ctx.ip || null,
    requestId: ctx.requestId,
    via,
    ...(ctx.source ? { source: ctx.source } : {}),
  };
}

/** Target rows per INSERT: a bulk's 10 000 targets in ten statements. */
const TARGETS_PER_INSERT = 1_000;

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

/**
 * Writes one audit row inside the caller's transaction: the change and its record commit
 * together. A user change also writes its webhook events there (the outbox, webhooks/outbox.ts):
 * every path that changes a user records it here, so none can change one without its event.
 */
export async function recordAudit(db: Database, tx: Transaction | null, entry: AuditEntry): Promise<void> {
  // An event about nothing else (a sign-in, an export) gets a transaction of its own: its row,
  // targets and webhook events commit together, in their turn among the writers.
  if (!tx) return writeTransaction(db, (own) => recordAudit(db, own, entry));
  const changes = entry.changes
    ? Object.fromEntries(Object.entries(entry.changes).filter(([k]) => !SECRET_FIELDS.has(k)))
    : null;
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
  await recordWebhookEvents(db, tx, { ...entry, changes });
}
