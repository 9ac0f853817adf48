import { ownEntry } from '@app/contracts';
import type { Actor } from '../auth/actor.js';
import { AppError, forbidden, forbiddenAnyOf, unauthenticated } from '../errors.js';
import type { ProcedureMeta } from './init.js';

type PermissionOf = NonNullable<ProcedureMeta['permissionOf']>;

/** The permission an input-dependent guard picks from the raw input, or null if the input names none it knows. */
function pickedPermission(by: PermissionOf, rawInput: unknown): string | null {
  if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput)) return null;
  const value = (rawInput as Record<string, unknown>)[by.field];
  return typeof value === 'string' ? (ownEntry(by.permissions, value) ?? null) : null;
}

/**
 * Who may call a procedure, decided from its meta alone, in this order: 401 without a signed-in
 * caller; 403 TWO_FACTOR_ENROLMENT_REQUIRED for a session held at enrolment, on every route but
 * those open `duringEnrolment` (so the hold covers both doors and every route added later); 403 naming the permission the route needs; for a route whose permission the input
 * picks (bulk), 403 when the caller holds none of those it could pick (no input could change
 * that), then — once the raw input is at hand — 403 naming the one it picked. The input is
 * never validated here; an input naming nothing known is left to validation (422).
 *
 * The one copy of the rule. tRPC's guard middleware runs it before the procedure validates its
 * input; the REST door runs it before it reads the body or query at all (without the raw input),
 * and the procedure's middleware then runs it again with the input.
 */
export function preflight(meta: ProcedureMeta | undefined, actor: Actor | null, rawInput?: unknown): void {
  if (!meta?.authenticated && !meta?.permission && !meta?.permissionOf) return;
  if (!actor) throw unauthenticated();
  if (actor.heldAtEnrolment && !meta.duringEnrolment) throw new AppError('TWO_FACTOR_ENROLMENT_REQUIRED');
  if (meta.permission && !actor.permissions.has(meta.permission)) throw forbidden(meta.permission);
  const by = meta.permissionOf;
  if (!by) return;
  const choices = [...new Set(Object.values(by.permissions))];
  if (!choices.some((p) => actor.permissions.has(p))) throw forbiddenAnyOf(choices);
  const picked = pickedPermission(by, rawInput);
  if (picked && !actor.permissions.has(picked)) throw forbidden(picked);
}
