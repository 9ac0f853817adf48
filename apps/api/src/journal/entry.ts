import type { AuditAction } from '@app/contracts';
import type { Actor, AuthMethod } from '../auth/actor.js';
import type { AuditChanges } from '../db/models/audit.model.js';

/** Fields that never enter the audit trail, whatever the caller passes. */
export const SECRET_FIELDS = new Set(['password', 'password_confirmation', 'password_hash', 'token', 'token_hash']);

/**
 * One change as the journal records it. `action` is the contract's `AuditAction`: renaming an
 * action in the contract is a type error here and in the webhook plan, never a silently lost event.
 */
export interface ChangeEntry {
  actorId: number | null;
  action: AuditAction;
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
  /**
   * What the change's webhook event reports of the thing changed when the audit row does not hold
   * it whole (an attribute's definition after a change); never written to the audit trail.
   */
  subject?: Record<string, unknown>;
}

interface AuditVia {
  kind: 'session' | 'token' | 'scim' | 'cli';
  /** The API token's name, for `token` and `scim`. */
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
        ? { kind: ctx.auth.door ?? 'token', name: ctx.auth.tokenName }
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
