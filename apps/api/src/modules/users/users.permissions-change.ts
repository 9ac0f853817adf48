import { type Permission, PERMISSIONS } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { inContractOrder } from '../../domain/users.rules.js';
import type { GrantDelta } from '../../domain/users.edit-plan.js';

const isPermission = (name: string): name is Permission => (PERMISSIONS as readonly string[]).includes(name);

/** The permission names granted to the user directly (not through a role), in the contract's order. */
export async function directGrantsOf(db: Database, tx: Transaction | null, userId: number): Promise<Permission[]> {
  const rows = await db.sequelize.query<{ name: string }>(
    `SELECT p.name FROM user_permissions up JOIN permissions p ON p.id = up.permission_id WHERE up.user_id = :userId`,
    { replacements: { userId }, type: QueryTypes.SELECT, transaction: tx },
  );
  // Names the contract does not know (a permission row left by an older release) are not offered.
  return inContractOrder(rows.map((r) => r.name)).filter(isPermission);
}

/** Writes the delta in `tx`: one DELETE and one INSERT at most. */
export async function replaceGrants(db: Database, tx: Transaction, userId: number, delta: GrantDelta): Promise<void> {
  if (delta.removed.length) {
    await db.sequelize.query(
      `DELETE FROM user_permissions WHERE user_id = :userId
          AND permission_id IN (SELECT id FROM permissions WHERE name IN (:names))`,
      { replacements: { userId, names: delta.removed }, transaction: tx },
    );
  }
  if (delta.added.length) {
    await db.sequelize.query(
      `INSERT INTO user_permissions (user_id, permission_id)
         SELECT :userId, id FROM permissions WHERE name IN (:names)`,
      { replacements: { userId, names: delta.added }, transaction: tx },
    );
  }
}
