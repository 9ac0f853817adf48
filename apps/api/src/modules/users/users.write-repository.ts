import { Op, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import type { User } from '../../db/models/index.js';

// A user's own row and its roles, as the single writes (create, edit) and the command line need them.

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
  isActive: boolean;
  /** What an identity provider knows the account by (SCIM): stored beside the e-mail. */
  identity?: UserIdentity;
}

/**
 * The account's identifiers in another system, written by the SCIM door (and imports, for
 * `external_id`): `externalId` is the provider's id for it; `userName` is stored only when it
 * differs from the e-mail (migration 0027). Absent keys stay as they are.
 */
export interface UserIdentity {
  externalId?: string | null;
  userName?: string | null;
  /** SCIM's name parts as sent (migration 0031). Absent: a rename drops the stored ones. */
  nameParts?: { givenName: string | null; familyName: string | null };
  /** SCIM's `primary` of the e-mail as sent (null: not said). Absent: a new e-mail is primary. */
  emailPrimary?: boolean | null;
}

/** Whether the write stores a userName of its own (one equal to the e-mail is not stored twice). */
export const storesUserName = (identity: UserIdentity | undefined, email: string) =>
  typeof identity?.userName === 'string' && identity.userName.toLowerCase() !== email.toLowerCase();

/** The identity's fields as the audit records them, when the account has them. */
export function identityAudit(user: Pick<User, 'external_id' | 'user_name' | 'given_name' | 'family_name'>) {
  return {
    ...(user.external_id ? { external_id: user.external_id } : {}),
    ...(user.user_name ? { user_name: user.user_name } : {}),
    ...(user.given_name ? { given_name: user.given_name } : {}),
    ...(user.family_name ? { family_name: user.family_name } : {}),
  };
}

/** The identity's columns, for the keys given. */
export function identityColumns(identity: UserIdentity | undefined, email: string) {
  if (!identity) return {};
  const { externalId, userName, nameParts, emailPrimary } = identity;
  return {
    ...(externalId !== undefined ? { external_id: externalId } : {}),
    ...(userName !== undefined ? { user_name: storesUserName(identity, email) ? userName : null } : {}),
    ...(nameParts !== undefined ? { given_name: nameParts.givenName, family_name: nameParts.familyName } : {}),
    ...(emailPrimary !== undefined ? { email_primary: emailPrimary } : {}),
  };
}

/** A rename's columns: the name parts an identity provider sent described the old name, so they go with it. */
export const RENAMED = { given_name: null, family_name: null } as const;

/**
 * What an edit does to what an identity provider said of the name and the e-mail, when the edit
 * itself says nothing of them: a rename drops the parts (SCIM then reads them from the new name),
 * a new e-mail is the account's primary one.
 */
export function describedColumns(
  identity: UserIdentity | undefined,
  current: { name: string; email: string },
  next: { name: string; email: string },
) {
  return {
    ...(identity?.nameParts === undefined && next.name !== current.name ? RENAMED : {}),
    ...(identity?.emailPrimary === undefined && next.email !== current.email ? { email_primary: true } : {}),
  };
}

/** Case-insensitive on both engines (NOCASE column on SQLite, _ci collation on MySQL); deleted users count. */
export async function emailTaken(
  db: Database,
  tx: Transaction | null,
  email: string,
  exceptId?: number,
): Promise<boolean> {
  const found = await db.models.User.findOne({
    attributes: ['id'],
    where: { email, ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) },
    paranoid: false,
    transaction: tx,
  });
  return found !== null;
}

export async function insertUser(db: Database, tx: Transaction, data: NewUser, roleIds: number[] = []): Promise<User> {
  const user = await db.models.User.create(
    {
      name: data.name,
      email: data.email,
      password_hash: data.passwordHash,
      is_active: data.isActive,
      ...identityColumns(data.identity, data.email),
    },
    { transaction: tx },
  );
  if (roleIds.length) {
    await db.models.UserRole.bulkCreate(
      roleIds.map((role_id) => ({ user_id: user.id, role_id })),
      { transaction: tx },
    );
  }
  return user;
}

export async function findByEmail(db: Database, tx: Transaction | null, email: string): Promise<User | null> {
  return db.models.User.findOne({ where: { email }, paranoid: false, transaction: tx });
}

export async function roleIdsOf(db: Database, tx: Transaction, userId: number): Promise<number[]> {
  const rows = await db.models.UserRole.findAll({ where: { user_id: userId }, transaction: tx, raw: true });
  return rows.map((r) => Number(r.role_id)).sort((a, b) => a - b);
}

export async function replaceRoles(db: Database, tx: Transaction, userId: number, add: number[], remove: number[]) {
  if (remove.length)
    await db.models.UserRole.destroy({ where: { user_id: userId, role_id: { [Op.in]: remove } }, transaction: tx });
  if (add.length)
    await db.models.UserRole.bulkCreate(
      add.map((role_id) => ({ user_id: userId, role_id })),
      { transaction: tx },
    );
}

/** Role ids among `ids` that do not exist. */
export async function unknownRoleIds(db: Database, tx: Transaction, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.models.Role.findAll({
    attributes: ['id'],
    where: { id: { [Op.in]: [...ids] } },
    transaction: tx,
  });
  const known = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}
