import type { ActionState, ErrorCode, Permission } from '@app/contracts';
import { PERMISSIONS } from '@app/contracts';
import type { Actor } from '../auth/actor.js';
import { permissionsBeyondActor } from './escalation.js';

/**
 * The rules of changing roles, decided here for every door (REST, tRPC, the command line, the
 * SPA's per-row actions): pure functions over what the caller holds and what the role grants.
 * What needs the database (a name taken, the last holder of every permission) is read by the
 * write and judged by `lastHolderRefusal` here too.
 */

/** A role as the rules see it: its name and the permission names it grants. */
export interface RoleSubject {
  id: number;
  name: string;
  permissions: readonly string[];
}

export type RoleChange =
  | { kind: 'create'; name: string; permissions: readonly string[] }
  | { kind: 'update'; role: RoleSubject; name: string; permissions: readonly string[] }
  | { kind: 'delete'; role: RoleSubject };

/** Why a change is refused: its code, the sentence, the input field it concerns and what is missing. */
export interface RoleViolation {
  code: Extract<ErrorCode, 'FORBIDDEN' | 'OUTRANKED' | 'ROLE_PROTECTED'>;
  message: string;
  field?: 'name' | 'permissions';
  /** The permissions the caller lacks, in the contract's order. */
  missing?: string[];
}

const PERMISSION_OF: Readonly<Record<RoleChange['kind'], Permission>> = {
  create: 'roles.create',
  update: 'roles.update',
  delete: 'roles.delete',
};

/** Whether `role` is the administrator role (`USERS_ACTIVATION_ADMIN_ROLE_NAME`), whatever its case. */
export const isAdminRole = (role: { name: string }, adminRoleName: string) =>
  role.name.toLowerCase() === adminRoleName.toLowerCase();

const list = (names: readonly string[]) => names.join(', ');

/**
 * The first rule `change` breaks for `actor`, or null. In order: the permission for the kind of
 * change; the administrator role, which always holds every permission and keeps its name; the
 * role ceiling (a role is changed or deleted only by one holding everything it grants, as a
 * user is); no escalation (a role is given only permissions the caller holds).
 */
export function judgeRoleChange(actor: Actor, change: RoleChange, adminRoleName: string): RoleViolation | null {
  const permission = PERMISSION_OF[change.kind];
  if (!actor.permissions.has(permission)) {
    return { code: 'FORBIDDEN', message: `You need the ${permission} permission to do this.`, missing: [permission] };
  }
  if (change.kind !== 'create' && isAdminRole(change.role, adminRoleName)) {
    if (change.kind === 'delete') {
      return { code: 'ROLE_PROTECTED', message: `The ${change.role.name} role cannot be deleted.` };
    }
    if (change.name !== change.role.name) {
      return { code: 'ROLE_PROTECTED', field: 'name', message: `The ${change.role.name} role cannot be renamed.` };
    }
    const dropped = PERMISSIONS.filter((p) => !change.permissions.includes(p));
    if (dropped.length) {
      const message = `The ${change.role.name} role always holds every permission; it cannot lose ${list(dropped)}.`;
      return { code: 'ROLE_PROTECTED', field: 'permissions', message, missing: dropped };
    }
  }
  if (change.kind !== 'create') {
    const missing = permissionsBeyondActor(actor, change.role.permissions);
    if (missing.length) {
      const verb = change.kind === 'delete' ? 'delete' : 'change';
      const message = `You cannot ${verb} the role ${change.role.name}: it grants permissions you do not hold (${list(missing)}).`;
      return { code: 'OUTRANKED', message, missing };
    }
  }
  if (change.kind !== 'delete') {
    const missing = permissionsBeyondActor(actor, change.permissions);
    if (missing.length) {
      const message = `You can grant only permissions you hold yourself; you do not hold ${list(missing)}.`;
      return { code: 'FORBIDDEN', field: 'permissions', message, missing };
    }
  }
  return null;
}

/**
 * What the caller may do to `role`, as a list row and the role's page show it (the writes' own
 * rule). A FORBIDDEN state means the caller lacks the permission for that kind of change (judged
 * first, and the only FORBIDDEN a change of the role's own permissions can meet): the SPA hides
 * such an action and shows every other refusal locked, with its sentence.
 */
export function roleActions(
  actor: Actor,
  role: RoleSubject,
  adminRoleName: string,
): { update: ActionState; delete: ActionState } {
  const state = (violation: RoleViolation | null): ActionState =>
    violation ? { allowed: false, code: violation.code, message: violation.message } : { allowed: true };
  return {
    // Judged as saving the role unchanged: the ceiling and the permission, nothing about an edit.
    update: state(
      judgeRoleChange(actor, { kind: 'update', role, name: role.name, permissions: role.permissions }, adminRoleName),
    ),
    delete: state(judgeRoleChange(actor, { kind: 'delete', role }, adminRoleName)),
  };
}

/**
 * The sentence refusing a change after which no active user would hold every permission (the
 * administrators' guarantee, for roles): `holdersAfter` is how many would, counted by the write
 * under its locks.
 */
export const lastHolderRefusal = (holdersAfter: number): string | null =>
  holdersAfter > 0
    ? null
    : 'This would leave no active user holding every permission. Give someone the administrator role first.';
