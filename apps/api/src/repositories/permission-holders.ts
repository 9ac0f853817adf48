import { PERMISSIONS } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { AppError } from '../errors.js';
import { lastHolderRefusal } from '../domain/roles.rules.js';

// The administrators' guarantee for permissions: some active user holds every one of them.
// Every write that may take permissions away (a role losing some or deleted, a user's direct
// grants removed) keeps it through `lastHolderGuard`.

/**
 * Whether an active user not in the trash holds every permission (through roles or directly),
 * read in `tx`. First through a role granting them all — one index probe per such role, and the
 * administrator role always is one; only when none has an active member are the users whose
 * roles and grants add up to everything looked for, a scan of every grant that no installation
 * with an active administrator ever runs.
 */
export async function someoneHoldsEverything(db: Database, tx: Transaction): Promise<boolean> {
  const known = await db.sequelize.query<{ id: number | string }>('SELECT id FROM permissions WHERE name IN (:all)', {
    replacements: { all: [...PERMISSIONS] },
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  const ids = known.map((p) => Number(p.id));
  if (ids.length === 0) return true;
  const full = await db.sequelize.query<{ role_id: number | string }>(
    `SELECT role_id FROM role_permissions WHERE permission_id IN (:ids)
      GROUP BY role_id HAVING COUNT(*) = :n`,
    { replacements: { ids, n: ids.length }, type: QueryTypes.SELECT, transaction: tx },
  );
  if (full.length) {
    const [holder] = await db.sequelize.query(
      `SELECT 1 AS found FROM user_roles ur JOIN users u ON u.id = ur.user_id
        WHERE ur.role_id IN (:roles) AND u.is_active = 1 AND u.deleted_at IS NULL LIMIT 1`,
      { replacements: { roles: full.map((r) => Number(r.role_id)) }, type: QueryTypes.SELECT, transaction: tx },
    );
    if (holder) return true;
  }
  const [holder] = await db.sequelize.query(
    `SELECT g.user_id FROM (
        SELECT ur.user_id, rp.permission_id FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
         WHERE rp.permission_id IN (:ids)
        UNION
        SELECT up.user_id, up.permission_id FROM user_permissions up WHERE up.permission_id IN (:ids)
      ) g JOIN users u ON u.id = g.user_id AND u.is_active = 1 AND u.deleted_at IS NULL
      GROUP BY g.user_id HAVING COUNT(*) = :n LIMIT 1`,
    { replacements: { ids, n: ids.length }, type: QueryTypes.SELECT, transaction: tx },
  );
  return holder !== undefined;
}

/**
 * The last-holder guard of a change that may take permissions away: `before` is read before the
 * change and `check` after it, both in the change's transaction, after `lockAdministratorChanges`
 * — so two such changes run in turn and the second reads what the first left. A change is
 * refused (LAST_ADMIN) only when it would end the guarantee; where nobody held everything
 * before, it has none to keep.
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
