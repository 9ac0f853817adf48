import { PERMISSIONS, type PermissionOption, type RoleOption, roleNameKey } from '@app/contracts';
import type { Actor } from '../auth/actor.js';
import { inContractOrder } from './users.rules.js';

export interface RoleGrant {
  id: number;
  name: string;
  permissions: readonly string[];
}

/**
 * No privilege escalation: an actor may grant or remove a role only if it holds every
 * permission of that role itself. (Removing counts too: otherwise a manager could strip an
 * administrator of the admin role it could never grant back.)
 */
export function mayAssignRole(actor: Actor, role: RoleGrant): boolean {
  return role.permissions.every((p) => actor.permissions.has(p));
}

/** The roles among `changed` (added or removed) the actor may not touch, with the permissions it lacks. */
export function rolesBeyondActor(
  actor: Actor,
  changed: readonly RoleGrant[],
): Array<RoleGrant & { missing: string[] }> {
  return changed
    .filter((role) => !mayAssignRole(actor, role))
    .map((role) => ({ ...role, missing: permissionsBeyondActor(actor, role.permissions) }));
}

/**
 * The permissions among `granted` the actor does not hold, in the contract's order: an actor
 * gives a role (or a user) only permissions it holds itself.
 */
export const permissionsBeyondActor = (actor: Actor, granted: readonly string[]): string[] =>
  inContractOrder(granted.filter((p) => !actor.permissions.has(p)));

/**
 * A change to a user's direct grants (`changed`: the permissions added and removed) the actor
 * may make only when it holds each of them, as for roles: the permissions it lacks and the
 * sentence refusing it, or null.
 */
export function directGrantRefusal(
  actor: Actor,
  changed: readonly string[],
): { message: string; missing: string[] } | null {
  const missing = permissionsBeyondActor(actor, changed);
  if (missing.length === 0) return null;
  return {
    missing,
    message: `You can grant or take away only permissions you hold yourself; you do not hold ${missing.join(', ')}.`,
  };
}

/**
 * Each permission as the user form offers it as a direct grant to this actor: grantable, or not
 * with the sentence the write would refuse with (`directGrantRefusal`, the same rule).
 */
export function permissionOptions(actor: Actor): PermissionOption[] {
  return PERMISSIONS.map((name) => {
    const refusal = directGrantRefusal(actor, [name]);
    return refusal ? { name, grantable: false, reason: refusal.message } : { name, grantable: true };
  });
}

/** The sentence a write refuses a role with, naming the permissions the actor lacks. */
export const roleRefusal = (role: { name: string }, missing: readonly string[]) =>
  `You cannot grant or remove the role ${role.name}: it carries permissions you do not hold (${missing.join(', ')}).`;

/**
 * Each role as a form offers it to this actor: assignable, or not with the permissions it lacks
 * and the sentence the write would refuse with. The forms and the writes ask the same rule.
 */
export function roleOptions(actor: Actor, roles: readonly RoleGrant[]): RoleOption[] {
  const beyond = new Map(rolesBeyondActor(actor, roles).map((role) => [role.id, role.missing]));
  return roles.map(({ id, name }) => {
    const missing = beyond.get(id);
    return missing
      ? { id, name, assignable: false, missing, reason: roleRefusal({ name }, missing) }
      : { id, name, assignable: true };
  });
}

/** Roles named by people (a form's default roles, a file's roles cell) resolved and checked. */
export type NamedRoles =
  | { ids: number[] }
  | { unknown: { name: string; index: number } }
  | { beyond: RoleGrant & { missing: string[] } };

/** Roles by `roleNameKey`: what `rolesByName` looks names up in. */
export const rolesByKey = (roles: readonly RoleGrant[]): ReadonlyMap<string, RoleGrant> =>
  new Map(roles.map((role) => [roleNameKey(role.name), role]));

/**
 * The roles `names` name (whatever their case and spacing: "help  desk" names "Help Desk";
 * `roles` keyed by `roleNameKey`, see `rolesByKey`), each one the actor may grant: their ids (each once), else the first name no role has, else the first role
 * carrying a permission the actor lacks. An import's options and its lines ask this same rule.
 */
export function rolesByName(actor: Actor, roles: ReadonlyMap<string, RoleGrant>, names: readonly string[]): NamedRoles {
  const grants: RoleGrant[] = [];
  for (const [index, name] of names.entries()) {
    const role = roles.get(roleNameKey(name));
    if (!role) return { unknown: { name, index } };
    grants.push(role);
  }
  const beyond = rolesBeyondActor(actor, grants)[0];
  return beyond ? { beyond } : { ids: [...new Set(grants.map((g) => g.id))] };
}
