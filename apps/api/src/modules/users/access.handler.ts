import { type IdInput, PERMISSIONS, type PermissionSource, type UserAccessResult } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import type { Actor } from '../../auth/actor.js';
import type { Context, HandlerCall } from '../../context.js';
import { canSeeTrash } from '../../domain/users.policy.js';
import { findUserForView } from './show.handler.js';

/**
 * GET /users/{id}/access: each permission the user holds, in the contract's order, with why:
 * every role of theirs granting it (by name), then `direct` when it was granted to them as well.
 * "Holds" is what the actor check reads on each request (auth/actor.ts): their roles' grants and
 * their direct ones. A trashed user is shown to those who may see the trash, like GET
 * /users/{id}; to anyone else it does not exist.
 */
export async function userAccess({
  ctx,
  input,
}: HandlerCall<IdInput, Context & { actor: Actor }>): Promise<UserAccessResult> {
  const user = await findUserForView(ctx, input.id, canSeeTrash(ctx.actor));
  const replacements = { userId: user.id };
  const [viaRoles, direct] = await Promise.all([
    ctx.db.sequelize.query<{ permission: string; id: number | string; name: string }>(
      `SELECT p.name AS permission, r.id, r.name
         FROM user_roles ur
         JOIN roles r ON r.id = ur.role_id
         JOIN role_permissions rp ON rp.role_id = r.id
         JOIN permissions p ON p.id = rp.permission_id
        WHERE ur.user_id = :userId
        ORDER BY r.name, r.id`,
      { replacements, type: QueryTypes.SELECT },
    ),
    ctx.db.sequelize.query<{ permission: string }>(
      `SELECT p.name AS permission
         FROM user_permissions up
         JOIN permissions p ON p.id = up.permission_id
        WHERE up.user_id = :userId`,
      { replacements, type: QueryTypes.SELECT },
    ),
  ]);
  const sources = new Map<string, PermissionSource[]>();
  const add = (permission: string, source: PermissionSource) =>
    sources.set(permission, [...(sources.get(permission) ?? []), source]);
  for (const grant of viaRoles) add(grant.permission, { kind: 'role', id: Number(grant.id), name: grant.name });
  for (const grant of direct) add(grant.permission, { kind: 'direct' });
  // Names the contract does not know are left out, as they are from the caller's capabilities.
  const permissions = PERMISSIONS.flatMap((name) => {
    const held = sources.get(name);
    return held ? [{ name, sources: held }] : [];
  });
  return { item: { id: user.id, permissions } };
}
