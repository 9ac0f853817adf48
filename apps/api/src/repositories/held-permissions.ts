import { QueryTypes, type Transaction } from 'sequelize';
import type { Actor } from '../auth/actor.js';
import type { Database } from '../db/database.js';
import { permissionsBeyondActor } from '../domain/escalation.js';
import { chunks } from './chunks.js';

const GRANTS = `SELECT ur.user_id AS user_id, rp.permission_id AS permission_id
    FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
   WHERE ur.user_id IN (:ids) AND rp.permission_id IN (:lacking)
  UNION
  SELECT up.user_id, up.permission_id FROM user_permissions up
   WHERE up.user_id IN (:ids) AND up.permission_id IN (:lacking)`;

/**
 * For each of `userIds`, the permissions it holds (through roles or directly) that `actor` does
 * not: all the privilege ceiling needs. An actor holding every permission costs one tiny read;
 * others read only the grants of the permissions they lack, one statement per 1 000 ids.
 * Read under the targets' row locks: a user's roles and direct permissions are replaced only
 * under that lock, so they hold until commit. What a role grants can change meanwhile (PUT
 * /roles/{id} locks the role, not its members); such a write is judged as of just before that
 * change, when the actor could change the target, and is not refused after the fact.
 */
export async function permissionsBeyond(
  db: Database,
  tx: Transaction | null,
  actor: Actor,
  userIds: readonly number[],
): Promise<Map<number, Set<string>>> {
  const held = new Map<number, Set<string>>();
  if (userIds.length === 0) return held;
  const all = await db.sequelize.query<{ id: number; name: string }>('SELECT id, name FROM permissions', {
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  const beyond = new Set(
    permissionsBeyondActor(
      actor,
      all.map((p) => p.name),
    ),
  );
  const lacking = new Map(all.filter((p) => beyond.has(p.name)).map((p) => [Number(p.id), p.name]));
  if (lacking.size === 0) return held;
  for (const part of chunks(userIds)) {
    const rows = await db.sequelize.query<{ user_id: number; permission_id: number }>(GRANTS, {
      replacements: { ids: part, lacking: [...lacking.keys()] },
      type: QueryTypes.SELECT,
      transaction: tx,
    });
    for (const row of rows) {
      const id = Number(row.user_id);
      const set = held.get(id) ?? new Set<string>();
      set.add(lacking.get(Number(row.permission_id)) as string);
      held.set(id, set);
    }
  }
  return held;
}
