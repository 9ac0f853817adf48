import type { Transaction } from 'sequelize';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { roleRefusal, rolesBeyondActor } from '../../domain/escalation.js';
import { AppError } from '../../errors.js';
import type { HandlerContext } from '../../context.js';
import { unknownRoleIds } from './users.write-repository.js';

export interface RoleDelta {
  added: number[];
  removed: number[];
}

/**
 * Replacing a user's roles: every new role must exist (422 at `roles_ids.<i>`), and the caller
 * must hold every permission of each role it adds or removes (403, anti-escalation).
 */
export async function checkRoleChange(
  ctx: HandlerContext,
  tx: Transaction,
  current: readonly number[],
  next: readonly number[],
): Promise<RoleDelta> {
  const added = next.filter((id) => !current.includes(id));
  const removed = current.filter((id) => !next.includes(id));
  const unknown = await unknownRoleIds(ctx.db, tx, added);
  if (unknown.length) {
    const errors = Object.fromEntries(
      unknown.map((id) => [`roles_ids.${next.indexOf(id)}`, [`There is no role with id ${id}.`]]),
    );
    throw new AppError('VALIDATION_FAILED', `There is no role with id ${unknown[0]}.`, { errors });
  }
  const beyond = rolesBeyondActor(ctx.actor, await loadRoleGrants(ctx.db, [...added, ...removed], tx));
  const first = beyond[0];
  if (first) {
    const message = roleRefusal(first, first.missing);
    throw new AppError('FORBIDDEN', message, {
      errors: { roles_ids: [message] },
      extra: { permission: first.missing[0] ?? '' },
    });
  }
  return { added, removed };
}
