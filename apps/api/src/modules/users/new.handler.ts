import type { UserNewResult } from '@app/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { permissionOptions, roleOptions } from '../../domain/escalation.js';
import { usersPolicy } from '../../domain/users.policy.js';
import { attributeFieldsFor } from '../attributes/attribute-values.repository.js';

/**
 * GET /users/new: what the create form needs. Every role says whether the caller may grant it
 * (anti-escalation) and, when not, the permissions it lacks; every permission whether the caller
 * may grant it directly, as the edit data offers it; `can.setActive` whether it may create the
 * account inactive; `attributes` the custom attributes it may see and set. POST /users judges the same rules again.
 */
export async function newUserForm({ ctx }: { ctx: { db: Database; actor: Actor } }): Promise<UserNewResult> {
  return {
    options: {
      roles: roleOptions(ctx.actor, await loadRoleGrants(ctx.db, 'all')),
      permissions: permissionOptions(ctx.actor),
      attributes: await attributeFieldsFor(ctx.db, ctx.actor),
    },
    can: { setActive: usersPolicy.createInactive(ctx.actor) },
  };
}
