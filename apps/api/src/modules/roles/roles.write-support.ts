import type { RoleItem } from '@app/contracts';
import type { Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { lastHolderRefusal, type RoleViolation } from '../../domain/roles.rules.js';
import { AppError } from '../../errors.js';
import { roleItemOf } from './roles.item.js';
import { type RoleRow, someoneHoldsEverything } from './roles.write-repository.js';

// What the role writes share: their refusals, the last-holder guard and the item they answer with.

/** A rule's refusal as the doors send it: the field it concerns, and the first permission missing. */
export function refuseRole(violation: RoleViolation): never {
  const { code, message, field, missing } = violation;
  const lacking = code === 'ROLE_PROTECTED' ? undefined : missing?.[0];
  throw new AppError(code, message, {
    ...(field ? { errors: { [field]: [message] } } : {}),
    ...(lacking ? { extra: { permission: lacking } } : {}),
  });
}

export function nameTaken(name: string): AppError {
  const message = `A role named ${name} already exists.`;
  return new AppError('VALIDATION_FAILED', message, { errors: { name: [message] } });
}

export const staleVersion = () =>
  new AppError(
    'VERSION_CONFLICT',
    'Someone else changed this role after you opened it. Reload to see their changes, then edit again.',
  );

export function roleInUse(name: string, members: { ids: readonly number[]; trashed: number }): AppError {
  const count = members.ids.length;
  const users = count === 1 ? '1 user' : `${count} users`;
  const trash = members.trashed ? ` (${members.trashed} of them in the trash)` : '';
  return new AppError(
    'ROLE_IN_USE',
    `The role ${name} is given to ${users}${trash}. Delete it with detach=true to take it from them.`,
  );
}

/**
 * The last-holder guard of a change that may take permissions away (a role losing some, a role
 * deleted from its members): `before` is read before the change and `check` after it, both in
 * the change's transaction, after `lockAdministratorChanges` — so two such changes run in turn
 * and the second reads what the first left. A change is refused (LAST_ADMIN) only when it would
 * end the guarantee; where nobody held everything before, it has none to keep.
 */
export async function lastHolderGuard(db: Database, tx: Transaction) {
  const before = await someoneHoldsEverything(db, tx);
  return {
    async check(): Promise<void> {
      if (!before) return;
      const refusal = lastHolderRefusal((await someoneHoldsEverything(db, tx)) ? 1 : 0);
      if (refusal) throw new AppError('LAST_ADMIN', refusal);
    },
  };
}

/** The role as a write answers with it: its row and the permissions it grants. */
export function writtenRoleItem(role: RoleRow, permissions: Array<{ id: number; name: string }>): RoleItem {
  return { ...roleItemOf(role), permissions, permissions_count: permissions.length };
}
