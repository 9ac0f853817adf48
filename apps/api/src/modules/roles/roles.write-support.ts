import type { RoleItem } from '@app/contracts';
import type { UniqueConstraintError } from 'sequelize';
import type { RoleViolation } from '../../domain/roles.rules.js';
import { AppError } from '../../errors.js';
import { roleItemOf } from './roles.item.js';
import type { Database } from '../../db/database.js';
import { type RoleRow, roleNamed } from './roles.write-repository.js';

// What the role writes share: their refusals and the item they answer with.

/** A rule's refusal as the doors send it: the field it concerns, and the first permission missing. */
export function refuseRole(violation: RoleViolation): never {
  const { code, message, field, missing } = violation;
  const lacking = code === 'ROLE_PROTECTED' ? undefined : missing?.[0];
  throw new AppError(code, message, {
    ...(field ? { errors: { [field]: [message] } } : {}),
    ...(lacking ? { extra: { permission: lacking } } : {}),
  });
}

/** 422 at `name`, naming the role that already has the name (its own spelling of it). */
export function nameTaken(name: string): AppError {
  const message = `A role named ${name} already exists.`;
  return new AppError('VALIDATION_FAILED', message, { errors: { name: [message] } });
}

/**
 * The refusal for a write the unique `name_key` index stopped (two writers racing for one name):
 * names the role that won, read after the loser's transaction ended.
 */
export async function nameTakenInRace(db: Database, name: string, exceptId: number | null = null): Promise<AppError> {
  const winner = await roleNamed(db, null, name, exceptId);
  return nameTaken(winner?.name ?? name);
}

/** The role's id in an identity provider (SCIM's group `externalId`): absent keys stay as they are. */
export interface RoleIdentity {
  externalId?: string | null;
}

export const EXTERNAL_ID_TAKEN = 'This external id is already used by another role.';

/**
 * A write the unique indexes stopped: the external id's (`roles_external_id`), or the name's,
 * naming the role that won.
 */
export async function uniqueRoleRefusal(
  db: Database,
  err: UniqueConstraintError,
  name: string,
  exceptId: number | null = null,
): Promise<AppError> {
  const said = `${JSON.stringify(err.fields ?? {})} ${err.original?.message ?? ''}`;
  if (said.includes('external_id')) {
    return new AppError('VALIDATION_FAILED', EXTERNAL_ID_TAKEN, { errors: { external_id: [EXTERNAL_ID_TAKEN] } });
  }
  return nameTakenInRace(db, name, exceptId);
}

export const staleVersion = () =>
  new AppError(
    'VERSION_CONFLICT',
    'Someone else changed this role after you opened it. Reload to see their changes, then edit again.',
  );

export function roleInUse(name: string, members: { count: number; trashed: number }): AppError {
  const { count } = members;
  const users = count === 1 ? '1 user' : `${count} users`;
  const trash = members.trashed ? ` (${members.trashed} of them in the trash)` : '';
  return new AppError(
    'ROLE_IN_USE',
    `The role ${name} is given to ${users}${trash}. Delete it with detach=true to take it from them.`,
  );
}

/** The role as a write answers with it: its row and the permissions it grants. */
export function writtenRoleItem(role: RoleRow, permissions: Array<{ id: number; name: string }>): RoleItem {
  return { ...roleItemOf(role), permissions, permissions_count: permissions.length };
}
