import type { UserActions } from '@app/contracts';
import type { Database } from '../db/database.js';
import {
  type ActionFacts,
  type ActionsContext,
  type ActionSubject,
  actionsFrom,
  factsNeeded,
} from '../domain/users.actions.js';
import { permissionsBeyond } from './held-permissions.js';
import { activeAdminsOfRoleInPlay } from './users.locks.js';

/** The actions' context and a database to read their facts from. */
export type FactsContext = ActionsContext & { db: Database };

/**
 * What the actions of `ids` depend on, reading only what the caller's permissions make
 * relevant: nothing for a caller who may change nobody, the ceiling's grants only for a caller
 * lacking some permission, the administrators only for a caller who could take one away. The
 * reads go side by side and need only the ids, so a list reads them while it reads its rows:
 * `liveIds` (the active, live ones, as far as the caller knows) default to all of them, as the
 * administrators' read keeps only active, live users itself.
 */
export async function readActionFacts(
  ctx: FactsContext,
  ids: readonly number[],
  liveIds: readonly number[] = ids,
): Promise<ActionFacts> {
  const { db, actor } = ctx;
  if (ids.length === 0) return { held: new Map(), admins: new Set() };
  const { changesAnyone, removesAdmins } = factsNeeded(actor);
  const adminRole = ctx.config.users.activation.adminRoleName;
  const [held, admins] = await Promise.all([
    changesAnyone ? permissionsBeyond(db, null, actor, ids) : new Map<number, Set<string>>(),
    removesAdmins ? activeAdminsOfRoleInPlay(db, adminRole, liveIds) : new Set<number>(),
  ]);
  return { held, admins };
}

/** The actions of many users (a list page, one record). */
export async function actionsFor(
  ctx: FactsContext,
  subjects: readonly ActionSubject[],
): Promise<Map<number, UserActions>> {
  const live = subjects.filter((s) => s.is_active && !s.deleted).map((s) => s.id);
  return actionsFrom(
    ctx,
    subjects,
    await readActionFacts(
      ctx,
      subjects.map((s) => s.id),
      live,
    ),
  );
}
